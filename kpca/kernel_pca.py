r"""Kernel principal component analysis.

Kernel PCA runs linear PCA on feature vectors :math:`\phi(x_i)` that are never
formed: only the kernel matrix :math:`K_{ij} = k(x_i, x_j)` is.  With the
samples as rows (the notes' :math:`d\times n` matrices appear transposed):

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

from collections.abc import Callable
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
    check_symmetric,
    random_seed,
)
from .centering import _center_test_kernel_with_means, _CentredKernel
from .eigen import EIGEN_SOLVERS, _top_eigenpairs
from .kernels import KernelFunction, make_kernel

__all__ = ["KernelPCA"]

_NAMED_KERNELS = ("linear", "polynomial", "gaussian", "precomputed")


class KernelPCA(BaseEstimator):
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
        ``"precomputed"`` means ``fit`` receives the :math:`n\times n`
        kernel matrix and ``transform`` the :math:`m\times n` kernel between
        new and training points.  A callable ``k(X, Y)`` must return the
        matrix of kernel values between the rows of ``X`` and ``Y``.
    sigma : float, default 1.0
        Width of the Gaussian kernel
        :math:`\exp(-\lVert x-y\rVert^2/(2\sigma^2))`.
    degree : int, default 2
        Degree :math:`p` of the polynomial kernel :math:`(c + x^\top y)^p`.
    coef0 : float, default 1.0
        The constant :math:`c` of the polynomial kernel.
    center : bool, default True
        Centre in feature space.  ``False`` reproduces the uncentred
        algorithm of the IIT Madras notes (their section 5), which is *not*
        PCA.
    eigen_solver : {"auto", "dense", "lanczos", "subspace", "arpack"}
        Default ``"auto"``; see :func:`kpca.top_eigenpairs`.  ``"auto"``
        takes the exact dense solver for at most 600 points, for more than
        :math:`n/10` components and for ``n_components=None``, and Lanczos
        iteration (stopped at a :math:`10^{-10}` relative residual)
        otherwise: with a block of two vectors up to 3000 points, a block of
        ``n_components`` beyond.  Every solver's pairs are checked and
        recomputed densely if the check fails.
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the iterative solvers' starting vectors (0 when None).

    Attributes
    ----------
    eigenvalues_ : ndarray, shape (n_components,)
        :math:`\mu_1 \ge \dots \ge \mu_k > 0`, eigenvalues of :math:`K_c`
        (:math:`n` times the variances :math:`\lambda_i`).
    eigenvectors_ : ndarray, shape (n_samples, n_components)
        Unit eigenvectors :math:`v_i` as columns, with the sign convention of
        :func:`kpca.align_signs`.
    alphas_ : ndarray, shape (n_samples, n_components)
        Expansion coefficients :math:`\alpha_i = v_i/\sqrt{\mu_i}` of the
        principal directions
        :math:`w_i = \sum_j \alpha_{ij}\,(\phi(x_j) - \bar\phi)`.
        (scikit-learn's ``eigenvectors_`` are the unit :math:`v_i`.)
    explained_variance_ : ndarray, shape (n_components,)
        :math:`\lambda_i = \mu_i / n`.
    total_variance_ : float
        :math:`\operatorname{tr} K_c / n`, the total variance of the centred
        features (all components, kept or not).  Without centring it is
        :math:`\operatorname{tr} K / n`, the mean squared feature norm.
    explained_variance_ratio_ : ndarray, shape (n_components,)
        :math:`\mu_i / \operatorname{tr} K_c`.
    n_components_ : int
        Number of components kept.
    n_samples_ : int
        Number :math:`n` of training points.
    n_features_in_ : int
        Number of features of the training data (:math:`n` when the kernel
        is precomputed).
    kernel_col_means_ : ndarray, shape (n_samples,)
        Column means :math:`\frac1n\sum_l K_{lj}` of the uncentred training
        kernel matrix (only when ``center`` is true); with ``kernel_mean_``,
        :math:`\frac1{n^2}\sum_{l,l'}K_{ll'}`, they centre new kernel rows.
    kernel_mean_ : float
        The grand mean of the training kernel matrix (only when ``center``).
    X_fit_ : ndarray or None
        A copy of the training data; None when the kernel is precomputed
        (new points then come as kernel rows).

    See Also
    --------
    kpca.PCA : the linear case, ``kernel="linear"``.
    kpca.preimage : reconstructions and pre-images of kernel PCA.

    References
    ----------
    .. [1] B. Schölkopf, A. Smola and K.-R. Müller, "Nonlinear component
       analysis as a kernel eigenvalue problem", Neural Computation 10(5),
       1998.

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
    >>> kp
    KernelPCA(kernel='polynomial')
    """

    def __init__(
        self,
        n_components: int | None = None,
        *,
        kernel: str | Callable = "gaussian",
        sigma: float = 1.0,
        degree: int = 2,
        coef0: float = 1.0,
        center: bool = True,
        eigen_solver: str = "auto",
        random_state: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.center = center
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    # -- helpers -----------------------------------------------------------
    def kernel_function(self) -> KernelFunction | None:
        """The kernel ``k(X, Y=None)`` this model uses.

        Returns
        -------
        callable or None
            A function of the rows of ``X`` and ``Y``, with the parameters
            validated; None when ``kernel="precomputed"``.
        """
        if isinstance(self.kernel, str):
            check_choice(self.kernel, "kernel", _NAMED_KERNELS)
            if self.kernel == "precomputed":
                return None
        return make_kernel(
            self.kernel, sigma=self.sigma, degree=self.degree, coef0=self.coef0
        )

    def _known_psd(self) -> bool:
        if self.kernel in ("linear", "gaussian"):
            return True
        # (c + x.y)^p is a positive combination of powers of x.y when c >= 0.
        return self.kernel == "polynomial" and self.coef0 >= 0

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags

    # -- API ---------------------------------------------------------------
    def fit(self, X: Any, y: Any = None) -> KernelPCA:
        """Fit the model to ``X`` (or to the kernel matrix, when precomputed).

        Parameters
        ----------
        X : array_like, shape (n_samples, n_features) or (n_samples, n_samples)
            Training data, or the training kernel matrix when
            ``kernel="precomputed"``.
        y : None
            Ignored; present for the scikit-learn protocol.

        Returns
        -------
        self
            With the fitted attributes set.  If ``fit`` raises, a previously
            fitted model is left unchanged.
        """
        self._fit(X)
        return self

    def fit_transform(self, X: Any, y: Any = None) -> np.ndarray:
        r"""Fit and return the training scores.

        Parameters
        ----------
        X : array_like
            As in :meth:`fit`.
        y : None
            Ignored.

        Returns
        -------
        Z : ndarray, shape (n_samples, n_components)
            :math:`V\operatorname{diag}(\sqrt{\mu})`, the transpose of the
            notes' :math:`X' = DV^\top K_c`.
        """
        return self._fit(X)

    def _fit(self, X: Any) -> np.ndarray:
        # Every parameter and the data are checked before any attribute is set.
        center = check_bool(self.center, "center")
        check_choice(self.eigen_solver, "eigen_solver", EIGEN_SOLVERS)
        random_state = random_seed(self.random_state)
        kernel = self.kernel_function()
        if kernel is None:
            name = "X (precomputed kernel)"
            K = check_symmetric(check_array(X, name), name)
            X_fit = None
            K = symmetrize(K)  # a new, exactly symmetric array
        else:
            X_fit = check_array(X, "X", copy=True)
            K = kernel(X_fit)
            if callable(self.kernel):
                check_symmetric(K, "kernel(X, X)")
                K = symmetrize(K, inplace=True)
        n = K.shape[0]
        n_features = n if X_fit is None else X_fit.shape[1]
        if center and n < 2:
            raise ValueError(
                "kernel PCA with centring needs at least 2 samples, got "
                f"n_samples={n}: one centred point is zero"
            )
        k = check_n_components(self.n_components, n)

        # With centring, the centring is folded into the products with K (an
        # iterative solver never needs K_c itself) and the dense solver
        # centres K in place.  Either way one n x n array is alive.
        centred = _CentredKernel(K) if center else None
        operator: np.ndarray | _CentredKernel = (
            K if centred is None else centred
        )
        trace = float(np.trace(K))
        del K
        mu, V = _top_eigenpairs(
            operator,
            n if k is None else k,
            solver=self.eigen_solver,
            random_state=random_state,
            overwrite=True,
            assume_psd=self._known_psd(),
        )
        # tr HKH = tr K - n g, with the grand mean g found during the solve.
        total = trace if centred is None else trace - n * centred.grand_mean
        del operator
        keep = components_to_keep(
            mu,
            k,
            f"{'centred ' if center else ''}kernel matrix",
            "the kernel matrix has no positive eigenvalue"
            + (" after centring" if center else "")
            + ": there is no component",
            stacklevel=3,
        )
        mu, V = mu[:keep], V[:, :keep]

        self.eigenvalues_ = mu
        self.eigenvectors_ = V
        self.alphas_ = V / np.sqrt(mu)
        self.explained_variance_ = mu / n
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = mu / total
        self.n_components_ = keep
        self.n_samples_ = n
        self.n_features_in_ = n_features
        self.X_fit_ = X_fit
        if centred is not None:
            self.kernel_col_means_ = centred.col_means
            self.kernel_mean_ = centred.grand_mean
        else:
            for stale in ("kernel_col_means_", "kernel_mean_"):
                self.__dict__.pop(stale, None)
        return V * np.sqrt(mu)

    def transform(self, X: Any) -> np.ndarray:
        r"""Scores of new points: :math:`\tilde K_{\text{new}}\, \alpha`.

        Parameters
        ----------
        X : array_like, shape (m, n_features) or (m, n_samples)
            New data, or, when ``kernel="precomputed"``, the
            :math:`m\times n` kernel between the new points and the training
            points.

        Returns
        -------
        Z : ndarray, shape (m, n_components)
        """
        check_is_fitted(self, "eigenvectors_")
        if self.X_fit_ is None:
            return self._scores(self._check_kernel_rows(X, "X"))
        X = check_array(X, "X")
        check_n_features(self, X)
        kernel = self.kernel_function()
        assert kernel is not None  # X_fit_ is None for precomputed kernels
        return self._scores(kernel(X, self.X_fit_))

    def scores_from_kernel(self, K_new: Any) -> np.ndarray:
        r"""Scores of new points from their uncentred kernel rows.

        Parameters
        ----------
        K_new : array_like, shape (m, n_samples)
            :math:`k(x_{\text{new}}, x_j)` for the training points
            :math:`x_j`.  It is centred with the training means (when
            ``center`` is true) and multiplied by ``alphas_``: the second half
            of :meth:`transform`, for callers that already hold the kernel
            rows.

        Returns
        -------
        Z : ndarray, shape (m, n_components)
        """
        check_is_fitted(self, "eigenvectors_")
        return self._scores(self._check_kernel_rows(K_new, "K_new"))

    def _check_kernel_rows(self, K_new: Any, name: str) -> np.ndarray:
        K_new = check_array(K_new, name)
        if K_new.shape[1] != self.n_samples_:
            raise ValueError(
                f"{name} has {K_new.shape[1]} features, but "
                f"{type(self).__name__} is expecting {self.n_samples_} features "
                "as input (kernel values with each training point)"
            )
        return K_new

    def _scores(self, K_new: np.ndarray) -> np.ndarray:
        # Centre as the fit did, whatever `center` says now (set_params).
        if hasattr(self, "kernel_col_means_"):
            K_new = _center_test_kernel_with_means(
                K_new, self.kernel_col_means_, self.kernel_mean_
            )
        return K_new @ self.alphas_
