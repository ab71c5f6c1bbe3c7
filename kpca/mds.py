r"""Classical (Torgerson–Gower) multidimensional scaling.

From the squared dissimilarities :math:`\Delta^{(2)}_{ij} = \Delta_{ij}^2`
alone, double centring recovers the Gram matrix of the centred points,

.. math::

    G = -\tfrac12 H \Delta^{(2)} H, \qquad G_{ij} = \vec x_i\cdot\vec x_j
    \quad\text{when } \textstyle\sum_i \vec x_i = 0,

and the coordinates :math:`y^a_i = \sqrt{\lambda_a}\, v^a_i` of the top
:math:`d` eigenpairs of :math:`G` minimise
:math:`\mathrm{Err} = \sum_{ij}(G_{ij} - \vec y_i\cdot\vec y_j)^2` over
:math:`d`-dimensional configurations.  When the dissimilarities are not
Euclidean, :math:`G` has negative eigenvalues; a real configuration cannot
use them, so their coordinates are zero (which is still the optimum).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ._base import BaseEstimator
from ._spectrum import (
    RANK_RTOL,
    NonEuclideanWarning,
    negative_mass_from_extremes,
    negative_spectrum,
    symmetrize,
    symmetry_defect,
)
from ._threads import one_blas_thread
from ._tuning import DENSE_UP_TO
from ._validation import (
    check_array,
    check_choice,
    check_n_components,
    check_square,
    check_symmetric,
)
from .eigen import _top_eigenpairs
from .eigen._bottom import ShiftedNegative
from .kernels import squared_distances

__all__ = ["ClassicalMDS", "NonEuclideanWarning", "double_center"]


def double_center(D2) -> np.ndarray:
    r"""Double centring :math:`-\frac12 H D^{(2)} H` of a matrix of squared distances.

    Parameters
    ----------
    D2 : array_like, shape (n, n)
        Squared dissimilarities :math:`\Delta_{ij}^2`: real, symmetric (to
        ``1e-10`` of the largest entry), no entry negative and a zero
        diagonal; anything else raises ``ValueError`` (complex input a
        ``TypeError`` that is also a ``ValueError``).

    Returns
    -------
    G : ndarray, shape (n, n)
        The Gram matrix of the centred configuration, when one exists.

    Examples
    --------
    >>> import numpy as np

    Three points on a line at 0, 1 and 2 (centred: -1, 0, 1):

    >>> D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    >>> double_center(D ** 2).round(12) + 0.0
    array([[ 1.,  0., -1.],
           [ 0.,  0.,  0.],
           [-1.,  0.,  1.]])
    """
    D2 = check_symmetric(check_array(D2, "D2"), "D2")
    if np.any(D2 < 0):
        raise ValueError(
            "D2 holds squared dissimilarities, which cannot be negative; got "
            f"{float(D2.min()):.3g}"
        )
    if np.any(np.diag(D2) != 0):
        raise ValueError(
            "D2 must have a zero diagonal: a point's squared dissimilarity "
            "to itself is 0"
        )
    G = D2.copy()
    _double_center_inplace(G)
    return G


_METRICS = ("euclidean", "precomputed")
_SPECTRA = ("auto", "full", "extremes")


class ClassicalMDS(BaseEstimator):
    r"""Classical multidimensional scaling.

    Parameters
    ----------
    n_components : int, default 2
        Target dimension :math:`d`.
    metric : {"euclidean", "precomputed"}, default "euclidean"
        ``"euclidean"``: ``fit`` receives data (rows are samples) and uses
        their Euclidean distances.  ``"precomputed"``: ``fit`` receives the
        symmetric matrix of (plain, not squared) dissimilarities, with a zero
        diagonal and no negative entry.  The name follows scikit-learn's
        ``ClassicalMDS``.
    dissimilarity : {"euclidean", "precomputed"}, optional
        Deprecated alias of ``metric`` (the name scikit-learn's ``MDS`` used
        before version 1.8); when given, it overrides ``metric`` with a
        ``FutureWarning``.
    spectrum : {"auto", "full", "extremes"}, default "auto"
        How much of the spectrum of :math:`G` is computed.  ``"full"``: all
        :math:`n` eigenvalues, by the dense solver (:math:`O(n^3)`, as
        scikit-learn's ``ClassicalMDS`` does); ``spectrum_`` holds them and
        ``negative_mass_`` is exact.  ``"extremes"``: the :math:`d` largest
        eigenpairs by the checked Krylov solvers of
        :func:`kpca.top_eigenpairs`, and the few smallest eigenvalues
        (:math:`O(n^2)` per step); ``negative_mass_`` is then exact when
        :math:`G` has at most 15 eigenvalues below the cut, a lower bound
        otherwise (see ``negative_mass_``).  ``"auto"``: ``"full"`` up to
        :math:`n = 600` or for :math:`d > n/10`, where the dense solver is
        no slower, ``"extremes"`` beyond.

    Attributes
    ----------
    embedding_ : ndarray, shape (n_samples, n_components)
        :math:`y^a_i = \sqrt{\lambda_a}\, v^a_i`; the columns of eigenvalues
        that are not positive (at most ``RANK_RTOL`` times the largest
        magnitude) are zero.
    eigenvalues_ : ndarray, shape (n_components,)
        The :math:`d` largest eigenvalues of :math:`G`, descending.
    eigenvectors_ : ndarray, shape (n_samples, n_components)
        The unit eigenvectors :math:`v^a` of :math:`G` as columns, with the
        sign convention of :func:`kpca.align_signs`.
    spectrum_ : ndarray, shape (n_samples,), or None
        All eigenvalues of :math:`G`, descending; negative ones mean the
        dissimilarities are not Euclidean.  None when only the extremes
        were computed (``spectrum="extremes"``).
    gram_ : ndarray, shape (n_samples, n_samples)
        :math:`G = -\frac12 H\Delta^{(2)}H`.
    strain_ : float
        :math:`\mathrm{Err} = \lVert G - YY^\top\rVert_F^2`, which equals
        the sum of the squared discarded eigenvalues.
    negative_mass_ : float
        The share of the negative eigenvalues,
        :math:`N_c / \sum_a|\lambda_a|` with
        :math:`N_c = \sum_{\lambda_a<-c}|\lambda_a|` and the round-off cut
        :math:`c` = ``RANK_RTOL`` times the largest magnitude; 0 for
        Euclidean input (and for coincident points, where every eigenvalue
        is 0).  With the whole spectrum (``spectrum_`` set) it is exact.
        From the extremes it is :math:`N_c / (\operatorname{tr} G +
        2N_c)`, which treats the eigenvalues within :math:`[-c, 0)` as
        zero (:math:`\sum_a|\lambda_a| = \operatorname{tr} G + 2N` with
        :math:`N` the sum of all negative magnitudes; the difference is
        below :math:`2nc/\operatorname{tr} G` relative, and
        :math:`\operatorname{tr} G = \frac1{2n}\sum_{ij}\Delta_{ij}^2`):
        exact, to the solvers' tolerance, when the smallest eigenvalues
        computed include one at or above :math:`-c` (then every eigenvalue
        below the cut was found), and otherwise the lower end of
        ``negative_mass_bounds_``.
    negative_mass_bounds_ : tuple of float
        ``(low, high)`` with ``low <= negative_mass_ <= high``, equal when
        ``negative_mass_`` is exact.  From the extremes, with the
        :math:`d` largest eigenvalues :math:`\lambda_i`, the :math:`m`
        smallest :math:`\nu_j` and the :math:`r = n - d - m` others:
        :math:`N_c \ge \max(\sum_j|\nu_j|, \sum_i\lambda_i^+ -
        \operatorname{tr}G - rc)` (the positive eigenvalues add up to
        :math:`\operatorname{tr} G + N`), and
        :math:`N_c \le \sum_j|\nu_j| + \min(r|\nu_m|,
        (\sqrt{r s_R} - t_R)/2)`, where :math:`t_R` and :math:`s_R` are
        the sum and the sum of squares of the others, known from
        :math:`\operatorname{tr} G` and
        :math:`\lVert G\rVert_F^2 = \sum_a \lambda_a^2`
        (Cauchy--Schwarz bounds their absolute sum by
        :math:`\sqrt{r s_R}`).  ``spectrum="full"`` gives the exact value.
    n_samples_ : int
        Number of points.
    n_features_in_ : int
        Number of features of the data (:math:`n` when precomputed).

    References
    ----------
    .. [1] W. S. Torgerson, "Multidimensional scaling: I. Theory and
       method", Psychometrika 17(4), 1952.
    .. [2] J. C. Gower, "Some distance properties of latent root and vector
       methods used in multivariate analysis", Biometrika 53(3/4), 1966.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]])
    >>> Y = ClassicalMDS(n_components=2).fit_transform(X)
    >>> from kpca.kernels import squared_distances
    >>> bool(np.allclose(squared_distances(Y), squared_distances(X)))
    True
    """

    def __init__(
        self,
        n_components: int = 2,
        *,
        metric: str = "euclidean",
        dissimilarity: str | None = None,
        spectrum: str = "auto",
    ) -> None:
        self.n_components = n_components
        self.metric = metric
        self.dissimilarity = dissimilarity
        self.spectrum = spectrum

    @property
    def _accepts_sparse(self) -> bool:  # type: ignore[override]
        # Sparse data give their distances through sparse products.
        return self._metric() != "precomputed"

    @property
    def _n_features_out(self) -> int:
        return int(self.embedding_.shape[1])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        precomputed = self._metric() == "precomputed"
        tags.input_tags.pairwise = precomputed
        tags.input_tags.positive_only = precomputed
        return tags

    def _metric(self) -> str:
        if self.dissimilarity is not None:
            return self.dissimilarity
        return self.metric

    def fit(self, X: Any, y: Any = None) -> ClassicalMDS:
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : array_like, shape (n_samples, n_features) or (n_samples, n_samples)
            Data, or the dissimilarities when ``metric="precomputed"``.
            Data may be a ``scipy.sparse`` matrix; the work is in float64
            whatever the input (float32 round-off would make Euclidean
            distances look non-Euclidean), and ``fit_transform`` returns
            float32 for float32 data.
        y : None
            Ignored; present for the scikit-learn protocol.

        Returns
        -------
        self
            With the fitted attributes set.  If ``fit`` raises, a previously
            fitted model is left unchanged.
        """
        if self.dissimilarity is not None:
            check_choice(self.dissimilarity, "dissimilarity", _METRICS)
            warnings.warn(
                "dissimilarity is deprecated: use metric="
                f"{self.dissimilarity!r} instead",
                FutureWarning,
                stacklevel=2,
            )
        else:
            check_choice(self.metric, "metric", _METRICS)
        spectrum_mode = check_choice(self.spectrum, "spectrum", _SPECTRA)
        names = self._check_feature_names(
            X, reset=self._metric() != "precomputed"
        )
        if self._metric() == "precomputed":
            D = check_square(
                check_array(X, "X (dissimilarities)"), "X (dissimilarities)"
            )
            n_features = D.shape[0]
            n = n_features
        else:
            # float64 work, whatever the input: the sign test of the
            # spectrum needs it (float32 round-off makes Euclidean
            # distances look non-Euclidean).
            X = check_array(X, "X", accept_sparse=True)
            n_features = X.shape[1]
            n = X.shape[0]
        if n < 2:
            raise ValueError(f"MDS needs at least 2 points, got n_samples={n}")
        if self.n_components is None:
            raise TypeError(
                "n_components must be a positive integer, got None"
            )
        d = check_n_components(self.n_components, n)
        assert d is not None  # None was refused above
        if spectrum_mode == "auto":
            spectrum_mode = (
                "full" if n <= DENSE_UP_TO or d > n // 10 else "extremes"
            )
        if self._metric() == "precomputed":
            G = _squares_of_dissimilarities(D, "X (dissimilarities)")
        else:
            G = squared_distances(X)  # exactly symmetric
        frobenius2 = _double_center_inplace(G)

        if spectrum_mode == "full":
            spectrum, V = _top_eigenpairs(
                G, n, solver="dense", overwrite=False, assume_psd=False
            )
            lam, V = spectrum[:d], V[:, :d]
            found = negative_spectrum(spectrum)
            negative_mass = float(found.mass or 0.0)
            mass_bounds = (negative_mass, negative_mass)
            count: int | str = int(found.count or 0)
            smallest = float(spectrum[-1])
            largest = float(np.max(np.abs(spectrum)))
        else:
            spectrum = None
            lam, V = _top_eigenpairs(
                G, d, solver="auto", overwrite=False, assume_psd=False
            )
            bottom = _bottom_eigenvalues(G, lam[0])
            smallest = float(bottom[0])
            largest = max(abs(float(lam[0])), abs(smallest))
            mass = negative_mass_from_extremes(
                float(np.trace(G)),
                frobenius2,
                lam,
                bottom,
                n,
                RANK_RTOL * largest,
            )
            negative_mass = mass.low
            mass_bounds = (mass.low, mass.high)
            count = mass.count if mass.exact else f"at least {mass.count}"
        cutoff = RANK_RTOL * largest
        if smallest < -cutoff:
            warnings.warn(
                "the dissimilarities are not Euclidean: G has "
                f"{count} negative eigenvalue(s), the most "
                f"negative {smallest:.4g} "
                f"({abs(smallest) / largest:.2%} of the largest magnitude); "
                "their directions cannot be embedded and are left out",
                NonEuclideanWarning,
                stacklevel=2,
            )
        nonpositive = lam <= cutoff
        if np.any(nonpositive):
            warnings.warn(
                f"only {int(np.count_nonzero(~nonpositive))} of the "
                f"n_components={d} eigenvalues are positive; the remaining "
                "coordinates are set to 0",
                NonEuclideanWarning,
                stacklevel=2,
            )
        # Round-off "zeros" get exactly zero coordinates, like the negative
        # eigenvalues.
        embedding = V * np.sqrt(np.where(nonpositive, 0.0, lam))
        strain = _strain(G, embedding)
        if not np.isfinite(strain):
            raise ValueError(
                "the strain ||G - YY^T||_F^2 overflows float64: G reaches "
                f"{float(np.max(np.abs(G))):.3g}; scale the data"
            )

        self.gram_ = G
        self.spectrum_ = spectrum
        self.negative_mass_ = negative_mass
        self.negative_mass_bounds_ = mass_bounds
        self.eigenvalues_ = lam
        self.eigenvectors_ = V
        self.embedding_ = embedding
        self.strain_ = strain
        self.n_samples_ = n
        self._set_n_features(n_features, names)
        return self

    def fit_transform(self, X: Any, y: Any = None) -> np.ndarray:
        """Fit and return a copy of ``embedding_``.

        Parameters
        ----------
        X : array_like
            As in :meth:`fit`.
        y : None
            Ignored.

        Returns
        -------
        Y : ndarray, shape (n_samples, n_components)
            A copy of ``embedding_`` (changing it leaves the model as it
            is), as float32 when ``X`` is float32.
        """
        float32 = getattr(X, "dtype", None) == np.float32
        embedding = self.fit(X).embedding_
        if float32:
            return embedding.astype(np.float32)
        return embedding.copy()


def _squares_of_dissimilarities(D: np.ndarray, name: str) -> np.ndarray:
    r"""The exactly symmetric squares :math:`\tfrac12(D_{ij}^2 + D_{ji}^2)`.

    Checks that ``D`` is symmetric (to ``1e-10`` of its largest entry), has
    no negative entry, a zero diagonal, and squares within float64's range.
    The squares take one pass; the check compares each tile with its mirror
    image (:func:`kpca._spectrum.symmetry_defect`); an input that is symmetric only up to round-off is symmetrised
    (one more pass), an exactly symmetric one never needs it.  The result
    is the only new n x n array.
    """
    asymmetry, largest = symmetry_defect(D)
    lowest, scale = float(D.min()), float(D.max())
    if asymmetry > 1e-10 * max(largest, np.finfo(float).tiny):
        raise ValueError(
            f"{name} must be symmetric (max |M - M.T| exceeds 1e-10 "
            "of max |M|)"
        )
    if lowest < 0:
        raise ValueError(
            f"{name} must not have negative entries (Negative values "
            "in data passed to ClassicalMDS)"
        )
    if np.any(np.diagonal(D) != 0):
        raise ValueError(f"{name} must have a zero diagonal")
    if not np.isfinite(scale * scale):
        raise ValueError(
            f"the squares of {name} overflow float64 (its largest "
            f"entry is {scale:.3g}): scale the dissimilarities"
        )
    D2 = np.multiply(D, D)
    if asymmetry > 0:
        symmetrize(D2, inplace=True)
    return D2


def _double_center_inplace(D2: np.ndarray) -> float:
    r"""Turn the symmetric ``D2`` into :math:`-\tfrac12 H D^{(2)} H` in place.

    One pass, a block of rows at a time:
    :math:`G_{ij} = -\tfrac12(D^{(2)}_{ij} - (r_i + r_j - g))` with the
    row means :math:`r` and the grand mean :math:`g` (the column means are
    the row means); the sum in brackets is the same for :math:`(i, j)` and
    :math:`(j, i)`, so ``G`` is exactly symmetric.  Returns
    :math:`\lVert G\rVert_F^2`, summed while each block is in the cache.
    """
    n = D2.shape[0]
    means = D2.mean(axis=1)
    grand_mean = float(means.mean())
    step = max(1, _BLOCK_ROWS_ENTRIES // n)
    squares = _SumOfSquares()
    # Many small BLAS calls (the sums of squares): on one BLAS thread, so
    # that none waits for a descheduled sibling on a busy machine.
    with one_blas_thread():
        for start in range(0, n, step):
            block = D2[start : start + step]
            shift = means[start : start + step, None] + means[None, :]
            shift -= grand_mean
            block -= shift
            block *= -0.5
            squares.add(block)
    return squares.total()


class _SumOfSquares:
    """A sum of squared entries, block by block, without overflow on the way.

    Each block is scaled by its largest magnitude and the running sum
    rescaled (as LAPACK's ``dlassq`` does): the squares of entries beyond
    1e154 would overflow although the sum may not, and those below 1e-154
    underflow.  The total is infinite only when the sum itself exceeds
    float64's range.
    """

    def __init__(self) -> None:
        self.scale = 0.0
        self.sumsq = 0.0

    def add(self, block: np.ndarray) -> None:
        peak = float(np.max(np.abs(block), initial=0.0))
        if peak == 0.0:
            return
        flat = (block / peak).reshape(-1)
        part = float(flat @ flat)
        if peak > self.scale:
            self.sumsq = self.sumsq * (self.scale / peak) ** 2 + part
            self.scale = peak
        else:
            self.sumsq += part * (peak / self.scale) ** 2

    def total(self) -> float:
        with np.errstate(over="ignore"):
            return self.scale * (self.scale * self.sumsq)


_BLOCK_ROWS_ENTRIES = 2**16

#: The smallest eigenvalues ``spectrum="extremes"`` computes first, and at
#: most: a second solve asks for more when all of the first are negative.
_BOTTOM_FIRST, _BOTTOM_MOST = 2, 16


def _bottom_eigenvalues(G: np.ndarray, top: float) -> np.ndarray:
    """The smallest eigenvalues of ``G``, ascending (see ``ShiftedNegative``).

    Two at first; if both lie below the cut, sixteen, so that a matrix with
    a few significant negative eigenvalues has them all.
    """
    n = G.shape[0]
    shift = max(float(top), 0.0)
    if not np.any(G):
        return np.zeros(1)
    for m in (_BOTTOM_FIRST, _BOTTOM_MOST):
        m = min(m, max(1, n // 10))
        w, _ = _top_eigenpairs(
            ShiftedNegative(G, shift), m, solver="auto", overwrite=False
        )
        bottom = shift - w
        largest = max(abs(shift), abs(float(bottom[0])))
        if bottom[-1] >= -RANK_RTOL * largest:
            break
    return bottom


def _strain(G: np.ndarray, Y: np.ndarray) -> float:
    r""":math:`\lVert G - YY^\top\rVert_F^2`, a block of rows at a time.

    No n x n temporary; no square overflows or underflows on the way
    (``_SumOfSquares``).  Infinite only when the sum itself exceeds
    float64's range.
    """
    n = G.shape[0]
    step = max(1, _BLOCK_ROWS_ENTRIES // n)
    squares = _SumOfSquares()
    # Many small BLAS calls: on one BLAS thread (see _double_center_inplace).
    with one_blas_thread():
        for start in range(0, n, step):
            rows = slice(start, start + step)
            squares.add(G[rows] - Y[rows] @ Y.T)
    return squares.total()
