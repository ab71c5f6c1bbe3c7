r"""Linear principal component analysis.

For centred (optionally standardised) data :math:`X_c` with the samples as
rows, PCA finds the orthonormal directions :math:`u_1, \dots, u_k` of maximum
variance: the top eigenvectors of the covariance
:math:`C = \frac1n X_c^\top X_c` (the notes' :math:`1/n` convention).  The same
directions come from the Gram matrix :math:`X_c X_c^\top` (the notes'
":math:`X^\top X` trick", :math:`u_i = X_c^\top v_i / \sqrt{\mu_i}`) and from the
thin SVD :math:`X_c = V S U^\top`, written so that :math:`u_i` (the columns of
:math:`U`) are the directions, :math:`v_i` the unit eigenvectors of the Gram
matrix and :math:`s_i = \sqrt{\mu_i}` the singular values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._base import BaseEstimator, check_n_features
from ._spectrum import components_to_keep, symmetrize
from ._validation import (
    check_array,
    check_bool,
    check_choice,
    check_is_fitted,
    check_n_components,
)
from .eigen import _top_eigenpairs, align_signs

__all__ = ["PCA", "PCA_SOLVERS"]

PCA_SOLVERS = ("auto", "covariance", "gram", "svd")


# "auto" takes the covariance route only when it is much cheaper than the SVD.
_COVARIANCE_MIN_ASPECT = 10
_COVARIANCE_MAX_FEATURES = 1000


class PCA(BaseEstimator):
    r"""Principal component analysis with the notes' :math:`1/n` convention.

    Parameters
    ----------
    n_components : int, optional
        Number of components :math:`k` to keep, ``1 <= k <= min(n_samples,
        n_features)``.  None keeps every component of non-zero variance (the
        numerical rank :math:`r` of the centred data).  Components beyond
        :math:`r` carry no variance and are dropped with a warning.
    standardize : bool, default False
        Divide each centred feature by its population standard deviation
        :math:`\sigma_j = \sqrt{\frac1n\sum_i (x_{ij} - \bar x_j)^2}` before
        the decomposition, as in Li's lecture (PCA of the correlation
        matrix).
    solver : {"auto", "covariance", "gram", "svd"}, default "auto"
        How the components are computed (the routes of the notes):

        * ``"covariance"`` diagonalises the :math:`d\times d` matrix
          :math:`C = \frac1n X_c^\top X_c`, :math:`O(nd^2 + d^3)`;
        * ``"gram"`` diagonalises the :math:`n\times n` matrix
          :math:`X_c X_c^\top` and maps back with
          :math:`u_i = X_c^\top v_i / \sqrt{\mu_i}`, :math:`O(n^2 d + n^3)`;
        * ``"svd"`` takes the thin SVD of :math:`X_c`,
          :math:`O(nd\min(n, d))`;
        * ``"auto"`` takes ``"covariance"`` when ``n_samples >= 10 *
          n_features`` and ``n_features <= 1000`` (as scikit-learn does), and
          ``"svd"`` otherwise.

        Accuracy: the SVD computes each singular value :math:`s_i` with a
        relative error of order :math:`\varepsilon\, s_1/s_i`
        (:math:`\varepsilon \approx 2.2\times10^{-16}`); the covariance and
        Gram routes form a product of :math:`X_c` with itself, which squares
        the condition number, so their error is of order
        :math:`\varepsilon\, (s_1/s_i)^2`.  Components whose variance is
        below :math:`10^{-8}` of the largest are therefore reliable only with
        ``"svd"``.

    Attributes
    ----------
    mean_ : ndarray, shape (n_features,)
        Feature means of the training data.
    scale_ : ndarray, shape (n_features,) or None
        Population standard deviations when ``standardize`` is true, else
        None.
    components_ : ndarray, shape (n_components, n_features)
        Orthonormal rows :math:`u_i^\top`, ordered by decreasing variance,
        with the sign convention of :func:`kpca.align_signs`.
    explained_variance_ : ndarray, shape (n_components,)
        :math:`\lambda_i = \mu_i / n`, the variance (with :math:`1/n`) of
        the scores along each component.
    explained_variance_ratio_ : ndarray, shape (n_components,)
        :math:`\lambda_i / \sum_j \lambda_j`, the share of the total variance
        :math:`\operatorname{tr} C` (all components, kept or not).
    total_variance_ : float
        :math:`\operatorname{tr} C`.
    singular_values_ : ndarray, shape (n_components,)
        :math:`s_i = \sqrt{\mu_i} = \sqrt{n \lambda_i}`.
    n_components_ : int
        Number of components kept.
    n_samples_ : int
        Number of training samples.
    n_features_in_ : int
        Number of features.

    References
    ----------
    .. [1] I. T. Jolliffe, *Principal Component Analysis*, 2nd ed.,
       Springer, 2002.

    Examples
    --------
    Four points on the line :math:`y = 2x` and one just off it: the first
    component is close to the line's direction :math:`(1, 2)/\sqrt5`.

    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 2.0], [2.0, 4.0], [3.0, 6.0],
    ...               [1.0, 3.0]])
    >>> pca = PCA(n_components=1).fit(X)
    >>> pca.components_.round(4)
    array([[0.4501, 0.893 ]])
    >>> pca.explained_variance_ratio_.round(4)
    array([0.9937])
    >>> pca
    PCA(n_components=1)
    """

    def __init__(
        self,
        n_components: int | None = None,
        *,
        standardize: bool = False,
        solver: str = "auto",
    ) -> None:
        self.n_components = n_components
        self.standardize = standardize
        self.solver = solver

    def fit(self, X: Any, y: Any = None) -> PCA:
        """Fit the principal components of ``X``.

        Parameters
        ----------
        X : array_like, shape (n_samples, n_features)
            Training data, samples as rows.
        y : None
            Ignored; present for the scikit-learn protocol.

        Returns
        -------
        self
            With the fitted attributes set.  If ``fit`` raises, a previously
            fitted model is left unchanged.
        """
        # Every check comes before the first attribute is set.
        solver = check_choice(self.solver, "solver", PCA_SOLVERS)
        standardize = check_bool(self.standardize, "standardize")
        X = check_array(X, "X")
        n, d = X.shape
        if n < 2:
            raise ValueError(
                f"PCA needs at least 2 samples, got n_samples={n}: one sample "
                "has no variance"
            )
        k = check_n_components(self.n_components, min(n, d))
        mean = X.mean(axis=0)
        scale = None
        if standardize:
            scale = X.std(axis=0)
            tiny = np.finfo(float).eps * np.maximum(np.abs(mean), 1.0)
            constant = np.flatnonzero(scale <= tiny)
            if constant.size:
                raise ValueError(
                    f"X has constant feature(s) {constant.tolist()}: they "
                    "cannot be standardized (standardize=True divides by the "
                    "standard deviation)"
                )
        Xc = _centre(X, mean, scale)
        total = float(np.einsum("ij,ij->", Xc, Xc))  # = n tr C = sum of all mu
        if solver == "auto":
            covariance_is_cheap = (
                n >= _COVARIANCE_MIN_ASPECT * d
                and d <= _COVARIANCE_MAX_FEATURES
            )
            solver = "covariance" if covariance_is_cheap else "svd"
        want = min(n, d) if k is None else k

        if solver == "covariance":
            mu, U = _eigenpairs(Xc.T @ Xc, want)
        elif solver == "gram":
            mu, V = _eigenpairs(Xc @ Xc.T, want)
        else:
            _, s, Vt = np.linalg.svd(Xc, full_matrices=False)
            mu, U = s[:want] ** 2, Vt[:want].T

        keep = components_to_keep(
            mu if total > 0 else np.zeros_like(mu),
            k,
            "centred data",
            "X has zero variance after centring: there is no principal "
            "component",
            stacklevel=2,
        )
        mu = mu[:keep]
        if solver == "gram":
            # The notes' w_i = X v_i / sqrt(mu_i), written for samples as rows.
            U = (Xc.T @ V[:, :keep]) / np.sqrt(mu)
        else:
            U = U[:, :keep]

        self.mean_ = mean
        self.scale_ = scale
        self.components_ = align_signs(U).T
        self.n_samples_, self.n_features_in_ = n, d
        self.n_components_ = keep
        self.singular_values_ = np.sqrt(mu)
        self.explained_variance_ = mu / n
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = mu / total
        return self

    def transform(self, X: Any) -> np.ndarray:
        r"""Scores :math:`Z = X_c U_k` of ``X``.

        Parameters
        ----------
        X : array_like, shape (m, n_features)
            Data to project, centred (and scaled) with the training
            statistics.

        Returns
        -------
        Z : ndarray, shape (m, n_components)
        """
        check_is_fitted(self, "components_")
        X = check_array(X, "X")
        check_n_features(self, X)
        return _centre(X, self.mean_, self.scale_) @ self.components_.T

    def fit_transform(self, X: Any, y: Any = None) -> np.ndarray:
        """Fit to ``X`` and return its scores.

        Parameters
        ----------
        X : array_like, shape (n_samples, n_features)
            Training data.
        y : None
            Ignored.

        Returns
        -------
        Z : ndarray, shape (n_samples, n_components)
        """
        return self.fit(X).transform(X)

    def inverse_transform(self, Z: Any) -> np.ndarray:
        r"""Map scores back to the input space.

        :math:`\hat x = U_k z + \bar x`, or :math:`\hat x = (U_k z)\odot
        \sigma + \bar x` with ``standardize=True``: the orthogonal projection
        of the (standardised) data onto the principal subspace, undone back to
        the original units.

        Parameters
        ----------
        Z : array_like, shape (m, n_components)
            Scores.

        Returns
        -------
        X_hat : ndarray, shape (m, n_features)
        """
        check_is_fitted(self, "components_")
        Z = check_array(Z, "Z")
        if Z.shape[1] != self.n_components_:
            raise ValueError(
                f"Z has {Z.shape[1]} columns, but this PCA keeps "
                f"{self.n_components_} components"
            )
        X = Z @ self.components_
        if self.scale_ is not None:
            X *= self.scale_
        return X + self.mean_


def _centre(X: np.ndarray, mean: np.ndarray, scale: np.ndarray | None):
    Xc = X - mean
    if scale is not None:
        Xc /= scale
    return Xc


def _eigenpairs(A: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    # A is a fresh product, free to overwrite.
    A = symmetrize(A, inplace=True)
    return _top_eigenpairs(A, k, solver="dense", overwrite=True)
