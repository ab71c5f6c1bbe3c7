"""Paired, interleaved timings of kpca.PCA(10) against scikit-learn's PCA(10).

Usage: python benchmarks/pca_rounds.py [rounds] [size ...]

For each size (``tall``, ``square``, ``mid``, ``wide``) the two fits
alternate in one process after a warm-up; each round gives the ratio
scikit-learn's time / kpca's, and the line prints their median, minimum and
maximum, with the median times.  ``floor`` is the one product of the
centred data with itself (``X.T @ X``, or ``X @ X.T`` when n < d).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from sklearn.decomposition import PCA as SkPCA

import kpca

SIZES = {
    "tall": (100_000, 50),
    "square": (2000, 500),
    "mid": (20_000, 1000),
    "wide": (1000, 10_000),
}


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _one_size(name: str, rounds: int) -> None:
    n, d = SIZES[name]
    X = np.random.default_rng(0).standard_normal((n, d))
    Xc = X - X.mean(axis=0)

    def ours():
        kpca.PCA(10).fit(X)

    def theirs():
        SkPCA(10, random_state=0).fit(X)

    def floor():
        return Xc.T @ Xc if n >= d else Xc @ Xc.T

    ours(), theirs(), floor()
    times = {"kpca": [], "sklearn": [], "floor": []}
    for _ in range(rounds):
        times["kpca"].append(_seconds(ours))
        times["sklearn"].append(_seconds(theirs))
        times["floor"].append(_seconds(floor))
    ratio = np.array(times["sklearn"]) / np.array(times["kpca"])
    over = np.array(times["kpca"]) / np.array(times["floor"])
    med = {key: 1e3 * float(np.median(v)) for key, v in times.items()}
    print(
        f"{name:6s} {n}x{d}: ratio median {np.median(ratio):.2f} "
        f"[{ratio.min():.2f}, {ratio.max():.2f}]  kpca {med['kpca']:.1f} "
        f"ms  sklearn {med['sklearn']:.1f} ms  floor {med['floor']:.1f} "
        f"ms  kpca/floor {np.median(over):.2f}",
        flush=True,
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    names = sys.argv[2:] or list(SIZES)
    for name in names:
        _one_size(name, rounds)


if __name__ == "__main__":
    main()
