"""Time and memory of kpca.KernelPCA against scikit-learn's KernelPCA, in one run.

Same data for both: n samples of 10 standard-normal features, the Gaussian
(RBF) kernel with scikit-learn's default width gamma = 1 / n_features (so
sigma = sqrt(n_features / 2)), 10 components.  For every n the script fits
kpca (eigen_solver="auto") and each scikit-learn eigen solver ("dense",
"arpack", "randomized"), checks that the top eigenvalues agree with the exact
ones (scikit-learn "dense"), and prints wall time and peak traced memory with
their ratios  peer / kpca  (a ratio above 1 means kpca is faster / smaller).

Usage::

    python benchmarks/bench_kernel_pca.py                 # n = 2000, 4000, 8000
    python benchmarks/bench_kernel_pca.py --sizes 500 1000 --repeats 1
"""

from __future__ import annotations

import argparse
import gc
import platform
import time
import tracemalloc

import numpy as np
import sklearn
from sklearn.decomposition import KernelPCA as SklearnKernelPCA

import kpca

N_FEATURES = 10
N_COMPONENTS = 10
SKLEARN_SOLVERS = ("dense", "arpack", "randomized")
EIGENVALUE_RTOL = 1e-8


def make_fitters(n_features: int):
    gamma = 1.0 / n_features
    sigma = float(np.sqrt(1.0 / (2.0 * gamma)))
    fitters = {
        "kpca (auto)": lambda X: kpca.KernelPCA(
            N_COMPONENTS, kernel="gaussian", sigma=sigma, random_state=0
        )
    }
    for solver in SKLEARN_SOLVERS:
        fitters[f"sklearn {solver}"] = lambda X, s=solver: SklearnKernelPCA(
            N_COMPONENTS,
            kernel="rbf",
            gamma=gamma,
            eigen_solver=s,
            random_state=0,
        )
    return fitters


def run_once(make, X) -> tuple[float, np.ndarray]:
    gc.collect()
    model = make(X)
    start = time.perf_counter()
    model.fit_transform(X)
    elapsed = time.perf_counter() - start
    return elapsed, np.asarray(model.eigenvalues_)


def peak_memory(make, X) -> float:
    """Peak traced allocation (MiB) of one fit_transform; NumPy and SciPy report to tracemalloc."""
    gc.collect()
    tracemalloc.start()
    model = make(X)
    model.fit_transform(X)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del model
    return peak / 2**20


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[2000, 4000, 8000]
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="best of this many timed runs"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
        f"kpca {kpca.__version__}"
    )
    print(
        f"RBF kernel, {N_FEATURES} features, {N_COMPONENTS} components; time = best of {args.repeats}; "
        "ratio = peer / kpca"
    )
    header = (
        f"{'n':>6}  {'method':<18} {'time s':>8} {'time ratio':>10} {'peak MiB':>9} "
        f"{'mem ratio':>9} {'max rel eig err':>16}"
    )
    print(header)
    print("-" * len(header))
    all_ok = True
    rng = np.random.default_rng(args.seed)
    # Warm every code path (imports, BLAS threads, ARPACK) so the first method timed pays no start-up.
    warm = rng.standard_normal((300, N_FEATURES))
    for make in make_fitters(N_FEATURES).values():
        run_once(make, warm)
    for n in args.sizes:
        X = rng.standard_normal((n, N_FEATURES))
        fitters = make_fitters(N_FEATURES)
        results = {}
        for name, make in fitters.items():
            # Exact dense solves are slow at large n: one timed run is enough there.
            repeats = (
                1 if (name == "sklearn dense" and n > 4000) else args.repeats
            )
            times, eigenvalues = [], None
            for _ in range(repeats):
                t, eigenvalues = run_once(make, X)
                times.append(t)
            results[name] = (min(times), peak_memory(make, X), eigenvalues)
        exact = results["sklearn dense"][2]
        t_k, m_k, _ = results["kpca (auto)"]
        for name, (t, m, eig) in results.items():
            err = float(np.max(np.abs(eig - exact) / exact))
            print(
                f"{n:>6}  {name:<18} {t:>8.3f} {t / t_k:>10.2f} {m:>9.1f} {m / m_k:>9.2f} {err:>16.1e}"
            )
        kpca_err = float(
            np.max(np.abs(results["kpca (auto)"][2] - exact) / exact)
        )
        fastest_peer = min(results[f"sklearn {s}"][0] for s in SKLEARN_SOLVERS)
        ok_accuracy = kpca_err <= EIGENVALUE_RTOL
        print(
            f"{'':>6}  kpca vs fastest scikit-learn solver: time ratio {fastest_peer / t_k:.2f}; "
            f"eigenvalues within {EIGENVALUE_RTOL:g}: {'yes' if ok_accuracy else 'NO'}"
        )
        all_ok &= ok_accuracy
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
