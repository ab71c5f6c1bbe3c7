"""Peer benchmark: every kpca estimator against its scikit-learn peer.

For each case (an estimator at one size) three methods are timed:

``kpca``
    the kpca estimator's ``fit_transform``;
``sklearn``
    its scikit-learn peer's ``fit_transform``;
``floor``
    the unavoidable work of the case measured alone: for PCA one pass over
    the centred X (``Xc.T @ Xc``, the syrk of the covariance route, or the
    Gram product ``Xc @ Xc.T`` when n < d); for classical MDS squaring the
    distances, double centring and one product ``B @ V`` with a block of k
    vectors; for exact kernel PCA forming K (``kpca.gaussian_kernel``) and
    one product ``K @ V``; for Nystroem the n x m kernel block against the
    landmarks formed once; for random features the n x D feature matrix
    ``sqrt(2/D) cos(X W + b)`` formed once.  Its inputs (the centred X, the
    landmarks, W and b) are made before the clock starts.

Two modes, each interleaving the methods in rounds whose order rotates
(kpca, sklearn, floor; sklearn, floor, kpca; ...), ratios taken within a
round, so a slow spell of the shared machine hits both sides of a ratio:

``fresh``
    every timing is a new Python process that warms up on a smaller
    problem of the same shape, makes the data, pauses, then runs once; its
    memory is the peak resident set size above the RSS just before the run
    (``VmHWM`` reset through ``/proc/self/clear_refs``), which counts what
    BLAS and LAPACK allocate themselves.
``inprocess``
    one new process per case, as a notebook: a warm-up fit of each method
    on a smaller problem and one on the real data, then repeated fits
    alternating in the same process; memory is tracemalloc's peak of the
    warm-up fit on the real data (NumPy's allocations, not BLAS's work
    space; none for the slow cases, which skip that fit) and the peak RSS
    above the RSS before each timed fit.

Per case and mode the stored summary has the median and range of the paired
ratios sklearn / kpca (above 1: kpca is faster) and kpca / floor, the peak
memory of each side, and an accuracy check: kpca's top eigenvalues against a
reference (PCA: LAPACK's ``eigvalsh`` of the floor's matrix; MDS: scikit-
learn's full ``eigh``; exact kernel PCA: ARPACK with ``tol=0``; Nystroem and
random features: scikit-learn's pipeline, which draws other landmarks or
features, so the tolerance is the approximation's own error), so a fast wrong
answer cannot pass unnoticed.

The BLAS kernels are chosen by the environment (``OPENBLAS_CORETYPE``), one
family per invocation; the results of several invocations are merged into
one file keyed by the kernel (its ``OPENBLAS_CORETYPE`` or ``"default"``),
each case and mode replacing only its own entry, with threadpoolctl's view of
the BLAS, the versions, the machine, the date and the load average.

Data: ``np.random.default_rng(0).standard_normal((n, d))``; MDS gets the
Euclidean distances of n such points in d = 10; the kernels are Gaussian with
gamma = 1/d (sigma = sqrt(d/2)).

Usage::

    python benchmarks/bench_peer.py                          # everything, this kernel
    OPENBLAS_CORETYPE=Sandybridge python benchmarks/bench_peer.py
    python benchmarks/bench_peer.py --case pca-tall --mode fresh --rounds 5
    python benchmarks/bench_peer.py --case mds               # a family
    python benchmarks/bench_peer.py --list                   # the cases
    python benchmarks/bench_peer.py --quick                  # tiny sizes, no file
    python benchmarks/bench_peer.py --table                  # README tables
    python benchmarks/bench_peer.py --merge other.json       # into the stored file
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import pathlib
import sys
import time
import tracemalloc

import numpy as np

# The shared helpers sit next to this script.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from benchlib import (  # noqa: E402
    blas_libraries,
    fmt_spread,
    load_average,
    machine,
    memory_status,
    reset_peak_rss,
    run_in_new_process,
    spread,
    stored_results,
    versions,
)

RESULTS = stored_results("peer")
METHODS = ("kpca", "sklearn", "floor")
MODES = ("fresh", "inprocess")
# Rounds per mode unless --rounds says otherwise; the slow cases (a full
# eigh of a 10,000 x 10,000 matrix by scikit-learn) get --slow-rounds.
DEFAULT_ROUNDS = {"fresh": 3, "inprocess": 5}
DEFAULT_SLOW_ROUNDS = 1
# After a multi-threaded call OpenBLAS keeps its threads spinning for about
# 0.1 s; a run started inside that window shares a core with them.  (No
# pause in --quick, whose timings mean nothing.)
PAUSE_S = 0.25
MDS_FEATURES = 10

# family, sizes, and the tiny sizes of --quick (same shape class: tall,
# square or wide; n > m for the approximations).
CASES: dict[str, dict] = {
    "pca-tall": {"family": "pca", "n": 100_000, "d": 50, "quick": (2000, 20)},
    "pca-square": {"family": "pca", "n": 2000, "d": 500, "quick": (200, 50)},
    "pca-large": {"family": "pca", "n": 20_000, "d": 1000, "quick": (800, 40)},
    "pca-wide": {"family": "pca", "n": 1000, "d": 10_000, "quick": (40, 300)},
    "mds-1000": {"family": "mds", "n": 1000, "quick": (60,)},
    "mds-3000": {"family": "mds", "n": 3000, "quick": (90,)},
    "mds-10000": {"family": "mds", "n": 10_000, "quick": (120,), "slow": True},
    "kpca-2000": {"family": "kpca", "n": 2000, "quick": (100,)},
    "kpca-4000": {"family": "kpca", "n": 4000, "quick": (150,)},
    "kpca-8000": {"family": "kpca", "n": 8000, "quick": (200,)},
    "nystroem-20000": {"family": "nystroem", "n": 20_000, "quick": (400,)},
    "nystroem-100000": {"family": "nystroem", "n": 100_000, "quick": (600,)},
    "rff-20000": {"family": "rff", "n": 20_000, "quick": (400,)},
    "rff-100000": {"family": "rff", "n": 100_000, "quick": (600,)},
}
FAMILIES = ("pca", "mds", "kpca", "nystroem", "rff")
# The features of the kernel and approximation cases (as the scale benchmark).
KERNEL_FEATURES = 10
N_FEATURES_MAP = 1000  # Nystroem's m and random features' D
QUICK_FEATURES_MAP = 200
# kpca's top eigenvalues against the reference, relative.  The exact cases
# are exact up to round-off and the iterative solvers' stopping rule.  The
# approximations are compared with scikit-learn's, which draws other
# landmarks or features: at m = 1000 and n = 20,000 either is within 0.3%
# (Nystroem) or 18% (random features) of the exact eigenvalues (the scale
# benchmark's accuracy part), so the two may differ by twice that.
TOLERANCE = {
    "pca": 1e-8,
    "mds": 1e-8,
    "kpca": 1e-8,
    "nystroem": 0.02,
    "rff": 0.4,
}
REFERENCE = {
    "pca": "LAPACK eigvalsh of the floor's matrix (centred covariance or Gram)",
    "mds": "scikit-learn's ClassicalMDS (full LAPACK eigh)",
    "kpca": "scikit-learn's KernelPCA (ARPACK, tol=0)",
    "nystroem": "scikit-learn's Nystroem + PCA (other landmarks)",
    "rff": "scikit-learn's RBFSampler + PCA (other features)",
}
PEERS = {
    "pca": 'sklearn.decomposition.PCA(10, svd_solver="auto", random_state=0)',
    "mds": 'sklearn.manifold.ClassicalMDS(2, metric="precomputed")',
    "kpca": 'sklearn.decomposition.KernelPCA(10, kernel="rbf", gamma=1/d, eigen_solver="arpack", random_state=0)',
    "nystroem": "Nystroem(gamma=1/d, n_components=1000, random_state=0) + PCA(10, random_state=0)",
    "rff": "RBFSampler(gamma=1/d, n_components=1000, random_state=0) + PCA(10, random_state=0)",
}
OURS = {
    "pca": "kpca.PCA(10, random_state=0)",
    "mds": 'kpca.ClassicalMDS(2, metric="precomputed")',
    "kpca": "kpca.KernelPCA(10, sigma=sqrt(d/2), random_state=0)",
    "nystroem": "kpca.NystroemKernelPCA(10, sigma=sqrt(d/2), n_landmarks=1000, random_state=0)",
    "rff": "kpca.RandomFourierKernelPCA(10, sigma=sqrt(d/2), n_random_features=1000, random_state=0)",
}
FLOORS = {
    "pca": "Xc.T @ Xc on the centred X (Xc @ Xc.T when n < d)",
    "mds": "D * D, double centring in place, one product B @ V (V: n x 2)",
    "kpca": "kpca.gaussian_kernel(X) and one product K @ V (V: n x 10)",
    "nystroem": "kpca.gaussian_kernel(X, landmarks): the n x m block once",
    "rff": "sqrt(2/D) cos(X @ W + b): the n x D features once",
}


# -- one case ---------------------------------------------------------------------------
def case_spec(name: str, quick: bool) -> dict:
    """The sizes of a case: n, d, k and m (for the approximations)."""
    case = CASES[name]
    family = case["family"]
    n = case["quick"][0] if quick else case["n"]
    if family == "pca":
        d = case["quick"][1] if quick else case["d"]
    else:
        d = MDS_FEATURES if family == "mds" else KERNEL_FEATURES
    spec = {"name": name, "family": family, "n": n, "d": d}
    spec["k"] = 2 if family == "mds" else 10
    if family in ("nystroem", "rff"):
        spec["m"] = QUICK_FEATURES_MAP if quick else N_FEATURES_MAP
    return spec


def warm_spec(spec: dict) -> dict:
    """A smaller problem on the same code paths, for the warm-up run."""
    family, n = spec["family"], spec["n"]
    if family == "pca":
        rows = min(n, max(1000, 10 * spec["d"]))
    elif family in ("nystroem", "rff"):
        rows = min(n, 2 * spec["m"])
    else:
        rows = min(n, 1000)
    return spec | {"n": rows}


def make_inputs(spec: dict, method: str) -> dict:
    """The inputs of the timed call; the floors' extras are made here too."""
    from scipy.spatial.distance import pdist, squareform

    rng = np.random.default_rng(0)
    family, n, d, k = spec["family"], spec["n"], spec["d"], spec["k"]
    X = rng.standard_normal((n, d))
    if family == "mds":
        return {"D": squareform(pdist(X)), "V": rng.standard_normal((n, k))}
    if method != "floor":
        return {"X": X}
    if family == "pca":
        return {"Xc": X - X.mean(axis=0)}
    if family == "kpca":
        return {"X": X, "V": rng.standard_normal((n, k))}
    m = spec["m"]
    if family == "nystroem":
        return {"X": X, "L": X[rng.choice(n, m, replace=False)]}
    W = rng.standard_normal((d, m)) / np.sqrt(d / 2.0)
    return {"X": X, "W": W, "b": rng.uniform(0.0, 2.0 * np.pi, m)}


def build_kpca(spec: dict):
    """kpca's estimator for the case."""
    import kpca

    family, k, sigma = spec["family"], spec["k"], np.sqrt(spec["d"] / 2.0)
    if family == "pca":
        return kpca.PCA(k, random_state=0)
    if family == "mds":
        return kpca.ClassicalMDS(k, metric="precomputed")
    if family == "kpca":
        return kpca.KernelPCA(k, sigma=sigma, random_state=0)
    if family == "nystroem":
        return kpca.NystroemKernelPCA(
            k, sigma=sigma, n_landmarks=spec["m"], random_state=0
        )
    return kpca.RandomFourierKernelPCA(
        k, sigma=sigma, n_random_features=spec["m"], random_state=0
    )


def build_sklearn(spec: dict):
    """scikit-learn's peer for the case."""
    from sklearn.decomposition import PCA, KernelPCA

    family, k, gamma = spec["family"], spec["k"], 1.0 / spec["d"]
    if family == "pca":
        return PCA(k, random_state=0)
    if family == "mds":
        from sklearn.manifold import ClassicalMDS

        return ClassicalMDS(k, metric="precomputed")
    if family == "kpca":
        return KernelPCA(
            k,
            kernel="rbf",
            gamma=gamma,
            eigen_solver="arpack",
            random_state=0,
        )
    from sklearn.kernel_approximation import Nystroem, RBFSampler
    from sklearn.pipeline import make_pipeline

    feature_map = Nystroem if family == "nystroem" else RBFSampler
    return make_pipeline(
        feature_map(gamma=gamma, n_components=spec["m"], random_state=0),
        PCA(k, random_state=0),
    )


def floor(family: str, inputs: dict, sigma: float):
    """The unavoidable work of the case alone (see the module docstring)."""
    if family == "pca":
        Xc = inputs["Xc"]
        return Xc.T @ Xc if Xc.shape[0] >= Xc.shape[1] else Xc @ Xc.T
    if family == "mds":
        B = inputs["D"] * inputs["D"]
        means = B.mean(axis=0)  # B is symmetric: row means = column means
        grand = means.mean()
        B -= means
        B -= means[:, None]
        B += grand
        B *= -0.5
        return B @ inputs["V"]
    import kpca

    if family == "kpca":
        return kpca.gaussian_kernel(inputs["X"], sigma=sigma) @ inputs["V"]
    if family == "nystroem":
        return kpca.gaussian_kernel(inputs["X"], inputs["L"], sigma=sigma)
    Z = inputs["X"] @ inputs["W"]
    Z += inputs["b"]
    np.cos(Z, out=Z)
    Z *= np.sqrt(2.0 / Z.shape[1])
    return Z


def build(spec: dict, method: str):
    """A function inputs -> result for ``method`` (imports happen here)."""
    if method == "floor":
        sigma = float(np.sqrt(spec["d"] / 2.0))
        return lambda inputs: floor(spec["family"], inputs, sigma)
    make = build_kpca if method == "kpca" else build_sklearn

    def fit(inputs):
        model = make(spec)
        model.fit_transform(inputs["D"] if "D" in inputs else inputs["X"])
        return model

    return fit


def eigenvalues(spec: dict, method: str, result) -> list[float] | None:
    """The top eigenvalues a result gives (untimed); None if it gives none.

    PCA: the squared singular values (eigenvalues of the scatter matrix, free
    of the 1/n or 1/(n-1) convention); MDS and exact kernel PCA:
    ``eigenvalues_``; the scikit-learn pipelines: their PCA's squared
    singular values, the eigenvalues of the centred feature Gram matrix, as
    kpca's ``eigenvalues_``.
    """
    family, k = spec["family"], spec["k"]
    if method == "floor":
        if family != "pca":
            return None
        values = np.linalg.eigvalsh(result)[::-1][:k]
    elif family == "pca":
        values = np.asarray(result.singular_values_) ** 2
    elif method == "sklearn" and family in ("nystroem", "rff"):
        values = np.asarray(result[-1].singular_values_) ** 2
    else:
        values = np.asarray(result.eigenvalues_)
    return [float(v) for v in values]


def settle(quick: bool) -> None:
    """Collect garbage and let BLAS's threads sleep, before a timed run.

    Not in --quick, whose timings mean nothing: a collection takes 0.1 s
    with scikit-learn and SciPy loaded, most of the smoke test's time.
    """
    if not quick:
        gc.collect()
        time.sleep(PAUSE_S)


def run_fresh(name: str, method: str, quick: bool) -> dict:
    """In this (new) process: warm up, then time one run of ``method``."""
    spec = case_spec(name, quick)
    fn = build(spec, method)
    warm = warm_spec(spec)
    fn(make_inputs(warm, method))
    inputs = make_inputs(spec, method)
    settle(quick)
    before = reset_peak_rss()
    start = time.perf_counter()
    result = fn(inputs)
    elapsed = time.perf_counter() - start
    peak = memory_status()["VmHWM"]
    return {
        "time_s": elapsed,
        "rss_before_mib": before,
        "peak_rss_above_before_mib": peak - before,
        "eigenvalues": eigenvalues(spec, method, result),
    }


def run_inprocess(name: str, rounds: int, quick: bool) -> dict:
    """In this process: warm up, then alternate the methods ``rounds`` times.

    The warm-up runs every method on a smaller problem of the same shape
    (its imports and first calls happen there), then once more on the real
    data under tracemalloc, which gives the memory.  The slow cases skip
    that second run: it would double their time.
    """
    spec = case_spec(name, quick)
    fns = {method: build(spec, method) for method in METHODS}
    inputs = {method: make_inputs(spec, method) for method in METHODS}
    slow = CASES[name].get("slow", False) and not quick
    traced: dict[str, float] | None = None if slow else {}
    for method in METHODS:
        fns[method](make_inputs(warm_spec(spec), method))
        if traced is not None:
            settle(quick)
            tracemalloc.start()
            result = fns[method](inputs[method])
            traced[method] = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            del result
    runs: dict[str, list[dict]] = {method: [] for method in METHODS}
    for r in range(rounds):
        for method in METHODS[r % 3 :] + METHODS[: r % 3]:
            settle(quick)
            before = reset_peak_rss()
            start = time.perf_counter()
            result = fns[method](inputs[method])
            elapsed = time.perf_counter() - start
            peak = memory_status()["VmHWM"]
            runs[method].append(
                {
                    "time_s": elapsed,
                    "rss_before_mib": before,
                    "peak_rss_above_before_mib": peak - before,
                    "eigenvalues": eigenvalues(spec, method, result),
                }
            )
            del result
    return {"runs": runs, "tracemalloc_peak_mib": traced}


def spawn(task: dict) -> dict:
    """Run a task of the worker in a new Python process."""
    return run_in_new_process(__file__, task)


def worker(task: dict) -> dict:
    from threadpoolctl import threadpool_limits

    # --quick on one BLAS thread: tiny products on two threads of a loaded
    # machine wait for each other (a smoke test ten times slower).
    with threadpool_limits(1 if task["quick"] else None):
        if task["mode"] == "fresh":
            return run_fresh(task["name"], task["method"], task["quick"])
        return run_inprocess(task["name"], task["rounds"], task["quick"])


# -- summaries ----------------------------------------------------------------------------
def paired(runs, top: str, bottom: str) -> dict:
    return spread(
        [
            a["time_s"] / b["time_s"]
            for a, b in zip(runs[top], runs[bottom], strict=True)
        ]
    )


def accuracy(spec: dict, runs: dict) -> dict:
    """kpca's (and scikit-learn's) largest relative eigenvalue difference."""
    family = spec["family"]
    source = "floor" if family == "pca" else "sklearn"
    reference = np.asarray(runs[source][0]["eigenvalues"])

    def worst(method):
        return max(
            float(
                np.max(
                    np.abs(np.asarray(r["eigenvalues"]) - reference)
                    / np.abs(reference)
                )
            )
            for r in runs[method]
        )

    out = {
        "reference": REFERENCE[family],
        "tolerance": TOLERANCE[family],
        "kpca_max_rel_difference": worst("kpca"),
    }
    if source == "floor":
        out["sklearn_max_rel_difference"] = worst("sklearn")
    out["ok"] = out["kpca_max_rel_difference"] <= TOLERANCE[family]
    return out


def summarize(spec: dict, runs: dict, memory_key: str) -> dict:
    return {
        "time_s": {m: spread([r["time_s"] for r in runs[m]]) for m in runs},
        "sklearn_over_kpca": paired(runs, "sklearn", "kpca"),
        "kpca_over_floor": paired(runs, "kpca", "floor"),
        "sklearn_over_floor": paired(runs, "sklearn", "floor"),
        memory_key: {
            m: spread([r["peak_rss_above_before_mib"] for r in runs[m]])
            for m in runs
        },
        "accuracy": accuracy(spec, runs),
    }


def measure_fresh(name: str, rounds: int, quick: bool) -> dict:
    runs: dict[str, list[dict]] = {method: [] for method in METHODS}
    for r in range(rounds):
        for method in METHODS[r % 3 :] + METHODS[: r % 3]:
            task = {"mode": "fresh", "name": name, "method": method}
            runs[method].append(spawn(task | {"quick": quick}))
    spec = case_spec(name, quick)
    return {
        "runs": runs,
        "summary": summarize(spec, runs, "peak_rss_above_before_mib"),
    }


def measure_inprocess(name: str, rounds: int, quick: bool) -> dict:
    task = {"mode": "inprocess", "name": name, "rounds": rounds}
    # --quick runs in this process, so the smoke test stays fast.
    out = (
        worker(task | {"quick": True})
        if quick
        else spawn(task | {"quick": False})
    )
    spec = case_spec(name, quick)
    summary = summarize(spec, out["runs"], "peak_rss_above_before_mib")
    summary["tracemalloc_peak_mib"] = out["tracemalloc_peak_mib"]
    return {"runs": out["runs"], "summary": summary}


def print_entry(name: str, mode: str, entry: dict) -> None:
    sm = entry["summary"]
    t = sm["time_s"]
    acc = sm["accuracy"]
    mem = sm["peak_rss_above_before_mib"]
    print(
        f"{name:<16} {mode:<9} kpca {t['kpca']['median']:8.3f} s  "
        f"sklearn {t['sklearn']['median']:8.3f} s  "
        f"floor {t['floor']['median']:8.3f} s  "
        f"sklearn/kpca {fmt_spread(sm['sklearn_over_kpca'])}  "
        f"kpca/floor {fmt_spread(sm['kpca_over_floor'])}  "
        f"peak RSS kpca/sklearn {mem['kpca']['median']:.0f}/"
        f"{mem['sklearn']['median']:.0f} MiB  "
        f"eigenvalues {acc['kpca_max_rel_difference']:.1e} "
        f"({'ok' if acc['ok'] else 'ABOVE'} tol {acc['tolerance']:g})"
        f"  [{entry['wall_s']:.0f} s]",
        flush=True,
    )


# -- the stored file -----------------------------------------------------------------------
def kernel_name() -> str:
    return os.environ.get("OPENBLAS_CORETYPE") or "default"


def blas_now() -> list[dict]:
    import scipy.linalg  # noqa: F401  (loads SciPy's BLAS too)
    import sklearn.utils  # noqa: F401

    return blas_libraries()


def case_table_row(name: str, fresh: dict | None, inproc: dict | None) -> str:
    def ratio(entry, key):
        return "-" if entry is None else fmt_spread(entry["summary"][key])

    base = fresh or inproc
    spec = base["spec"]
    shape = f"{spec['n']:,} x {spec['d']:,}"
    if spec["family"] == "mds":
        shape = f"n = {spec['n']:,}"
    cells = [
        name,
        shape,
        f"{base['summary']['time_s']['kpca']['median']:.3f}",
        ratio(fresh, "sklearn_over_kpca"),
        ratio(inproc, "sklearn_over_kpca"),
        ratio(fresh, "kpca_over_floor"),
        ratio(inproc, "kpca_over_floor"),
    ]
    if fresh is None:
        cells.append("-")
    else:
        mem = fresh["summary"]["peak_rss_above_before_mib"]
        cells.append(
            f"{mem['kpca']['median']:.0f} / {mem['sklearn']['median']:.0f}"
        )
    traced = inproc and inproc["summary"]["tracemalloc_peak_mib"]
    if traced:
        cells.append(f"{traced['kpca']:.0f} / {traced['sklearn']:.0f}")
    else:
        cells.append("-")
    acc = [e["summary"]["accuracy"] for e in (fresh, inproc) if e]
    worst = max(a["kpca_max_rel_difference"] for a in acc)
    verdict = "ok" if all(a["ok"] for a in acc) else "ABOVE"
    cell = f"{worst:.0e} ({verdict}, tol {acc[0]['tolerance']:g})"
    if "sklearn_max_rel_difference" in acc[0]:
        peer = max(a["sklearn_max_rel_difference"] for a in acc)
        cell += f"; sklearn {peer:.0e}"
    cells.append(cell)
    rounds = "/".join(
        "-" if e is None else str(e["rounds"]) for e in (fresh, inproc)
    )
    cells.append(rounds)
    return "| " + " | ".join(cells) + " |"


def commits_measured(body: dict) -> str:
    """The kpca commit of every stored entry: one, or which cases had which.

    A run of a part (``--case``, ``--mode``) replaces only its own entries,
    so the cases of one kernel may come from different commits.
    """
    cases_of: dict[str, list[str]] = {}
    for name in CASES:
        for entry in body["cases"].get(name, {}).values():
            commit = entry.get("kpca_commit") or "?"
            if name not in cases_of.setdefault(commit, []):
                cases_of[commit].append(name)
    if len(cases_of) <= 1:
        commit = next(iter(cases_of), body["versions"].get("kpca_commit", "?"))
        return f"commit {commit}"
    return "commits " + "; ".join(
        f"{commit} for {', '.join(names)}"
        for commit, names in cases_of.items()
    )


def kernel_table(kernel: str, body: dict) -> list[str]:
    m, v = body["machine"], body["versions"]
    arch = sorted(
        {
            f"{b['internal_api']} {b['version']} {b['architecture']}"
            for b in body["blas"]
        }
    )
    entries = [e for c in body["cases"].values() for e in c.values()]
    dates = sorted(e["date"][:10] for e in entries)
    lines = [
        f"Kernel `{kernel}` ({', '.join(arch)}): {m['cpu']}, "
        f"{m['cores']} cores; NumPy {v['numpy']}, SciPy {v['scipy']}, "
        f"scikit-learn {v['scikit-learn']}, kpca {v['kpca']} "
        f"({commits_measured(body)}); measured {dates[0]}"
        + (f" to {dates[-1]}" if dates[-1] != dates[0] else "")
        + ".",
        "",
        "| case | data | kpca (s) | sklearn / kpca, fresh | sklearn / kpca, "
        "in-process | kpca / floor, fresh | kpca / floor, in-process "
        "| peak RSS above base, kpca / sklearn (MiB) | tracemalloc peak, "
        "kpca / sklearn (MiB) | eigenvalues, max rel. difference | rounds "
        "fresh/in-process |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in CASES:
        modes = body["cases"].get(name, {})
        if modes:
            lines.append(
                case_table_row(
                    name, modes.get("fresh"), modes.get("inprocess")
                )
            )
    return lines


def table(results: dict) -> str:
    """The stored results as the Markdown tables of ``benchmarks/README.md``."""
    kernels = sorted(results["kernels"], key=lambda k: (k != "default", k))
    lines = [
        "Median [min-max] of the paired per-round ratios; kpca (s) is the "
        "median time of kpca's fit_transform (fresh processes where "
        "measured).",
    ]
    for kernel in kernels:
        lines += ["", *kernel_table(kernel, results["kernels"][kernel])]
    return "\n".join(lines) + "\n"


def parameters() -> dict:
    return {
        "timed": "wall time of fit_transform; the floor: its work alone",
        "ratios": "per round: sklearn / kpca (above 1: kpca faster), "
        "kpca / floor; median, min, max, quartiles over the rounds",
        "memory_fresh": "peak RSS above the RSS just before the run (VmHWM "
        "reset by /proc/self/clear_refs), in a fresh process",
        "memory_inprocess": "tracemalloc peak of the untimed warm-up fit "
        "on the real data (NumPy's allocations; BLAS and LAPACK work space "
        "not counted; none for the slow cases), and the peak RSS above the "
        "RSS before each timed fit",
        "data": "np.random.default_rng(0).standard_normal((n, d)); MDS: "
        "Euclidean distances of n such points in d = 10; kernels: "
        "Gaussian, gamma = 1/d (sigma = sqrt(d/2)), d = 10",
        "rounds": f"fresh {DEFAULT_ROUNDS['fresh']}, in-process "
        f"{DEFAULT_ROUNDS['inprocess']} unless --rounds; the slow cases "
        f"({', '.join(n for n, c in CASES.items() if c.get('slow'))}, "
        "where scikit-learn's ClassicalMDS runs a full eigh of a "
        f"10,000 x 10,000 matrix) {DEFAULT_SLOW_ROUNDS} (--slow-rounds), "
        "their in-process warm-up on n = 1000 only",
        "pause_s": PAUSE_S,
        "kpca": OURS,
        "peers": PEERS,
        "floors": FLOORS,
        "accuracy_reference": REFERENCE,
        "accuracy_tolerance": TOLERANCE,
    }


def selected(names: list[str] | None) -> list[str]:
    if not names:
        return list(CASES)
    out = []
    for name in names:
        if name in FAMILIES:
            out += [c for c, v in CASES.items() if v["family"] == name]
        elif name in CASES:
            out.append(name)
        else:
            raise SystemExit(
                f"unknown case {name!r}: one of {', '.join(CASES)} or a "
                f"family ({', '.join(FAMILIES)})"
            )
    return list(dict.fromkeys(out))


def rounds_for(name: str, mode: str, args) -> int:
    if CASES[name].get("slow") and not args.quick:
        return args.slow_rounds
    return args.rounds or DEFAULT_ROUNDS[mode]


def run(args) -> dict:
    results = (
        json.loads(args.out.read_text())
        if args.out is not None and args.out.exists()
        else {}
    )
    kernel = kernel_name()
    body = results.setdefault("kernels", {}).setdefault(kernel, {})
    body.update(
        openblas_coretype=kernel,
        machine=machine(),
        versions=versions(),
        blas=blas_now(),
    )
    body.setdefault("cases", {})
    results.update(
        generated_by="benchmarks/bench_peer.py", parameters=parameters()
    )
    print(f"kernel {kernel}: {body['blas']}\nversions: {body['versions']}")
    modes = MODES if args.mode == "both" else (args.mode,)
    for name in selected(args.case):
        for mode in modes:
            count = rounds_for(name, mode, args)
            start_load, start = load_average(), time.perf_counter()
            measure = measure_fresh if mode == "fresh" else measure_inprocess
            entry = measure(name, count, args.quick)
            entry.update(
                spec=case_spec(name, args.quick),
                rounds=count,
                quick=args.quick,
                wall_s=round(time.perf_counter() - start, 1),
                date=datetime.datetime.now().isoformat(timespec="seconds"),
                kpca_commit=body["versions"].get("kpca_commit"),
                load_average_at_start=start_load,
                load_average_at_end=load_average(),
            )
            body["cases"].setdefault(name, {})[mode] = entry
            print_entry(name, mode, entry)
            if args.out is not None:
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(results, indent=1) + "\n")
    return results


def merge(paths: list[pathlib.Path], out: pathlib.Path) -> dict:
    """Merge stored results into ``out``: per kernel, case and mode, the
    later file's entry wins (runs of two kernels written to two files)."""
    results = json.loads(out.read_text()) if out.exists() else {}
    for path in paths:
        other = json.loads(path.read_text())
        for kernel, body in other["kernels"].items():
            target = results.setdefault("kernels", {}).setdefault(kernel, {})
            cases = target.get("cases", {})
            for name, modes in body["cases"].items():
                cases.setdefault(name, {}).update(modes)
            target.update(body)
            target["cases"] = cases
        results.update(
            generated_by=other["generated_by"],
            parameters=other["parameters"],
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument(
        "--case",
        nargs="+",
        help="cases or families (pca, mds, kpca, nystroem, rff); default all",
    )
    parser.add_argument("--mode", choices=(*MODES, "both"), default="both")
    parser.add_argument(
        "--rounds",
        type=int,
        help="rounds per case (default: fresh 3, in-process 5)",
    )
    parser.add_argument(
        "--slow-rounds",
        type=int,
        default=DEFAULT_SLOW_ROUNDS,
        help="rounds of the slow cases (mds-10000)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny sizes, one round, in-process mode in this process; "
        "writes a file only with --out",
    )
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument(
        "--table",
        action="store_true",
        help="print the stored results as the README's tables and stop",
    )
    parser.add_argument(
        "--list", action="store_true", help="list the cases and stop"
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        type=pathlib.Path,
        help="merge these result files into --out (default the stored "
        "file) and stop",
    )
    args = parser.parse_args(argv)

    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return 0
    if args.list:
        for name in CASES:
            spec = case_spec(name, False)
            print(name, {k: v for k, v in spec.items() if k != "name"})
        return 0
    if args.merge:
        merge(args.merge, args.out or RESULTS)
        return 0
    if args.table:
        print(table(json.loads((args.out or RESULTS).read_text())), end="")
        return 0
    if args.quick:
        args.rounds = args.rounds or 1
    elif args.out is None:
        args.out = RESULTS
    run(args)
    if args.out is not None:
        print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
