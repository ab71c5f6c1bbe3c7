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

import numpy as np

from ._validation import (
    check_array,
    check_choice,
    check_is_fitted,
    check_n_components,
    check_symmetric,
)
from .centering import _center_kernel_inplace
from .eigen import top_eigenpairs
from .kernels import squared_distances

__all__ = ["double_center", "ClassicalMDS", "NonEuclideanWarning"]


class NonEuclideanWarning(UserWarning):
    """The dissimilarities are not the distances of any Euclidean configuration."""


def double_center(D2) -> np.ndarray:
    r"""Double centring :math:`-\frac12 H D^{(2)} H` of a matrix of squared distances.

    Parameters
    ----------
    D2 : array_like, shape (n, n)
        Squared dissimilarities :math:`\Delta_{ij}^2` (symmetric).

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
    G = _center_kernel_inplace(D2.copy())[0]
    G *= -0.5
    return G


class ClassicalMDS:
    r"""Classical multidimensional scaling.

    Parameters
    ----------
    n_components : int, default 2
        Target dimension :math:`d`.
    dissimilarity : {"euclidean", "precomputed"}, default "euclidean"
        ``"euclidean"``: ``fit`` receives data (rows are samples) and uses
        their Euclidean distances.  ``"precomputed"``: ``fit`` receives the
        symmetric matrix of (plain, not squared) dissimilarities, with a zero
        diagonal and no negative entry.

    Attributes
    ----------
    embedding_ : ndarray, shape (n_samples, n_components)
        :math:`y^a_i = \sqrt{\lambda_a}\, v^a_i`; the columns of eigenvalues
        that are not positive (at most ``1e-10`` times the largest magnitude)
        are zero.
    eigenvalues_ : ndarray, shape (n_components,)
        The :math:`d` largest eigenvalues of :math:`G`, descending.
    spectrum_ : ndarray, shape (n_samples,)
        All eigenvalues of :math:`G`, descending; negative ones mean the
        dissimilarities are not Euclidean.
    eigenvectors_ : ndarray, shape (n_samples, n_components)
    gram_ : ndarray, shape (n_samples, n_samples)
        :math:`G = -\frac12 H\Delta^{(2)}H`.
    strain_ : float
        :math:`\mathrm{Err} = \lVert G - YY^\top\rVert_F^2`, which equals the
        sum of the squared discarded eigenvalues.
    negative_mass_ : float
        :math:`\sum_{\lambda_a<0}|\lambda_a| / \sum_a|\lambda_a|`, 0 for
        Euclidean input.

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
        self, n_components: int = 2, dissimilarity: str = "euclidean"
    ) -> None:
        self.n_components = n_components
        self.dissimilarity = dissimilarity

    def fit(self, X, y=None) -> "ClassicalMDS":
        """Compute the embedding of ``X`` (data, or dissimilarities when precomputed)."""
        check_choice(
            self.dissimilarity, "dissimilarity", ("euclidean", "precomputed")
        )
        if self.dissimilarity == "precomputed":
            D = check_symmetric(
                check_array(X, "X (dissimilarities)"), "X (dissimilarities)"
            )
            if np.any(D < 0):
                raise ValueError(
                    "X (dissimilarities) must not have negative entries"
                )
            if np.any(np.diag(D) != 0):
                raise ValueError(
                    "X (dissimilarities) must have a zero diagonal"
                )
            D2 = 0.5 * (D * D + (D * D).T)
        else:
            D2 = squared_distances(check_array(X, "X"))
        n = D2.shape[0]
        if n < 2:
            raise ValueError(f"MDS needs at least 2 points, got {n}")
        d = check_n_components(self.n_components, n)
        if d is None:
            raise TypeError(
                "n_components must be a positive integer, got None"
            )
        G = _center_kernel_inplace(D2, symmetric=True)[0]
        G *= -0.5
        self.gram_ = G
        spectrum, V = top_eigenpairs(G, None, solver="dense")
        scale = max(float(np.max(np.abs(spectrum))), np.finfo(float).tiny)
        negative = spectrum < -1e-10 * scale
        self.spectrum_ = spectrum
        self.negative_mass_ = float(
            np.sum(np.abs(spectrum[negative])) / np.sum(np.abs(spectrum))
        )
        if negative.any():
            warnings.warn(
                f"the dissimilarities are not Euclidean: G has {int(negative.sum())} negative "
                f"eigenvalue(s), the most negative {spectrum[-1]:.4g} "
                f"({abs(spectrum[-1]) / scale:.2%} of the largest magnitude); their directions "
                "cannot be embedded and are left out",
                NonEuclideanWarning,
                stacklevel=2,
            )
        lam = spectrum[:d]
        self.eigenvalues_ = lam
        self.eigenvectors_ = V[:, :d]
        nonpositive = lam <= 1e-10 * scale
        if np.any(nonpositive):
            warnings.warn(
                f"only {int(np.count_nonzero(~nonpositive))} of the n_components={d} eigenvalues are "
                "positive; the remaining coordinates are set to 0",
                NonEuclideanWarning,
                stacklevel=2,
            )
        # Round-off "zeros" get exactly zero coordinates, like the negative eigenvalues.
        self.embedding_ = self.eigenvectors_ * np.sqrt(
            np.where(nonpositive, 0.0, lam)
        )
        residual = G - self.embedding_ @ self.embedding_.T
        self.strain_ = float(np.einsum("ij,ij->", residual, residual))
        return self

    def fit_transform(self, X, y=None) -> np.ndarray:
        """Fit and return ``embedding_``."""
        return self.fit(X).embedding_
