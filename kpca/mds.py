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
from ._spectrum import RANK_RTOL, NonEuclideanWarning, symmetrize
from ._validation import (
    check_array,
    check_choice,
    check_n_components,
    check_symmetric,
)
from .centering import _center_kernel_inplace
from .eigen import _top_eigenpairs
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
    G = _center_kernel_inplace(D2.copy())[0]
    G *= -0.5
    return G


_METRICS = ("euclidean", "precomputed")


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
    spectrum_ : ndarray, shape (n_samples,)
        All eigenvalues of :math:`G`, descending; negative ones mean the
        dissimilarities are not Euclidean.
    gram_ : ndarray, shape (n_samples, n_samples)
        :math:`G = -\frac12 H\Delta^{(2)}H`.
    strain_ : float
        :math:`\mathrm{Err} = \lVert G - YY^\top\rVert_F^2`, which equals
        the sum of the squared discarded eigenvalues.
    negative_mass_ : float
        :math:`\sum_{\lambda_a<0}|\lambda_a| / \sum_a|\lambda_a|`, 0 for
        Euclidean input (and for coincident points, where every eigenvalue
        is 0).
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
    ) -> None:
        self.n_components = n_components
        self.metric = metric
        self.dissimilarity = dissimilarity

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
        names = self._check_feature_names(
            X, reset=self._metric() != "precomputed"
        )
        if self._metric() == "precomputed":
            name = "X (dissimilarities)"
            D = check_symmetric(check_array(X, name), name)
            if np.any(D < 0):
                raise ValueError(
                    f"{name} must not have negative entries (Negative values "
                    "in data passed to ClassicalMDS)"
                )
            if np.any(np.diag(D) != 0):
                raise ValueError(f"{name} must have a zero diagonal")
            with np.errstate(over="ignore"):
                D2 = D * D
            if not np.all(np.isfinite(D2)):
                raise ValueError(
                    f"the squares of {name} overflow float64 (its largest "
                    f"entry is {float(np.max(D)):.3g}): scale the "
                    "dissimilarities"
                )
            D2 = symmetrize(D2, inplace=True)
            n_features = D.shape[0]
        else:
            # float64 work, whatever the input: the sign test of the
            # spectrum needs it (float32 round-off makes Euclidean
            # distances look non-Euclidean).
            X = check_array(X, "X", accept_sparse=True)
            D2 = squared_distances(X)
            n_features = X.shape[1]
        n = D2.shape[0]
        if n < 2:
            raise ValueError(f"MDS needs at least 2 points, got n_samples={n}")
        if self.n_components is None:
            raise TypeError(
                "n_components must be a positive integer, got None"
            )
        d = check_n_components(self.n_components, n)

        G = _center_kernel_inplace(D2, symmetric=True)[0]
        G *= -0.5
        spectrum, V = _top_eigenpairs(
            G.copy(), n, solver="dense", overwrite=True, assume_psd=False
        )
        largest = float(np.max(np.abs(spectrum)))
        cutoff = RANK_RTOL * largest
        negative = spectrum < -cutoff
        total = float(np.sum(np.abs(spectrum)))
        negative_mass = (
            float(np.sum(np.abs(spectrum[negative])) / total)
            if total > 0
            else 0.0
        )
        if negative.any():
            warnings.warn(
                "the dissimilarities are not Euclidean: G has "
                f"{int(negative.sum())} negative eigenvalue(s), the most "
                f"negative {spectrum[-1]:.4g} "
                f"({abs(spectrum[-1]) / largest:.2%} of the largest magnitude); "
                "their directions cannot be embedded and are left out",
                NonEuclideanWarning,
                stacklevel=2,
            )
        lam = spectrum[:d]
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
        embedding = V[:, :d] * np.sqrt(np.where(nonpositive, 0.0, lam))
        residual = G - embedding @ embedding.T
        strain = _sum_of_squares(residual)
        if not np.isfinite(strain):
            raise ValueError(
                "the strain ||G - YY^T||_F^2 overflows float64: G reaches "
                f"{float(np.max(np.abs(G))):.3g}; scale the data"
            )

        self.gram_ = G
        self.spectrum_ = spectrum
        self.negative_mass_ = negative_mass
        self.eigenvalues_ = lam
        self.eigenvectors_ = V[:, :d]
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


def _sum_of_squares(R: np.ndarray) -> float:
    """The sum of the squared entries of ``R``, without overflow on the way.

    Computed on ``R`` divided by its largest magnitude: the squares of
    entries beyond 1e154 would overflow although the sum may not, and
    those of entries below 1e-154 underflow.  Infinite only when the sum
    itself exceeds float64's range.
    """
    peak = float(np.max(np.abs(R), initial=0.0))
    if peak == 0.0:
        return 0.0
    scaled = R / peak
    with np.errstate(over="ignore"):
        return peak * (peak * float(np.einsum("ij,ij->", scaled, scaled)))
