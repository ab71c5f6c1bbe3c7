r"""Linear principal component analysis.

For centred (optionally standardised) data :math:`X_c` with the samples as
rows, PCA finds the orthonormal directions :math:`u_1, \dots, u_k` of maximum
variance: the top eigenvectors of the covariance
:math:`C = \frac1n X_c^\top X_c` (the notes' :math:`1/n` convention).  The same
directions come from the Gram matrix :math:`X_c X_c^\top` (the notes'
":math:`X^\top X` trick", :math:`u_i = X_c^\top v_i / \sqrt{\mu_i}`) and from the
SVD :math:`X_c = U S V^\top`.
"""

from __future__ import annotations

import warnings
from typing import Optional

import numpy as np

from ._validation import (
    check_array,
    check_choice,
    check_is_fitted,
    check_n_components,
)
from .eigen import RANK_RTOL, align_signs, numerical_rank, top_eigenpairs

__all__ = ["PCA", "PCA_SOLVERS", "RANK_RTOL"]

PCA_SOLVERS = ("auto", "covariance", "gram", "svd")


class PCA:
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
        the decomposition, as in Li's lecture (PCA of the correlation matrix).
    solver : {"auto", "covariance", "gram", "svd"}, default "auto"
        ``"covariance"`` diagonalises the :math:`d\times d` matrix
        :math:`C = \frac1n X_c^\top X_c`, :math:`O(d^3)`; ``"gram"`` diagonalises
        the :math:`n\times n` matrix :math:`X_c X_c^\top` and maps back with
        :math:`u_i = X_c^\top v_i / \sqrt{\mu_i}`, :math:`O(n^3)`; ``"svd"``
        takes the thin SVD of :math:`X_c`.  ``"auto"`` picks ``"covariance"``
        when ``n_samples >= n_features`` and ``"gram"`` otherwise.

    Attributes
    ----------
    mean_ : ndarray, shape (n_features,)
        Feature means of the training data.
    scale_ : ndarray, shape (n_features,) or None
        Population standard deviations when ``standardize`` is true, else None.
    components_ : ndarray, shape (k, n_features)
        Orthonormal rows :math:`u_i^\top`, ordered by decreasing variance; the
        entry of largest magnitude of each row is positive.
    explained_variance_ : ndarray, shape (k,)
        :math:`\lambda_i = \mu_i / n`, the variance (with :math:`1/n`) of the
        scores along each component.
    explained_variance_ratio_ : ndarray, shape (k,)
        :math:`\lambda_i / \sum_j \lambda_j`, the share of the total variance
        :math:`\operatorname{tr} C` (all components, kept or not).
    total_variance_ : float
        :math:`\operatorname{tr} C`.
    singular_values_ : ndarray, shape (k,)
        :math:`s_i = \sqrt{\mu_i} = \sqrt{n \lambda_i}`.
    n_components_ : int
    n_samples_, n_features_in_ : int

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> pca = PCA(n_components=2, standardize=True).fit(load_iris().data)
    >>> pca.explained_variance_ratio_.round(4)
    array([0.7296, 0.2285])
    >>> pca.explained_variance_.round(3)
    array([2.918, 0.914])
    """

    def __init__(
        self,
        n_components: Optional[int] = None,
        standardize: bool = False,
        solver: str = "auto",
    ) -> None:
        self.n_components = n_components
        self.standardize = standardize
        self.solver = solver

    def _preprocess(self, X: np.ndarray) -> np.ndarray:
        Xc = X - self.mean_
        if self.scale_ is not None:
            Xc /= self.scale_
        return Xc

    def fit(self, X, y=None) -> "PCA":
        """Fit the principal components of ``X`` (shape ``(n_samples, n_features)``)."""
        X = check_array(X, "X")
        solver = check_choice(self.solver, "solver", PCA_SOLVERS)
        n, d = X.shape
        k = check_n_components(self.n_components, min(n, d))
        if not isinstance(self.standardize, (bool, np.bool_)):
            raise TypeError(
                f"standardize must be True or False, got {self.standardize!r}"
            )
        self.mean_ = X.mean(axis=0)
        self.scale_ = None
        if self.standardize:
            scale = X.std(axis=0)
            constant = np.flatnonzero(
                scale
                <= np.finfo(float).eps * np.maximum(np.abs(self.mean_), 1.0)
            )
            if constant.size:
                raise ValueError(
                    f"X has constant feature(s) {constant.tolist()}: they cannot be standardized "
                    "(standardize=True divides by the standard deviation)"
                )
            self.scale_ = scale
        Xc = self._preprocess(X)
        if solver == "auto":
            solver = "covariance" if n >= d else "gram"
        want = min(n, d) if k is None else k

        if solver == "covariance":
            mu, U = top_eigenpairs(Xc.T @ Xc, want, solver="dense")
        elif solver == "gram":
            mu, V = top_eigenpairs(Xc @ Xc.T, want, solver="dense")
            U = None  # formed below, only for the components of non-zero variance
        else:
            _, s, Vt = np.linalg.svd(Xc, full_matrices=False)
            mu, U = s[:want] ** 2, Vt[:want].T

        total = float(np.einsum("ij,ij->", Xc, Xc))  # = n tr C = sum of all mu
        keep = numerical_rank(mu) if total > 0 else 0
        if keep == 0:
            raise ValueError(
                "X has zero variance after centring: there is no principal component"
            )
        if k is not None and keep < k:
            warnings.warn(
                f"n_components={k} exceeds the numerical rank {keep} of the centred data; "
                f"keeping {keep} components",
                RuntimeWarning,
                stacklevel=2,
            )
        mu = mu[:keep]
        if solver == "gram":
            # The notes' w_i = X v_i / sqrt(mu_i), written for samples as rows.
            U = (Xc.T @ V[:, :keep]) / np.sqrt(mu)
        else:
            U = U[:, :keep]
        self.components_ = align_signs(U).T
        self.n_samples_, self.n_features_in_ = n, d
        self.n_components_ = keep
        self.singular_values_ = np.sqrt(mu)
        self.explained_variance_ = mu / n
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = mu / total
        return self

    def transform(self, X) -> np.ndarray:
        r"""Scores :math:`Z = X_c U_k` of ``X``, shape ``(n_samples, k)``."""
        check_is_fitted(self, "components_")
        X = check_array(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but this PCA was fitted with {self.n_features_in_}"
            )
        return self._preprocess(X) @ self.components_.T

    def fit_transform(self, X, y=None) -> np.ndarray:
        """Fit to ``X`` and return its scores."""
        return self.fit(X).transform(X)

    def inverse_transform(self, Z) -> np.ndarray:
        r"""Map scores back to the input space: :math:`\hat x = U_k z\,(\cdot\,\sigma) + \bar x`.

        This is the orthogonal projection of the (standardised) data onto the
        principal subspace, undone back to the original units.
        """
        check_is_fitted(self, "components_")
        Z = check_array(Z, "Z")
        if Z.shape[1] != self.n_components_:
            raise ValueError(
                f"Z has {Z.shape[1]} columns, but this PCA keeps {self.n_components_} components"
            )
        X = Z @ self.components_
        if self.scale_ is not None:
            X *= self.scale_
        return X + self.mean_
