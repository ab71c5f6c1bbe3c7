r"""Kernel principal component analysis.

Kernel PCA runs linear PCA on feature vectors :math:`\phi(x_i)` that are never
formed: only the kernel matrix :math:`K_{ij} = k(x_i, x_j)` is.  In the
book's notation (rows are samples here, so the notes' :math:`d\times n`
matrices appear transposed):

1. :math:`K_c = HKH`, the kernel of the centred features (:mod:`kpca.centering`);
2. :math:`K_c v_i = \mu_i v_i`, :math:`\lVert v_i\rVert = 1`,
   :math:`\mu_1 \ge \dots \ge \mu_k > 0`;
3. the scores of the training points are
   :math:`D V^\top K_c = \operatorname{diag}(\sqrt{\mu_i})\, V^\top`, i.e.
   :math:`z_i = \sqrt{\mu_i}\, v_i`; a new point :math:`x` scores
   :math:`\alpha_i^\top \tilde k(x)` with :math:`\alpha_i = v_i / \sqrt{\mu_i}`
   and :math:`\tilde k(x)` its kernel vector centred with the training mean.

The variance along the :math:`i`-th component is :math:`\lambda_i = \mu_i / n`.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Callable, Optional, Union

import numpy as np

from ._validation import (
    check_array,
    check_choice,
    check_is_fitted,
    check_n_components,
    check_symmetric,
)
from .centering import _center_kernel_inplace, _center_test_kernel_with_means
from .eigen import EIGEN_SOLVERS, numerical_rank, top_eigenpairs
from .kernels import make_kernel

__all__ = ["KernelPCA"]

_NAMED_KERNELS = ("linear", "polynomial", "gaussian", "precomputed")


class KernelPCA:
    r"""Kernel PCA with centring in feature space.

    Parameters
    ----------
    n_components : int, optional
        Number :math:`k` of components.  None keeps every eigenvalue of
        :math:`K_c` above ``RANK_RTOL`` (``1e-10``) times the largest: the
        numerical rank :math:`r` of the notes.  Zero and round-off-negative
        eigenvalues are never kept (never divided by); if fewer than ``k``
        remain, a warning says so and ``n_components_`` is the number kept.
    kernel : {"linear", "polynomial", "gaussian", "precomputed"} or callable, default "gaussian"
        ``"precomputed"`` means ``fit`` receives the :math:`n\times n` kernel
        matrix and ``transform`` the :math:`m\times n` kernel between new and
        training points.  A callable ``k(X, Y)`` must return the matrix of
        kernel values between the rows of ``X`` and ``Y``.
    sigma : float, default 1.0
        Width of the Gaussian kernel :math:`\exp(-\lVert x-y\rVert^2/(2\sigma^2))`.
    degree : int, default 2
        Degree :math:`p` of the polynomial kernel :math:`(c + x^\top y)^p`.
    coef0 : float, default 1.0
        The constant :math:`c` of the polynomial kernel.
    center : bool, default True
        Centre in feature space.  ``False`` reproduces the uncentred
        algorithm of the notes' section 5, which is *not* PCA.
    eigen_solver : {"auto", "dense", "subspace", "arpack"}, default "auto"
        See :func:`kpca.eigen.top_eigenpairs`.  ``"auto"`` takes the exact
        dense solver for small problems and for ``n_components=None``, and
        ARPACK's Lanczos iteration (stopped at a :math:`10^{-10}` relative
        residual) for a few components of a large positive semi-definite
        kernel matrix.
    random_state : int, optional
        Seed of the iterative solvers' starting block.

    Attributes
    ----------
    eigenvalues_ : ndarray, shape (k,)
        :math:`\mu_1 \ge \dots \ge \mu_k > 0`, eigenvalues of :math:`K_c`
        (:math:`n` times the variances :math:`\lambda_i`).
    eigenvectors_ : ndarray, shape (n_samples, k)
        Unit eigenvectors :math:`v_i` as columns; the entry of largest
        magnitude of each is positive.
    alphas_ : ndarray, shape (n_samples, k)
        Expansion coefficients :math:`\alpha_i = v_i/\sqrt{\mu_i}` of the
        principal directions :math:`w_i = \sum_j \alpha_{ij}\,(\phi(x_j) - \bar\phi)`.
    explained_variance_ : ndarray, shape (k,)
        :math:`\lambda_i = \mu_i / n`.
    n_components_ : int
    kernel_col_means_ : ndarray, shape (n_samples,)
        Column means :math:`\frac1n\sum_l K_{lj}` of the uncentred training
        kernel matrix (only when ``center`` is true); with ``kernel_mean_``,
        :math:`\frac1{n^2}\sum_{l,l'}K_{ll'}`, they centre new kernel rows.
    kernel_mean_ : float
    X_fit_ : ndarray
        Training data (or training kernel matrix when precomputed).

    Examples
    --------
    The notes' two-point example with the degree-2 polynomial kernel: the
    centred kernel is :math:`3.25\,[[1, -1], [-1, 1]]`, with one non-zero
    eigenvalue 6.5 and scores :math:`\pm\sqrt{13}/2`.

    >>> import numpy as np
    >>> kp = KernelPCA(kernel="polynomial", degree=2)
    >>> Z = kp.fit_transform(np.array([[1.0, 1.0], [2.0, 1.0]]))
    >>> kp.eigenvalues_, Z.round(4)
    (array([6.5]), array([[ 1.8028],
           [-1.8028]]))
    """

    def __init__(
        self,
        n_components: Optional[int] = None,
        kernel: Union[str, Callable] = "gaussian",
        sigma: float = 1.0,
        degree: int = 2,
        coef0: float = 1.0,
        center: bool = True,
        eigen_solver: str = "auto",
        random_state: Optional[int] = None,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.center = center
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    # -- helpers -----------------------------------------------------------------
    def kernel_function(self):
        """The kernel ``k(X, Y=None)`` this model uses, or None when ``kernel="precomputed"``."""
        if self.kernel == "precomputed":
            return None
        if isinstance(self.kernel, str):
            check_choice(self.kernel, "kernel", _NAMED_KERNELS)
        return make_kernel(
            self.kernel, sigma=self.sigma, degree=self.degree, coef0=self.coef0
        )

    def _known_psd(self) -> bool:
        if self.kernel in ("linear", "gaussian"):
            return True
        # (c + x.y)^p is a positive combination of powers of x.y when c >= 0.
        return self.kernel == "polynomial" and self.coef0 >= 0

    # -- API ---------------------------------------------------------------------
    def fit(self, X, y=None) -> "KernelPCA":
        """Fit the model to ``X`` (or to the kernel matrix, when precomputed)."""
        self._fit(X)
        return self

    def _fit(self, X) -> np.ndarray:
        if not isinstance(self.center, (bool, np.bool_)):
            raise TypeError(
                f"center must be True or False, got {self.center!r}"
            )
        check_choice(self.eigen_solver, "eigen_solver", EIGEN_SOLVERS)
        if self.random_state is not None and (
            isinstance(self.random_state, bool)
            or not isinstance(self.random_state, numbers.Integral)
        ):
            raise TypeError(
                f"random_state must be None or an integer, got {self.random_state!r}"
            )
        kernel = self.kernel_function()
        if kernel is None:
            K = check_symmetric(
                check_array(X, "X (precomputed kernel)"),
                "X (precomputed kernel)",
            )
            X_fit = K.copy()
            K = 0.5 * (K + K.T)  # exactly symmetric from here on
        else:
            X_fit = check_array(X, "X")
            K = kernel(X_fit)
            if callable(self.kernel):
                check_symmetric(K, "kernel(X, X)")
                K = 0.5 * (K + K.T)
        n = K.shape[0]
        k = check_n_components(self.n_components, n)

        if self.center:
            K, self.kernel_col_means_, self.kernel_mean_ = (
                _center_kernel_inplace(K, symmetric=True)
            )
        # Centring in place and letting the solver overwrite K keeps one n x n array alive.
        mu, V = top_eigenpairs(
            K,
            k,
            solver=self.eigen_solver,
            random_state=self.random_state,
            overwrite=True,
            assume_psd=self._known_psd(),
        )
        del K
        keep = numerical_rank(mu)
        if keep == 0:
            raise ValueError(
                "the kernel matrix has no positive eigenvalue after centring: there is no component"
            )
        if k is not None and keep < k:
            warnings.warn(
                f"n_components={k} exceeds the numerical rank {keep} of the "
                f"{'centred ' if self.center else ''}kernel matrix; keeping {keep} components",
                RuntimeWarning,
                stacklevel=3,
            )
        self.eigenvalues_ = mu[:keep]
        self.eigenvectors_ = V[:, :keep]
        self.alphas_ = self.eigenvectors_ / np.sqrt(self.eigenvalues_)
        self.explained_variance_ = self.eigenvalues_ / n
        self.n_components_ = keep
        self.n_samples_ = n
        self.X_fit_ = X_fit
        return self.eigenvectors_ * np.sqrt(self.eigenvalues_)

    def fit_transform(self, X, y=None) -> np.ndarray:
        r"""Fit and return the training scores :math:`V\operatorname{diag}(\sqrt{\mu})`, shape (n, k).

        This is the transpose of the notes' :math:`X' = DV^\top K_c`.
        """
        return self._fit(X)

    def transform(self, X) -> np.ndarray:
        r"""Scores of new points: :math:`\tilde K_{\text{new}}\, \alpha`, shape (m, k).

        ``X`` is the new data, or, when ``kernel="precomputed"``, the
        :math:`m\times n` kernel between the new points and the training points.
        """
        check_is_fitted(self, "eigenvectors_")
        if self.kernel == "precomputed":
            K_new = check_array(X, "X (precomputed kernel)")
            if K_new.shape[1] != self.n_samples_:
                raise ValueError(
                    f"the precomputed kernel X has {K_new.shape[1]} columns, but the model was "
                    f"fitted on {self.n_samples_} training points"
                )
        else:
            X = check_array(X, "X")
            if X.shape[1] != self.X_fit_.shape[1]:
                raise ValueError(
                    f"X has {X.shape[1]} features, but this KernelPCA was fitted with "
                    f"{self.X_fit_.shape[1]}"
                )
            K_new = self.kernel_function()(X, self.X_fit_)
        return self.scores_from_kernel(K_new)

    def scores_from_kernel(self, K_new: np.ndarray) -> np.ndarray:
        r"""Scores of new points from their uncentred kernel rows :math:`k(x_{\text{new}}, x_j)`.

        ``K_new`` has shape (m, n_samples); it is centred with the training
        means (when ``center`` is true) and multiplied by ``alphas_``.  This is
        the second half of :meth:`transform`, for callers that already hold the
        kernel rows.
        """
        check_is_fitted(self, "eigenvectors_")
        if self.center:
            K_new = _center_test_kernel_with_means(
                K_new, self.kernel_col_means_, self.kernel_mean_
            )
        return K_new @ self.alphas_
