r"""Landmarks for the Nyström approximation: which :math:`m` points stand for the data.

The Nyström method (:mod:`kpca.nystroem`) approximates the kernel matrix from
the kernel values between the data and :math:`m \ll n` *landmarks*
:math:`z_1, \dots, z_m`.  Two ways of choosing them:

``uniform``
    :math:`m` data points drawn uniformly without replacement.  Each row
    :math:`i` gets a pseudo-random 64-bit key that depends only on the seed
    and on :math:`i` (a SplitMix64 hash), and the rows with the :math:`m`
    smallest keys are kept.  This is one pass over the data in any chunking,
    with :math:`O(m)` memory, and the result does not depend on how the data
    are cut into chunks.  The samples are nested: with the same seed, the
    :math:`m` landmarks are among the :math:`m' > m` ones.
``kmeans``
    The :math:`m` centres of k-means (k-means++ seeding, then Lloyd's
    iterations) run on a uniform sample of ``sample_size`` rows.  Centres
    spread over the data more evenly than a uniform sample, so fewer of
    them are wasted on dense regions; Zhang, Tsang and Kwok bound the
    Nyström error by the k-means quantisation error of the landmarks.

References
----------
K. Zhang, I. W. Tsang and J. T. Kwok, "Improved Nyström low-rank
approximation and error analysis", *Proceedings of the 25th International
Conference on Machine Learning* (ICML), 1232-1239, 2008.

D. Arthur and S. Vassilvitskii, "k-means++: the advantages of careful
seeding", *Proceedings of the 18th Annual ACM-SIAM Symposium on Discrete
Algorithms* (SODA), 1027-1035, 2007.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ._threads import one_blas_thread
from ._validation import (
    check_nonnegative_int,
    check_positive_int,
    random_seed,
)
from .kernels import squared_distances
from .streaming import iter_chunks

__all__ = ["LANDMARK_METHODS", "kmeans_landmarks", "uniform_landmarks"]

LANDMARK_METHODS = ("uniform", "kmeans")

# Rows per chunk when a landmark function reads an array itself.
_CHUNK_ROWS = 8192
# Entries of the largest temporary distance block of k-means.
_BLOCK_ENTRIES = 2**21

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """The SplitMix64 finaliser: a bijection of uint64 that scrambles every bit."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def _seed_word(random_state: int | None) -> np.uint64:
    seed = 0 if random_state is None else int(random_state)
    return np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]


def _keys(offset: int, rows: int, base: np.uint64) -> np.ndarray:
    """The keys of rows ``offset, ..., offset + rows - 1`` (seed word ``base``)."""
    index = np.arange(offset, offset + rows, dtype=np.uint64)
    with np.errstate(over="ignore"):  # uint64 arithmetic wraps by design
        return _splitmix64(_splitmix64(index) ^ base)


def _keyed_sample(
    chunk: np.ndarray, offset: int, size: int, random_state: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """The keys and rows of the ``size`` smallest keys among ``chunk``'s rows.

    ``offset`` is the global index of the chunk's first row: the keys depend
    on it and on the seed only, so samples of separate chunks merge into the
    sample of their union (keep the ``size`` smallest keys).
    """
    keys = _keys(offset, chunk.shape[0], _seed_word(random_state))
    if keys.size > size:
        keep = np.argpartition(keys, size - 1)[:size]
        return keys[keep], chunk[keep]
    return keys, chunk.copy()


def _uniform_sample(
    chunks: Iterator[np.ndarray], size: int, random_state: int | None
) -> tuple[np.ndarray, int]:
    """``size`` rows drawn uniformly without replacement, in key order, and the row count.

    Fewer rows are returned when the data have fewer than ``size``.
    """
    base = _seed_word(random_state)
    keys = np.empty(0, dtype=np.uint64)
    rows = None
    offset = 0
    for chunk in chunks:
        chunk_keys = _keys(offset, chunk.shape[0], base)
        offset += chunk.shape[0]
        if rows is None:
            rows = np.empty((0, chunk.shape[1]))
        if keys.size == size:
            # full: only keys below the largest kept compete
            below = chunk_keys < keys.max()
            chunk_keys, chunk = chunk_keys[below], chunk[below]
        keys = np.concatenate([keys, chunk_keys])
        rows = np.concatenate([rows, chunk])
        if keys.size > size:
            keep = np.argpartition(keys, size - 1)[:size]
            keys, rows = keys[keep], rows[keep]
    assert rows is not None  # iter_chunks raises when there are no rows
    order = np.argsort(keys, kind="stable")
    return rows[order], offset


def uniform_landmarks(
    X,
    n_landmarks: int,
    *,
    random_state: int | None = None,
) -> np.ndarray:
    r"""``n_landmarks`` rows of ``X`` drawn uniformly without replacement.

    Parameters
    ----------
    X : array-like or iterable of 2-D chunks
        As accepted by :func:`kpca.streaming.iter_chunks`; read once.
    n_landmarks : int
        :math:`m`; all rows are returned (in a random order) when ``X`` has
        fewer.
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed (0 when None).  The result depends only on the seed and the row
        order, not on how ``X`` is cut into chunks.

    Returns
    -------
    ndarray, shape (min(m, n), n_features)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(20.0).reshape(10, 2)
    >>> Z = uniform_landmarks(X, 3, random_state=0)
    >>> Z.shape, bool(np.all(np.isin(Z, X)))
    ((3, 2), True)
    >>> chunks = [X[:4], X[4:7], X[7:]]
    >>> bool(np.array_equal(uniform_landmarks(chunks, 3, random_state=0), Z))
    True
    """
    n_landmarks = check_positive_int(n_landmarks, "n_landmarks")
    random_state = random_seed(random_state)
    sample, _ = _uniform_sample(
        iter_chunks(X, _CHUNK_ROWS), n_landmarks, random_state
    )
    return sample


def _nearest(
    points: np.ndarray, centres: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Index of and squared distance to the nearest centre, a block of rows at a time."""
    labels = np.empty(points.shape[0], dtype=np.intp)
    dist = np.empty(points.shape[0])
    step = max(1, _BLOCK_ENTRIES // max(centres.shape[0], 1))
    for start in range(0, points.shape[0], step):
        D = squared_distances(points[start : start + step], centres)
        labels[start : start + step] = np.argmin(D, axis=1)
        dist[start : start + step] = D[
            np.arange(D.shape[0]), labels[start : start + step]
        ]
    return labels, dist


def _to_point(points: np.ndarray, index: int) -> np.ndarray:
    """Squared distances of all points to one of them, from differences (no cancellation)."""
    diff = points - points[index]
    return np.einsum("ij,ij->i", diff, diff)


def _kmeans_plus_plus(
    points: np.ndarray, k: int, rng: np.random.Generator
) -> np.ndarray:
    n = points.shape[0]
    chosen = [int(rng.integers(n))]
    closest = _to_point(points, chosen[0])
    for _ in range(1, k):
        total = closest.sum()
        if total > 0:
            # D^2 sampling: a point is chosen with probability proportional to
            # its squared distance to the nearest centre so far.
            cumulative = np.cumsum(closest)
            pick = int(
                np.searchsorted(cumulative, rng.random() * total, side="right")
            )
            pick = min(pick, n - 1)
        else:  # every point sits on a centre: any point not yet chosen
            free = np.setdiff1d(np.arange(n), chosen)
            pick = int(rng.choice(free))
        chosen.append(pick)
        np.minimum(closest, _to_point(points, pick), out=closest)
    return points[chosen].copy()


def kmeans_landmarks(
    X,
    n_landmarks: int,
    *,
    random_state: int | None = None,
    sample_size: int | None = None,
    max_iter: int = 10,
) -> np.ndarray:
    r"""Centres of k-means on a uniform sample of ``X``, as Nyström landmarks.

    The sample (``sample_size`` rows, by default :math:`\min(n, 10m)`) is
    drawn as in :func:`uniform_landmarks`; k-means++ chooses :math:`m` initial
    centres among its points, and Lloyd's iterations (assign each point to
    the nearest centre, move each centre to the mean of its points) run until
    no assignment changes or ``max_iter`` iterations.  A centre that loses all
    its points stays where it is.

    Parameters
    ----------
    X : array-like or iterable of 2-D chunks
        Read once.
    n_landmarks : int
        :math:`m`; when the sample has at most :math:`m` rows they are
        returned as they are.
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the sample and of the seeding (0 when None).
    sample_size : int, optional
        Rows on which k-means runs; at least ``n_landmarks``.
    max_iter : int, default 10
        Cap on Lloyd's iterations (0: the k-means++ points themselves).

    Returns
    -------
    ndarray, shape (min(m, n), n_features)
        The centres; each is a mean of sample points, not a data point.

    Examples
    --------
    Two tight groups of points: the two centres land one in each.

    >>> import numpy as np
    >>> X = np.vstack([np.zeros((50, 2)), np.full((50, 2), 10.0)])
    >>> X += np.random.default_rng(0).normal(scale=0.1, size=X.shape)
    >>> Z = kmeans_landmarks(X, 2, random_state=0)
    >>> sorted(int(v) for v in Z[:, 0].round())
    [0, 10]
    """
    n_landmarks = check_positive_int(n_landmarks, "n_landmarks")
    random_state = random_seed(random_state)
    max_iter = check_nonnegative_int(max_iter, "max_iter")
    if sample_size is None:
        sample_size = 10 * n_landmarks
    else:
        sample_size = check_positive_int(sample_size, "sample_size")
        if sample_size < n_landmarks:
            raise ValueError(
                f"sample_size must be at least n_landmarks={n_landmarks}, got {sample_size}"
            )
    sample, _ = _uniform_sample(
        iter_chunks(X, _CHUNK_ROWS), sample_size, random_state
    )
    return _kmeans(sample, n_landmarks, random_state, max_iter)


def _kmeans(
    sample: np.ndarray,
    n_landmarks: int,
    random_state: int | None,
    max_iter: int,
) -> np.ndarray:
    if sample.shape[0] <= n_landmarks:
        return sample
    rng = np.random.default_rng(
        [0 if random_state is None else int(random_state), 1]
    )
    # Many small distance blocks: one BLAS thread is faster on a busy machine.
    with one_blas_thread():
        return _lloyd(
            sample, _kmeans_plus_plus(sample, n_landmarks, rng), max_iter
        )


def _lloyd(
    sample: np.ndarray, centres: np.ndarray, max_iter: int
) -> np.ndarray:
    n_landmarks = centres.shape[0]
    labels = None
    for _ in range(max_iter):
        new_labels, _ = _nearest(sample, centres)
        if labels is not None and np.array_equal(new_labels, labels):
            break
        labels = new_labels
        counts = np.bincount(labels, minlength=n_landmarks)
        sums = np.stack(
            [
                np.bincount(
                    labels, weights=sample[:, j], minlength=n_landmarks
                )
                for j in range(sample.shape[1])
            ],
            axis=1,
        )
        filled = counts > 0
        centres[filled] = sums[filled] / counts[filled, None]
    return centres
