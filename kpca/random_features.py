r"""Kernel PCA of the Gaussian kernel with random Fourier features, streamed in chunks.

Bochner's theorem: a continuous shift-invariant kernel
:math:`k(x, y) = \kappa(x - y)` with :math:`\kappa(0) = 1` is positive
definite if and only if :math:`\kappa` is the Fourier transform of a
probability distribution :math:`p`,
:math:`\kappa(\delta) = \mathbb E_{\omega\sim p}[\cos(\omega^\top\delta)]`.
For the Gaussian kernel :math:`\exp(-\lVert\delta\rVert^2/(2\sigma^2))`,
:math:`p = \mathcal N(0, \sigma^{-2}I)`.  With :math:`b` uniform on
:math:`[0, 2\pi)`, :math:`\mathbb E_b[2\cos(\omega^\top x + b)\cos(\omega^\top y + b)]
= \cos(\omega^\top(x - y))`, so the :math:`D` random features

.. math::

    f(x) = \sqrt{2/D}\,\bigl(\cos(\omega_l^\top x + b_l)\bigr)_{l\le D},
    \qquad \omega_l\sim\mathcal N(0,\sigma^{-2}I),\ b_l\sim U[0, 2\pi),

give :math:`f(x)^\top f(y)`, an unbiased Monte-Carlo estimate of
:math:`k(x, y)` whose standard deviation falls like :math:`1/\sqrt D`.
Kernel PCA with :math:`\tilde K = FF^\top`, centred in that feature space,
is linear PCA of the rows of :math:`F`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._feature_pca import (
    _ChunkedFit,
    _FeaturePCA,
    check_common,
)
from ._threads import available_cores, on_cores, slices
from ._validation import check_array, check_positive_int
from .kernels import check_sigma

__all__ = ["RandomFourierKernelPCA", "random_fourier_features"]


# Round-off may move a phase by at most this many radians: far below the
# Monte-Carlo error of any practical number of features.
_PHASE_TOL = 1e-4

# Below this many features a block is made on one thread: the cosines of
# 2**16 numbers take about half a millisecond.
_THREADS_FROM = 2**16


def _features_into(
    X: np.ndarray, frequencies: np.ndarray, phases: np.ndarray, G: np.ndarray
) -> float:
    """``G[:] = sqrt(2/D) cos(X W^T + b)``, in place; returns the largest |phase|."""
    with np.errstate(over="ignore", invalid="ignore"):
        np.matmul(X, frequencies.T, out=G)
        G += phases
        # max and min: no |G| temporary; a NaN phase propagates into both.
        peak = max(float(G.max(initial=0.0)), -float(G.min(initial=0.0)))
        np.cos(G, out=G)
        G *= np.sqrt(2.0 / frequencies.shape[0])
    return peak


def _features(
    X: np.ndarray, frequencies: np.ndarray, phases: np.ndarray
) -> np.ndarray:
    """The random features of the rows of ``X``, made on every core.

    NumPy's cosine runs on one thread, and it is most of the cost of a
    block (the product ``X W^T`` has only d terms per entry): the rows are
    split into one slice per core (:func:`kpca._threads.available_cores`),
    each made in place, on one BLAS thread, in the package's thread pool.
    Each entry is computed by the same operations whatever the split, so
    the result does not depend on it.
    """
    G = np.empty((X.shape[0], frequencies.shape[0]))
    workers = min(available_cores(), max(1, G.size // _THREADS_FROM))
    if workers < 2:
        peak = _features_into(X, frequencies, phases, G)
    else:
        # X and G have as many rows: they are cut alike.
        peaks = on_cores(
            [
                (_features_into, rows, frequencies, phases, out)
                for rows, out in zip(
                    slices(X, workers), slices(G, workers), strict=True
                )
            ]
        )
        peak = max(peaks)
    # A phase w.x + b of size t is computed with an error of about eps t
    # radians: far from the origin (or for a tiny sigma) the cosines are
    # noise, whatever their number.
    if not peak * np.finfo(float).eps <= _PHASE_TOL:
        raise ValueError(
            "X lies too far from the origin for random Fourier features: "
            f"the phases w.x + b reach {peak:.3g} radians, and round-off "
            "moves them by more than 1e-4 radians: centre X, or scale it "
            "together with sigma"
        )
    return G


def _error_scale(
    chunk: np.ndarray, frequencies: np.ndarray, phases: np.ndarray
) -> float:
    """The round-off scale of the features of ``chunk`` (see ``FeatureMap``)."""
    # A feature sqrt(2/D) cos(w.x + b) is off by a unit of round-off of
    # its phase, |w.x + b| <= |w| |x| + |b|, and (a + b)^2 <= 2a^2 + 2b^2.
    weight = 2.0 * 2.0 / frequencies.shape[0]
    frequency_sq = float(np.einsum("ij,ij->", frequencies, frequencies))
    phase_sq = float(phases @ phases)
    norms = float(np.einsum("ij,ij->", chunk, chunk))
    return weight * (frequency_sq * norms + chunk.shape[0] * phase_sq)


class RandomFourierMap:
    r"""The feature map :math:`f(x) = \sqrt{2/D}\cos(\Omega x + b)` (``W = I``).

    Parameters
    ----------
    frequencies : ndarray, shape (D, d)
        :math:`\Omega`, rows :math:`\omega_l`.
    phases : ndarray, shape (D,)
        :math:`b`.
    """

    W = None
    # Cosines cost more to compute again than to hold (FeatureMap).
    keep_for_scores = True

    def __init__(self, frequencies: np.ndarray, phases: np.ndarray) -> None:
        self.frequencies = frequencies
        self.phases = phases
        self.width = int(frequencies.shape[0])

    @classmethod
    def draw(
        cls, n_features: int, n_random: int, sigma: float, seed: int
    ) -> RandomFourierMap:
        r""":math:`\omega_l \sim \mathcal N(0, \sigma^{-2}I)`, :math:`b_l \sim U[0, 2\pi)`."""
        rng = np.random.default_rng(seed)
        frequencies = rng.standard_normal((n_random, n_features))
        frequencies /= sigma
        phases = rng.uniform(0.0, 2.0 * np.pi, n_random)
        return cls(frequencies, phases)

    def features(self, chunk: np.ndarray) -> np.ndarray:
        # Cosines of finite phases (checked there) are finite.
        return _features(chunk, self.frequencies, self.phases)

    def error_scale(self, chunk: np.ndarray) -> float:
        return _error_scale(chunk, self.frequencies, self.phases)


def random_fourier_features(
    X, frequencies: np.ndarray, phases: np.ndarray
) -> np.ndarray:
    r"""The features :math:`\sqrt{2/D}\cos(X\Omega^\top + b)` of the rows of ``X``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    frequencies : ndarray, shape (D, d)
        :math:`\Omega`, rows :math:`\omega_l`.
    phases : ndarray, shape (D,)
        :math:`b`.

    Returns
    -------
    ndarray, shape (n, D)

    Examples
    --------
    One feature with :math:`\omega = 0` and :math:`b = 0` is the constant
    :math:`\sqrt 2`:

    >>> import numpy as np
    >>> random_fourier_features(np.ones((2, 3)), np.zeros((1, 3)), np.zeros(1))
    array([[1.41421356],
           [1.41421356]])
    """
    X = check_array(X, "X")
    frequencies = check_array(frequencies, "frequencies")
    phases = check_array(phases, "phases", ndim=1)
    if frequencies.shape[1] != X.shape[1]:
        raise ValueError(
            f"frequencies has {frequencies.shape[1]} columns, but X has {X.shape[1]} features"
        )
    if phases.shape[0] != frequencies.shape[0]:
        raise ValueError(
            f"phases has {phases.shape[0]} entries, but frequencies has {frequencies.shape[0]} rows"
        )
    return _features(X, frequencies, phases)


class RandomFourierKernelPCA(_FeaturePCA):
    r"""Approximate Gaussian kernel PCA with :math:`D` random Fourier features.

    The model is exact kernel PCA of :math:`\tilde K = FF^\top`, the Gram
    matrix of the random features :math:`f(x)` (module docstring), centred
    with the mean of :math:`f` over the data: linear PCA of the rows of
    :math:`F`.  ``fit`` reads the data once, in chunks, accumulating the
    :math:`D\times D` scatter of the features, so it also accepts a one-shot
    iterator; ``transform`` reads it once more for the scores.  Time
    :math:`O(nDd + nD^2 + D^3)`; memory :math:`O(D^2 + \text{chunk}\cdot D)`
    plus the :math:`n\times k` scores.  ``fit_transform`` computes the
    features once: it keeps them for the scores while they take at most
    1 GiB (:math:`8nD` bytes, what scikit-learn's ``RBFSampler`` returns),
    and beyond that reads the data again.  The cosines are computed in
    place, the rows of a chunk split between the cores.

    Parameters
    ----------
    n_components : int, optional
        Number :math:`k` of components; None keeps every eigenvalue above
        ``RANK_RTOL`` times the largest.
    sigma : float, default 1.0
        Width of the Gaussian kernel :math:`\exp(-\lVert x-y\rVert^2/(2\sigma^2))`
        (scikit-learn's ``gamma`` is :math:`1/(2\sigma^2)`).
    n_random_features : int, default 100
        :math:`D`.
    chunk_size : int, optional
        Rows per chunk; by default about :math:`2^{21}/D`.
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the frequencies and phases (0 when None).

    Notes
    -----
    ``fit`` of a ``dask.array.Array`` is one pass, one dask graph: each row
    block's :math:`D\times D` moments are computed where the block lives
    and merged in a tree (:mod:`kpca._dask`); ``transform`` of a dask array
    is lazy.  ``partial_fit`` draws the frequencies at the first call (they
    depend only on ``random_state`` and the number of features, so the
    model equals ``fit`` on all the chunks with the same seed).

    Attributes
    ----------
    eigenvalues_ : ndarray, shape (k,)
        Eigenvalues :math:`\mu_i` of :math:`H\tilde KH`.
    explained_variance_ : ndarray, shape (k,)
        :math:`\mu_i/n`.
    components_ : ndarray, shape (k, D)
        Principal directions in feature space; the largest entry of each row
        is positive.
    feature_mean_ : ndarray, shape (D,)
        :math:`\bar f`, the mean of the features over the training data.
    frequencies_ : ndarray, shape (D, n_features)
        :math:`\omega_l`, drawn from :math:`\mathcal N(0, \sigma^{-2}I)`.
    phases_ : ndarray, shape (D,)
        :math:`b_l`, uniform on :math:`[0, 2\pi)`.
    n_components_ : int
    n_samples_ : int
    n_features_in_ : int

    References
    ----------
    A. Rahimi and B. Recht, "Random features for large-scale kernel
    machines", *Advances in Neural Information Processing Systems 20*,
    1177-1184, 2007.

    W. Rudin, *Fourier Analysis on Groups*, Interscience, 1962 (Bochner's
    theorem).

    Examples
    --------
    The features are read from a generator of chunks, once:

    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(300, 2))
    >>> rff = RandomFourierKernelPCA(2, sigma=1.0, n_random_features=500)
    >>> rff = rff.fit(chunk for chunk in np.array_split(X, 3))
    >>> rff.eigenvalues_.shape, rff.transform(X).shape
    ((2,), (300, 2))

    The features' Gram matrix estimates the kernel to about
    :math:`1/\sqrt D`:

    >>> from kpca import gaussian_kernel
    >>> F = random_fourier_features(X[:50], rff.frequencies_, rff.phases_)
    >>> float(np.abs(F @ F.T - gaussian_kernel(X[:50])).max()) < 0.25
    True

    Chunk by chunk with ``partial_fit``, in any order, it is the same model:

    >>> parts = RandomFourierKernelPCA(2, sigma=1.0, n_random_features=500)
    >>> for chunk in (X[200:], X[:200]):
    ...     parts = parts.partial_fit(chunk)
    >>> bool(np.allclose(parts.eigenvalues_, rff.eigenvalues_))
    True
    """

    # Fitted attributes, set at the end of _fit.
    frequencies_: np.ndarray
    phases_: np.ndarray
    feature_mean_: np.ndarray
    components_: np.ndarray

    def __init__(
        self,
        n_components: int | None = None,
        *,
        sigma: float = 1.0,
        n_random_features: int = 100,
        chunk_size: int | None = None,
        random_state: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.sigma = sigma
        self.n_random_features = n_random_features
        self.chunk_size = chunk_size
        self.random_state = random_state

    def _fit(
        self,
        X: Any,
        *,
        partial: bool = False,
        keep_bytes: int = 0,
        stacklevel: int = 4,
    ) -> _ChunkedFit:
        """Draw the frequencies (or reuse them), then the chunked PCA."""
        seed = check_common(
            self.n_components, self.chunk_size, self.random_state
        )
        sigma = check_sigma(self.sigma)
        n_random = check_positive_int(
            self.n_random_features, "n_random_features"
        )
        data, before, names = self._pass_data(X, partial, n_random)
        if before is not None:
            feature_map = self._feature_map
        else:
            feature_map = RandomFourierMap.draw(
                data.n_features, n_random, sigma, seed
            )
        result = self._run_pass(
            feature_map, data, before, keep_bytes, stacklevel
        )
        assert isinstance(feature_map, RandomFourierMap)
        self.frequencies_ = feature_map.frequencies
        self.phases_ = feature_map.phases
        self.feature_mean_ = result.raw_mean
        self.components_ = result.V.T
        self._record(
            feature_map, result, feature_map.frequencies.shape[1], names
        )
        return result
