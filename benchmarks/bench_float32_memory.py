"""Peak memory of kernel PCA on float32 against float64 data, and scikit-learn's.

Each run is a fresh process (``--worker``) that makes the data, resets its
peak resident set size (``/proc/self/clear_refs``), fits, and reports the
peak (``VmHWM``) and the baseline just before the fit.  Rounds interleave
the four methods in a rotating order; the ratios are taken within a round.

Data: n = 16,000 samples of d = 10 standard-normal features, the Gaussian
kernel with gamma = 1/d (sigma = sqrt(d/2)), k = 10 components.  kpca runs
its default solver ("auto"); scikit-learn its "randomized" solver (its
fastest at this n), on the same data cast to each dtype.

    python benchmarks/bench_float32_memory.py [--n 16000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

METHODS = (
    "kpca-float64",
    "kpca-float32",
    "sklearn-float64",
    "sklearn-float32",
)
D, K = 10, 10


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def worker(method: str, n: int) -> dict:
    import numpy as np

    library, dtype = method.split("-")
    X = np.random.default_rng(0).standard_normal((n, D)).astype(dtype)
    sigma = (D / 2) ** 0.5
    if library == "kpca":
        import kpca

        model = kpca.KernelPCA(K, sigma=sigma, random_state=0)
    else:
        from sklearn.decomposition import KernelPCA

        model = KernelPCA(
            K,
            kernel="rbf",
            gamma=1 / D,
            eigen_solver="randomized",
            random_state=0,
        )
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    base = _status("VmRSS")
    start = time.perf_counter()
    Z = model.fit_transform(X)
    seconds = time.perf_counter() - start
    return dict(
        method=method,
        seconds=seconds,
        peak=_status("VmHWM"),
        base=base,
        out_dtype=str(Z.dtype),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=16000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--worker")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.n)))
        return
    rounds = []
    for r in range(args.rounds):
        order = METHODS[r % 4 :] + METHODS[: r % 4]
        results = {}
        for method in order:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--worker",
                    method,
                    "--n",
                    str(args.n),
                ],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            results[method] = json.loads(out)
        rounds.append(results)
        mib = 2**20
        for method in METHODS:
            res = results[method]
            print(
                f"round {r}  {method:16s} peak {res['peak'] / mib:7.0f} MiB "
                f"(base {res['base'] / mib:4.0f})  {res['seconds']:6.2f} s  "
                f"out {res['out_dtype']}"
            )
        for lib in ("kpca", "sklearn"):
            a, b = results[f"{lib}-float64"], results[f"{lib}-float32"]
            print(
                f"round {r}  {lib}: float64/float32 peak above base "
                f"{(a['peak'] - a['base']) / (b['peak'] - b['base']):.2f}, "
                f"saved {(a['peak'] - b['peak']) / mib:.0f} MiB"
            )
        k32, s32 = results["kpca-float32"], results["sklearn-float32"]
        print(
            f"round {r}  float32: sklearn/kpca peak "
            f"{s32['peak'] / k32['peak']:.2f}, time "
            f"{s32['seconds'] / k32['seconds']:.2f}"
        )


if __name__ == "__main__":
    main()
