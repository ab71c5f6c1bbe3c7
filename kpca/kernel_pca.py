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

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ._base import BaseEstimator, check_n_features
from ._validation import (
    _is_sparse,
    check_array,
    check_bool,
    check_choice,
    check_is_fitted,
    check_n_components,
    check_random_state,
    check_symmetric,
)
from .centering import _center_test_kernel_with_means, _CentredKernel
from .eigen import EIGEN_SOLVERS, _components_to_keep, _top_eigenpairs
from .kernels import (
    KernelFunction,
    _kernel_roundoff,
    kernel_diagonal,
    make_kernel,
)
from .pca import _accurate_mean

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
        eigenvalues are never kept (never divided by), nor those below the
        round-off of the kernel matrix as computed,
        :math:`10\varepsilon\max(\lVert K\rVert_F, \sum_i|K_{ii}|)` on
        the scale of the *uncentred* :math:`K`: a kernel dominated by a
        constant (a polynomial kernel of data far from the origin) resolves
        fewer, and one that resolves none raises a ``ValueError`` saying
        to centre or scale ``X``.  (The linear kernel with centring is
        computed from the centred data, and loses nothing.)  If fewer than
        ``k`` remain, a warning says so and ``n_components_`` is the number
        kept.
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
    random_state : int, optional
        Seed of the iterative solvers' starting vectors.

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

    # float32 data give a float32 kernel matrix; sparse data work with the
    # named kernels, through sparse products (see the _base tags).
    _keeps_float32 = True

    @property
    def _accepts_sparse(self) -> bool:  # type: ignore[override]
        return isinstance(self.kernel, str) and self.kernel != "precomputed"

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
            ``kernel="precomputed"``.  A ``scipy.sparse`` matrix is accepted
            with the named kernels (through sparse products); float32 data
            give a float32 kernel matrix, half the memory, solved to a
            :math:`10^{-5}` relative residual, and float32 scores.
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
        # The parameters transform will use, whatever set_params does later.
        params = self.get_params()
        center = check_bool(self.center, "center")
        check_choice(self.eigen_solver, "eigen_solver", EIGEN_SOLVERS)
        random_state = check_random_state(self.random_state)
        kernel = self.kernel_function()
        names = self._check_feature_names(X, reset=kernel is not None)
        if kernel is None:
            name = "X (precomputed kernel)"
            K = check_array(X, name, keep_float32=True)
            K = check_symmetric(K, name)
            X_fit = None
            K = 0.5 * (K + K.T)  # a new, exactly symmetric array
        else:
            X_fit = check_array(
                X,
                "X",
                copy=True,
                keep_float32=True,
                accept_sparse=self._accepts_sparse,
            )
            if _shifts_data(params, X_fit):
                # The centred linear kernel is that of the centred data,
                # computed without the cancellation of HKH (exact).
                K = kernel(X_fit - _accurate_mean(X_fit).astype(X_fit.dtype))
            else:
                K = kernel(X_fit)
            if callable(self.kernel):
                check_symmetric(K, "kernel(X, X)")
                K += K.T
                K *= 0.5
        n = K.shape[0]
        n_features = n if X_fit is None else X_fit.shape[1]
        if center and n < 2:
            raise ValueError(
                "kernel PCA with centring needs at least 2 samples, got "
                f"n_samples={n}: one centred point is zero"
            )
        k = check_n_components(self.n_components, n)
        roundoff = _kernel_roundoff(K)
        advice = _roundoff_advice(params)

        # With centring, the centring is folded into the products with K (an
        # iterative solver never needs K_c itself) and the dense solver
        # centres K in place.  Either way one n x n array is alive.
        centred = _CentredKernel(K) if center else None
        operator: np.ndarray | _CentredKernel = (
            K if centred is None else centred
        )
        trace = float(np.trace(K, dtype=float))
        dtype = K.dtype
        del K
        mu, V = _top_eigenpairs(
            operator,
            n if k is None else k,
            self.eigen_solver,
            _SOLVER_TOL[dtype == np.float32],
            500,
            random_state,
            True,
            self._known_psd(),
        )
        # tr HKH = tr K - n g, with the grand mean g found during the solve.
        total = trace if centred is None else trace - n * centred.grand_mean
        del operator
        keep = _components_to_keep(
            mu,
            k,
            f"{'centred ' if center else ''}kernel matrix",
            "the kernel matrix has no positive eigenvalue"
            + (" after centring" if center else "")
            + ": there is no component"
            + ("; " + advice if params["kernel"] == "gaussian" else ""),
            stacklevel=3,
            roundoff=roundoff,
            advice=advice,
        )
        keep = _above_float32_roundoff(mu, keep, k, total, dtype)
        mu, V = mu[:keep], V[:, :keep]
        # The trace is at least the sum of the kept eigenvalues, which lie
        # above the round-off; the subtraction tr K - n g can lose that much.
        total = max(total, float(mu.sum()))

        self.eigenvalues_ = mu
        self.eigenvectors_ = V
        self.alphas_ = V / np.sqrt(mu)
        self.explained_variance_ = mu / n
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = mu / total
        self.n_components_ = keep
        self.n_samples_ = n
        self._set_n_features(n_features, names)
        self.X_fit_ = X_fit
        if centred is not None and _shifts_data(params, X_fit):
            assert X_fit is not None
            # The means of the kernel of the data as given: x_j . m and m . m.
            mean = _accurate_mean(X_fit)
            self.kernel_col_means_ = X_fit @ mean
            self.kernel_mean_ = float(mean @ mean)
        elif centred is not None:
            self.kernel_col_means_ = centred.col_means
            self.kernel_mean_ = centred.grand_mean
        else:
            for stale in ("kernel_col_means_", "kernel_mean_"):
                self.__dict__.pop(stale, None)
        self._fitted_params = params
        return (V * np.sqrt(mu)).astype(dtype, copy=False)

    def _fitted_kernel(self) -> KernelFunction | None:
        """The kernel of the last fit (None if precomputed), not of set_params since."""
        return type(self)(**self._fitted_params).kernel_function()

    def _centred_rows(
        self, X: np.ndarray, with_diagonal: bool = False
    ) -> tuple[np.ndarray, np.ndarray | None]:
        r"""The kernel rows of ``X`` against the training points, centred as in fit.

        And, with ``with_diagonal``, the centred :math:`\tilde k(x, x)` of
        each row.  ``X`` is validated data (not a precomputed kernel).  For
        the linear kernel with centring both come from the data minus the
        training mean, as in ``fit``: no digit is lost far from the origin.
        """
        params = self._fitted_params
        kernel = self._fitted_kernel()
        assert kernel is not None and self.X_fit_ is not None
        X_fit = self.X_fit_
        if _shifts_data(params, X_fit):
            if _is_sparse(X):
                X = X.toarray()  # type: ignore[attr-defined]
            mean = _accurate_mean(X_fit).astype(X_fit.dtype)
            X, X_fit = X - mean, X_fit - mean
            # The means of the kernel of the shifted training data (zero up
            # to round-off), which fit centred with.
            delta = X_fit.mean(axis=0)
            col_means, grand_mean = X_fit @ delta, float(delta @ delta)
        elif hasattr(self, "kernel_col_means_"):
            col_means, grand_mean = self.kernel_col_means_, self.kernel_mean_
        else:
            col_means, grand_mean = None, 0.0
        K_new = kernel(X, X_fit)
        diagonal = None
        if with_diagonal:
            diagonal = kernel_diagonal(
                params["kernel"],
                X,
                sigma=params["sigma"],
                degree=params["degree"],
                coef0=params["coef0"],
            )
        if col_means is None:
            return K_new, diagonal
        if diagonal is not None:
            diagonal = diagonal - 2.0 * K_new.mean(axis=1) + grand_mean
        centred = _center_test_kernel_with_means(K_new, col_means, grand_mean)
        return centred.astype(K_new.dtype, copy=False), diagonal

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
        self._check_feature_names(X, reset=False)
        X = check_array(
            X,
            "X",
            keep_float32=True,
            accept_sparse=_is_sparse(self.X_fit_) or self._accepts_sparse,
        )
        check_n_features(self, X)
        K_new, _ = self._centred_rows(X)
        return K_new @ self.alphas_.astype(K_new.dtype, copy=False)

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
        K_new = check_array(K_new, name, keep_float32=True)
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
            ).astype(K_new.dtype, copy=False)
        return K_new @ self.alphas_.astype(K_new.dtype, copy=False)


# The eigensolvers' relative residual: float32 products carry about 1e-7 of
# round-off, so a float32 kernel matrix is solved to 1e-5.
_SOLVER_TOL = {False: 1e-10, True: 1e-5}


def _above_float32_roundoff(
    mu: np.ndarray, keep: int, k: int | None, total: float, dtype: np.dtype
) -> int:
    r"""How many eigenvalues stand out of a float32 kernel matrix's round-off.

    Rounding K to float32 moves each eigenvalue by at most
    :math:`\varepsilon_{32}\lVert K\rVert_F` (Weyl), which is at most
    :math:`\varepsilon_{32}\operatorname{tr} K` for a positive
    semidefinite K; smaller eigenvalues are not kept.  (For an indefinite
    kernel the trace can understate :math:`\lVert K\rVert_F`.)
    """
    if dtype != np.float32:
        return keep
    floor = np.finfo(np.float32).eps * abs(total)
    above = min(keep, int(np.count_nonzero(mu[:keep] > floor)))
    if above == 0:
        raise ValueError(
            "no eigenvalue of the float32 kernel matrix stands above its "
            "round-off: fit float64 data instead"
        )
    if k is not None and above < k:
        warnings.warn(
            f"n_components={k}: only {above} eigenvalues of the float32 "
            "kernel matrix stand above its round-off; keeping "
            f"{above} components (fit float64 data for more)",
            RuntimeWarning,
            stacklevel=4,
        )
    return above


def _shifts_data(params: dict[str, Any], X_fit: Any) -> bool:
    """Whether the kernel is evaluated on the data minus the training mean.

    So it is for the linear kernel with centring, of dense data: the
    centred kernel :math:`(x - m)^\top(y - m)` of data far from the origin
    is a small difference of large inner products, which would be lost to
    round-off.  (Sparse data stay sparse: their mean is not subtracted.)
    """
    return (
        params["kernel"] == "linear"
        and bool(params["center"])
        and isinstance(X_fit, np.ndarray)
    )


def _roundoff_advice(params: dict[str, Any]) -> str:
    """What to do when the centred kernel is lost in the round-off of K."""
    if params["kernel"] == "gaussian":
        return (
            "sigma is so large against the spread of X that the kernel is "
            "nearly constant: decrease sigma or scale X"
        )
    if params["kernel"] == "polynomial":
        return (
            "the polynomial kernel of data far from the origin is a large "
            "constant plus a small variation, which float64 cannot hold: "
            "centre or scale X first"
        )
    return "centre or scale X first"
