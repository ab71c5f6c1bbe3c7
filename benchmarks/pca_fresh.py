"""One PCA(10) fit in a fresh process: its time and peak memory.

Usage: python benchmarks/pca_fresh.py {kpca,sklearn,floor} SIZE

Prints the seconds of the first fit of the process (``floor``: the one
product of the centred data with itself) and the peak of memory that
Python allocated during it (tracemalloc, in MB), so that alternating
calls of the two estimators give paired fresh-process ratios; ``SIZE`` is
one of ``tall``, ``square``, ``mid`` and ``wide`` (see pca_rounds.py).
"""

from __future__ import annotations

import sys
import time
import tracemalloc

import numpy as np

SIZES = {
    "tall": (100_000, 50),
    "square": (2000, 500),
    "mid": (20_000, 1000),
    "wide": (1000, 10_000),
}


def main() -> None:
    who, size = sys.argv[1], sys.argv[2]
    n, d = SIZES[size]
    X = np.random.default_rng(0).standard_normal((n, d))
    if who == "kpca":
        import kpca

        def fit():
            kpca.PCA(10).fit(X)
    elif who == "sklearn":
        from sklearn.decomposition import PCA

        def fit():
            PCA(10, random_state=0).fit(X)
    else:
        Xc = X - X.mean(axis=0)

        def fit():
            return Xc.T @ Xc if n >= d else Xc @ Xc.T

    tracemalloc.start()
    start = time.perf_counter()
    fit()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    print(f"{who} {size} {seconds:.4f} s peak {peak:.1f} MB")


if __name__ == "__main__":
    main()
