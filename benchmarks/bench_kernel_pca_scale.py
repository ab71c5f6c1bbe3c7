"""Kernel PCA at scale: exact and approximate kernel PCA against scikit-learn.

Built for a shared, noisy machine:

* every timed run is a fresh process (``--worker``), so one run's memory or
  heap cannot help or hurt the next, and its peak memory can be measured;
* kpca and its peers are interleaved: each *round* runs every method once,
  in an order that rotates from round to round (ABC, BCA, CAB, ...), so a
  slow spell of the machine hits all of them alike;
* the ratio peer / kpca is taken within each round and summarised by its
  median and spread (min-max and quartiles) over the rounds (7 by default).

Memory is the peak resident set size (RSS) of the worker process while the
method runs, read from ``/proc/self/status`` (``VmHWM``, reset just before the
run through ``/proc/self/clear_refs``).  RSS counts what the operating system
really holds for the process: NumPy arrays, BLAS and LAPACK work space, ARPACK's
vectors, and also the interpreter, the libraries and the input data, which is
why the baseline just before the run is reported too.  (``tracemalloc`` would
miss the work space BLAS and LAPACK allocate themselves.)

Parts (all by default; any subset with the flags):

``--exact``
    ``kpca.KernelPCA`` against scikit-learn's ``KernelPCA`` with the
    ``arpack`` and ``randomized`` solvers (and ``dense`` up to n = 4000), plus
    the *floor*: forming the kernel matrix alone and the eigensolver
    (``kpca.eigen.top_eigenpairs``) alone on a ready centred matrix.
``--approx``
    ``kpca.NystroemKernelPCA`` (uniform and k-means landmarks) and
    ``kpca.RandomFourierKernelPCA`` against scikit-learn's ``Nystroem`` +
    ``PCA`` and ``RBFSampler`` + ``PCA`` at equal m, ``fit_transform`` time and
    peak memory for n up to 10^6 (scikit-learn, which holds the n x m
    features, only up to ``--peer-max-n``).
``--accuracy``
    At n = 20,000 (exact kernel PCA feasible), the eigenvalue relative error
    and the largest principal angle between the exact and the approximate
    score subspaces (``scipy.linalg.subspace_angles``) as m grows, and the
    largest angle between the approximate scores and the exact top-11 span
    (these data have no gap after the 10th eigenvalue, but one after the
    11th).  The data come from seed 0, the landmarks and features from
    seeds 1 to ``--seeds``.

Data: n samples of d = 10 standard-normal features, the Gaussian kernel with
scikit-learn's default width gamma = 1/d (sigma = sqrt(d/2)), k = 10
components.  Results go to ``kpca/book/data/kernel_pca_scale.json`` (each
part run replaces its own entry), with the machine, versions, date and load.

Usage::

    python benchmarks/bench_kernel_pca_scale.py                # everything (hours)
    python benchmarks/bench_kernel_pca_scale.py --exact --sizes 2000 4000
    python benchmarks/bench_kernel_pca_scale.py --approx --approx-sizes 10000 100000
    python benchmarks/bench_kernel_pca_scale.py --accuracy --accuracy-m 100 1000
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import pathlib
import sys
import time
import tracemalloc

import numpy as np

# The shared helpers sit next to this script.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from benchlib import (  # noqa: E402
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

D_FEATURES = 10
K_COMPONENTS = 10
GAMMA = 1.0 / D_FEATURES
SIGMA = float(np.sqrt(1.0 / (2.0 * GAMMA)))
RESULTS = stored_results("kernel_pca_scale")

EXACT_METHODS = (
    "kpca",
    "sklearn arpack",
    "sklearn randomized",
    "sklearn dense",
    "floor: form K",
    "floor: eigensolver",
)
APPROX_METHODS = (
    "kpca nystroem uniform",
    "kpca nystroem kmeans",
    "kpca random features",
    "sklearn Nystroem+PCA",
    "sklearn RBFSampler+PCA",
)
# Which peer each kpca approximation is compared with, at equal m.
APPROX_PAIRS = {
    "kpca nystroem uniform": "sklearn Nystroem+PCA",
    "kpca nystroem kmeans": "sklearn Nystroem+PCA",
    "kpca random features": "sklearn RBFSampler+PCA",
}


# -- one run ----------------------------------------------------------------------
def make_data(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, D_FEATURES))


# The accuracy part's data come from seed 0, and its landmarks and features
# from seeds 1, 2, ...: kpca's random features drawn with the data's own
# seed would be the data's first rows divided by sigma (both draw standard
# normals from the same stream), not independent of them.
DATA_SEED = 0


def draw_seeds(count: int) -> list[int]:
    return [DATA_SEED + 1 + i for i in range(count)]


def build(method: str, m: int):
    """A function X -> eigenvalues for ``method`` (imports happen here, outside timing)."""
    import kpca

    k = K_COMPONENTS
    if method == "kpca":
        return lambda X: _fit(
            kpca.KernelPCA(k, sigma=SIGMA, random_state=0), X
        )
    if method.startswith("sklearn ") and method.split()[1] in (
        "arpack",
        "randomized",
        "dense",
    ):
        from sklearn.decomposition import KernelPCA

        solver = method.split()[1]
        return lambda X: _fit(
            KernelPCA(
                k,
                kernel="rbf",
                gamma=GAMMA,
                eigen_solver=solver,
                random_state=0,
            ),
            X,
        )
    if method == "floor: form K":
        return lambda X: (kpca.gaussian_kernel(X, sigma=SIGMA), None)[1]
    if method == "floor: eigensolver":
        # The centred matrix is built by prepare() before the clock starts.
        # The solver KernelPCA runs, without the public function's input
        # validation (its copy and symmetrisation would double the memory).
        return lambda Kc: kpca.eigen._top_eigenpairs(Kc, k, overwrite=True)[0]
    if method == "kpca nystroem uniform":
        return lambda X: _fit(
            kpca.NystroemKernelPCA(k, sigma=SIGMA, n_landmarks=m), X
        )
    if method == "kpca nystroem kmeans":
        return lambda X: _fit(
            kpca.NystroemKernelPCA(
                k, sigma=SIGMA, n_landmarks=m, landmarks="kmeans"
            ),
            X,
        )
    if method == "kpca random features":
        return lambda X: _fit(
            kpca.RandomFourierKernelPCA(k, sigma=SIGMA, n_random_features=m), X
        )
    if method in ("sklearn Nystroem+PCA", "sklearn RBFSampler+PCA"):
        from sklearn.decomposition import PCA
        from sklearn.kernel_approximation import Nystroem, RBFSampler
        from sklearn.pipeline import make_pipeline

        feature_map = Nystroem if "Nystroem" in method else RBFSampler

        def run(X):
            # PCA's default solver; with m <= 1000 features and n >= 10 m it is
            # "covariance_eigh", the fastest here.
            pipe = make_pipeline(
                feature_map(gamma=GAMMA, n_components=m, random_state=0),
                PCA(k, random_state=0),
            )
            pipe.fit_transform(X)
            return pipe[-1].explained_variance_ * (X.shape[0] - 1)

        return run
    raise ValueError(f"unknown method {method!r}")


def _fit(model, X):
    model.fit_transform(X)
    return np.asarray(model.eigenvalues_)


def prepare(method: str, X: np.ndarray):
    """The input of the timed call: X, or the ready centred K for the eigensolver floor."""
    if method == "floor: eigensolver":
        import kpca

        K = kpca.gaussian_kernel(X, sigma=SIGMA)
        return kpca.centering._center_kernel_inplace(K, symmetric=True)[0]
    return X


def run_one(
    method: str, n: int, m: int, seed: int, measure: str = "rss"
) -> dict:
    """Warm up, then time one run of ``method``; peak memory by RSS or tracemalloc."""
    fn = build(method, m)
    # A warm-up run on up to 1000 points takes the same code paths as the
    # timed one (kpca's iterative solver and threaded kernel start above 600
    # and 512 points), so one-time costs (imports, thread pools, BLAS
    # threads, caches) are timed for no method.
    warm = make_data(min(n, 1000), seed + 1)
    build(method, min(m, 50))(prepare(method, warm))
    X = make_data(n, seed)
    data = prepare(method, X)
    del X
    gc.collect()
    # After a multi-threaded BLAS call, OpenBLAS keeps its worker threads
    # spinning for about 0.1 s; started inside that window, the timed run
    # would share a core with them (measured: kpca's kernel matrix of 2000
    # points 40% slower).  A pause lets them sleep, as between a user's calls.
    time.sleep(0.5)
    if measure == "rss":
        before = reset_peak_rss()
    else:
        tracemalloc.start()
        before = 0.0
    start = time.perf_counter()
    eigenvalues = fn(data)
    elapsed = time.perf_counter() - start
    if measure == "rss":
        peak = memory_status()["VmHWM"]
    else:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return {
        "time_s": elapsed,
        "rss_before_mib": before,
        "peak_mib": peak,
        "peak_above_before_mib": peak - before,
        "eigenvalues": None
        if eigenvalues is None
        else list(map(float, eigenvalues)),
    }


def run_worker(spec: dict, in_process: bool) -> dict:
    if in_process:
        return run_one(**spec, measure="tracemalloc")
    return run_in_new_process(__file__, spec)


# -- interleaved rounds -------------------------------------------------------------
def rounds(
    methods: list[str], n: int, m: int, count: int, in_process: bool
) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {name: [] for name in methods}
    for r in range(count):
        order = methods[r % len(methods) :] + methods[: r % len(methods)]
        for name in order:
            spec = {"method": name, "n": n, "m": m, "seed": 0}
            runs[name].append(run_worker(spec, in_process))
    return runs


def ratios(runs, peer: str, ours: str, key: str = "time_s") -> dict:
    return spread(
        [p[key] / o[key] for p, o in zip(runs[peer], runs[ours], strict=True)]
    )


# -- parts ----------------------------------------------------------------------------
def part_exact(sizes, count, dense_max_n, in_process) -> dict:
    results = []
    for n in sizes:
        methods = [
            m
            for m in EXACT_METHODS
            if not (m == "sklearn dense" and n > dense_max_n)
        ]
        runs = rounds(methods, n, 0, count, in_process)
        floor = [
            a["time_s"] + b["time_s"]
            for a, b in zip(
                runs["floor: form K"], runs["floor: eigensolver"], strict=True
            )
        ]
        reference = (
            "sklearn dense" if "sklearn dense" in runs else "sklearn arpack"
        )
        ours = np.asarray(runs["kpca"][0]["eigenvalues"])
        ref = np.asarray(runs[reference][0]["eigenvalues"])
        peers = [m for m in methods if m.startswith("sklearn")]
        summary = {
            "kpca_time_s": spread([r["time_s"] for r in runs["kpca"]]),
            "time_ratio_peer_over_kpca": {
                p: ratios(runs, p, "kpca") for p in peers
            },
            "time_ratio_fastest_peer_over_kpca": spread(
                [
                    min(runs[p][i]["time_s"] for p in peers)
                    / runs["kpca"][i]["time_s"]
                    for i in range(count)
                ]
            ),
            "kpca_time_over_floor": spread(
                [
                    r["time_s"] / f
                    for r, f in zip(runs["kpca"], floor, strict=True)
                ]
            ),
            "floor_time_s": spread(floor),
            "peak_mib": {
                name: spread([r["peak_mib"] for r in runs[name]])
                for name in methods
            },
            "peak_above_before_mib": {
                name: spread([r["peak_above_before_mib"] for r in runs[name]])
                for name in methods
            },
            "eigenvalue_reference": reference,
            "max_rel_eigenvalue_difference": float(
                np.max(np.abs(ours - ref) / ref)
            ),
        }
        results.append({"n": n, "runs": runs, "summary": summary})
        print_exact(n, methods, summary)
    return {"sizes": results}


def part_approx(sizes, m, count, count_large, peer_max_n, in_process) -> dict:
    results = []
    for n in sizes:
        with_peers = n <= peer_max_n
        methods = [
            name
            for name in APPROX_METHODS
            if with_peers or not name.startswith("sklearn")
        ]
        runs = rounds(
            methods, n, m, count if with_peers else count_large, in_process
        )
        summary = {
            "time_s": {
                name: spread([r["time_s"] for r in runs[name]])
                for name in methods
            },
            "peak_mib": {
                name: spread([r["peak_mib"] for r in runs[name]])
                for name in methods
            },
            "peak_above_before_mib": {
                name: spread([r["peak_above_before_mib"] for r in runs[name]])
                for name in methods
            },
        }
        if with_peers:
            summary["time_ratio_peer_over_kpca"] = {
                ours: ratios(runs, peer, ours)
                for ours, peer in APPROX_PAIRS.items()
            }
            summary["memory_ratio_peer_over_kpca"] = {
                ours: ratios(runs, peer, ours, key="peak_above_before_mib")
                for ours, peer in APPROX_PAIRS.items()
            }
        results.append({"n": n, "m": m, "runs": runs, "summary": summary})
        print_approx(n, m, methods, summary)
    return {"m": m, "sizes": results}


def part_accuracy(n, ms, seeds) -> dict:
    """Errors against exact kernel PCA; no timing, one process."""
    import scipy.linalg
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import Nystroem, RBFSampler

    import kpca

    X = make_data(n, DATA_SEED)
    # Two eigenpairs more than the components: the top 10 of these data are
    # not separated from the 11th (the radial direction), the top 11 are
    # from the 12th, and the angles are measured against both spans.
    exact = kpca.KernelPCA(K_COMPONENTS + 2, sigma=SIGMA, random_state=0)
    Z_exact_all = exact.fit_transform(X)
    Z_exact, Z_exact_11 = (
        Z_exact_all[:, :K_COMPONENTS],
        Z_exact_all[:, : K_COMPONENTS + 1],
    )
    mu_all = exact.eigenvalues_
    mu = mu_all[:K_COMPONENTS]

    def kpca_model(name, m, seed):
        if name == "kpca random features":
            return kpca.RandomFourierKernelPCA(
                K_COMPONENTS,
                sigma=SIGMA,
                n_random_features=m,
                random_state=seed,
            )
        return kpca.NystroemKernelPCA(
            K_COMPONENTS,
            sigma=SIGMA,
            n_landmarks=m,
            landmarks="kmeans" if "kmeans" in name else "uniform",
            random_state=seed,
        )

    def run(name, m, seed):
        if name.startswith("kpca"):
            model = kpca_model(name, m, seed)
            return model.fit_transform(X), model.eigenvalues_
        feature_map = Nystroem if "Nystroem" in name else RBFSampler
        F = feature_map(
            gamma=GAMMA, n_components=m, random_state=seed
        ).fit_transform(X)
        pca = PCA(K_COMPONENTS, svd_solver="covariance_eigh")
        Z = pca.fit_transform(F)
        return Z, pca.explained_variance_ * (n - 1)

    rows = []
    for m in ms:
        for name in APPROX_METHODS:
            errors = []
            for seed in draw_seeds(seeds):
                Z, approx = run(name, m, seed)
                rel = (approx - mu) / mu
                errors.append(
                    {
                        "seed": seed,
                        "rel_eigenvalue_error": rel.tolist(),
                        "max_abs_rel_eigenvalue_error": float(
                            np.max(np.abs(rel))
                        ),
                        "max_subspace_angle_rad": float(
                            np.max(scipy.linalg.subspace_angles(Z, Z_exact))
                        ),
                        "max_angle_to_top_11_rad": float(
                            np.max(scipy.linalg.subspace_angles(Z, Z_exact_11))
                        ),
                    }
                )
            row = {
                "m": m,
                "method": name,
                "seeds": errors,
                "max_abs_rel_eigenvalue_error": spread(
                    [e["max_abs_rel_eigenvalue_error"] for e in errors]
                ),
                "max_subspace_angle_rad": spread(
                    [e["max_subspace_angle_rad"] for e in errors]
                ),
                "max_angle_to_top_11_rad": spread(
                    [e["max_angle_to_top_11_rad"] for e in errors]
                ),
            }
            rows.append(row)
            print(
                f"{n:>7} {m:>5}  {name:<24} eigenvalue rel. error {row['max_abs_rel_eigenvalue_error']['median']:9.2e}"
                f"   subspace angle {row['max_subspace_angle_rad']['median']:9.2e} rad"
                f" (to the top 11 {row['max_angle_to_top_11_rad']['median']:9.2e})"
                "   (medians over seeds)",
                flush=True,
            )
    return {
        "n": n,
        "data_seed": DATA_SEED,
        "draw_seeds": draw_seeds(seeds),
        "exact_eigenvalues": mu.tolist(),
        "exact_eigenvalues_12": mu_all.tolist(),
        "exact_solver": "kpca.KernelPCA (ARPACK, relative residual 1e-10)",
        "rows": rows,
    }


# -- printing -------------------------------------------------------------------------
def print_exact(n, methods, summary) -> None:
    print(
        f"\nexact kernel PCA, n = {n}: time ratio peer / kpca, median [min-max] over rounds"
    )
    print(
        f"  kpca time {summary['kpca_time_s']['median']:.3f} s; floor (form K + eigensolver) {summary['floor_time_s']['median']:.3f} s; kpca / floor {fmt_spread(summary['kpca_time_over_floor'])}"
    )
    for peer, r in summary["time_ratio_peer_over_kpca"].items():
        print(
            f"  {peer:<22} {fmt_spread(r)}   IQR {r['q1']:.2f}-{r['q3']:.2f}"
        )
    print(
        f"  fastest peer / kpca    {fmt_spread(summary['time_ratio_fastest_peer_over_kpca'])}"
    )
    for name in methods:
        print(
            f"  peak RSS {name:<22} {summary['peak_mib'][name]['median']:8.0f} MiB (above baseline {summary['peak_above_before_mib'][name]['median']:8.0f})"
        )
    print(
        f"  max relative eigenvalue difference to {summary['eigenvalue_reference']}: {summary['max_rel_eigenvalue_difference']:.1e}",
        flush=True,
    )


def print_approx(n, m, methods, summary) -> None:
    print(
        f"\napproximate kernel PCA, n = {n}, m = {m}: median time [min-max], peak RSS"
    )
    for name in methods:
        t = summary["time_s"][name]
        print(
            f"  {name:<24} {fmt_spread(t, 2)} s   peak {summary['peak_mib'][name]['median']:8.0f} MiB (above baseline {summary['peak_above_before_mib'][name]['median']:8.0f})"
        )
    for ours, r in summary.get("time_ratio_peer_over_kpca", {}).items():
        print(
            f"  time ratio {APPROX_PAIRS[ours]} / {ours}: {fmt_spread(r)}   IQR {r['q1']:.2f}-{r['q3']:.2f}"
        )
    for ours, r in summary.get("memory_ratio_peer_over_kpca", {}).items():
        print(f"  memory ratio {APPROX_PAIRS[ours]} / {ours}: {fmt_spread(r)}")
    sys.stdout.flush()


def _best_peer_round_over_kpca(entry: dict) -> float:
    """scikit-learn's fastest single run over kpca's median: the ratio when
    scikit-learn is at its best, which a bimodal peer cannot inflate."""
    best = min(
        run["time_s"]
        for name, runs in entry["runs"].items()
        if name.startswith("sklearn")
        for run in runs
    )
    return best / entry["summary"]["kpca_time_s"]["median"]


def summary(results: dict) -> str:
    """The results as the Markdown tables of ``benchmarks/README.md``."""
    machine_ = results["machine"]
    v = results["parts"]["exact"].get("versions", results["versions"])
    lines = [
        f"Machine: {machine_['cpu']}, {machine_['cores']} cores, "
        f"{machine_['ram_gib']:.0f} GiB, {machine_['system']}; "
        f"Python {machine_['python']}, NumPy {v['numpy']}, "
        f"SciPy {v['scipy']}, scikit-learn {v['scikit-learn']}, "
        f"kpca {v['kpca']} (commit {v.get('kpca_commit', '?')}).",
        "",
    ]
    exact = results["parts"]["exact"]
    lines += [
        f"Exact kernel PCA ({exact['date'][:10]}, {exact['rounds']} "
        "interleaved rounds; median [min-max] of the per-round ratios):",
        "",
        "| n | kpca (s) | fastest scikit-learn / kpca | scikit-learn's best "
        "round / kpca | kpca / floor | peak RSS kpca / best scikit-learn "
        "(MiB) | eigenvalues, max rel. difference |",
        "|---|---|---|---|---|---|---|",
    ]
    for entry in exact["sizes"]:
        sm = entry["summary"]
        r = sm["time_ratio_fastest_peer_over_kpca"]
        f = sm["kpca_time_over_floor"]
        peaks = sm["peak_mib"]
        peer_peak = min(
            peaks[name]["median"]
            for name in peaks
            if name.startswith("sklearn")
        )
        lines.append(
            f"| {entry['n']:,} | {sm['kpca_time_s']['median']:.2f} "
            f"| {r['median']:.2f} [{r['min']:.2f}-{r['max']:.2f}] "
            f"| {_best_peer_round_over_kpca(entry):.2f} "
            f"| {f['median']:.2f} [{f['min']:.2f}-{f['max']:.2f}] "
            f"| {peaks['kpca']['median']:.0f} / {peer_peak:.0f} "
            f"| {sm['max_rel_eigenvalue_difference']:.0e} |"
        )
    approx = results["parts"]["approx"]
    names = sorted(
        {name for e in approx["sizes"] for name in e["summary"]["time_s"]}
    )
    lines += [
        "",
        f"Approximate kernel PCA, m = {approx['m']} ({approx['date'][:10]}, "
        f"kpca commit {approx['versions'].get('kpca_commit', '?')}; "
        "median time in s / median peak RSS in MiB):",
        "",
        "| n | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for entry in approx["sizes"]:
        sm = entry["summary"]
        cells = [
            f"{sm['time_s'][name]['median']:.1f} / "
            f"{sm['peak_mib'][name]['median']:.0f}"
            if name in sm["time_s"]
            else "-"
            for name in names
        ]
        lines.append(f"| {entry['n']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument(
        "--exact", action="store_true", help="exact kernel PCA part"
    )
    parser.add_argument(
        "--approx", action="store_true", help="approximate timing part"
    )
    parser.add_argument(
        "--accuracy", action="store_true", help="accuracy against exact"
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[2000, 4000, 8000, 16000]
    )
    parser.add_argument("--dense-max-n", type=int, default=4000)
    parser.add_argument(
        "--approx-sizes",
        type=int,
        nargs="+",
        default=[10_000, 30_000, 100_000, 300_000, 1_000_000],
    )
    parser.add_argument(
        "--landmarks", type=int, default=1000, help="m for --approx"
    )
    parser.add_argument("--peer-max-n", type=int, default=100_000)
    parser.add_argument(
        "--rounds", type=int, default=7, help="interleaved rounds per size"
    )
    parser.add_argument(
        "--rounds-large",
        type=int,
        default=3,
        help="rounds at sizes without peers",
    )
    parser.add_argument("--accuracy-n", type=int, default=20_000)
    parser.add_argument(
        "--accuracy-m",
        type=int,
        nargs="+",
        default=[100, 200, 500, 1000, 2000],
    )
    parser.add_argument(
        "--seeds", type=int, default=5, help="seeds per m (accuracy)"
    )
    parser.add_argument("--out", type=pathlib.Path, default=RESULTS)
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run every method in this process (memory by tracemalloc); for tests",
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="print the stored results as Markdown tables and stop",
    )
    args = parser.parse_args(argv)

    if args.summary:
        print(summary(json.loads(args.out.read_text())), end="")
        return 0
    if args.worker:
        print(json.dumps(run_one(**json.loads(args.worker))))
        return 0
    if not (args.exact or args.approx or args.accuracy):
        args.exact = args.approx = args.accuracy = True

    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    results.update(
        {
            "generated_by": "benchmarks/bench_kernel_pca_scale.py",
            "machine": machine(),
            "versions": versions(),
            "parameters": {
                "n_features": D_FEATURES,
                "n_components": K_COMPONENTS,
                "kernel": "gaussian",
                "sigma": SIGMA,
                "gamma": GAMMA,
                "data": "standard normal, seed 0",
                "memory": "peak RSS of a fresh worker process during the run "
                "(VmHWM after resetting it); baseline = RSS just before"
                if not args.in_process
                else "tracemalloc peak, in process",
                "time": "wall time of fit_transform (floor: of its part alone)",
            },
        }
    )
    results.setdefault("parts", {})
    print(f"machine: {results['machine']}\nversions: {results['versions']}")

    def record(name, body):
        body.update(
            versions=versions(),
            date=datetime.datetime.now().isoformat(timespec="seconds"),
            load_average_at_start=start_load,
            load_average_at_end=load_average(),
        )
        results["parts"][name] = body
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1) + "\n")

    if args.exact:
        start_load = load_average()
        record(
            "exact",
            part_exact(
                args.sizes, args.rounds, args.dense_max_n, args.in_process
            )
            | {"rounds": args.rounds},
        )
    if args.approx:
        start_load = load_average()
        record(
            "approx",
            part_approx(
                args.approx_sizes,
                args.landmarks,
                args.rounds,
                args.rounds_large,
                args.peer_max_n,
                args.in_process,
            )
            | {
                "rounds": args.rounds,
                "rounds_without_peers": args.rounds_large,
            },
        )
    if args.accuracy:
        start_load = load_average()
        record(
            "accuracy",
            part_accuracy(args.accuracy_n, args.accuracy_m, args.seeds),
        )
    print(f"\nresults written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
