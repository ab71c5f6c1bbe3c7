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

:class:`KernelPCA` takes scikit-learn's names as well as the notes' (see its
"Differences from scikit-learn"), and learns a pre-image map by kernel ridge
regression (``fit_inverse_transform``), next to the Gaussian fixed-point
pre-image of :mod:`kpca.preimage`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from ._base import BaseEstimator, NotFittedError, check_n_features
from ._packed import PackedSymmetric
from ._spectrum import (
    NegativeSpectrum,
    components_to_keep,
    negative_spectrum,
    symmetrize,
    warn_non_euclidean,
)
from ._tuning import FULL_SPECTRUM_UP_TO, NEGATIVE_CHECK_STEPS
from ._validation import (
    _is_sparse,
    check_array,
    check_bool,
    check_choice,
    check_is_fitted,
    check_n_components,
    check_nonnegative_int,
    check_positive_float,
    check_positive_int,
    check_real,
    check_symmetric,
    random_seed,
)
from .centering import (
    _center_kernel_inplace,
    _center_test_kernel_with_means,
    _CentredKernel,
)
from .eigen import EIGEN_SOLVERS, _chosen_solver, _top_eigenpairs
from .kernels import (
    KernelFunction,
    _kernel_roundoff,
    check_sigma,
    cosine_kernel,
    gaussian_kernel,
    linear_kernel,
    make_kernel,
    packed_gram,
    polynomial_kernel,
    sigmoid_kernel,
)
from .pca import _accurate_mean
from .preimage import ridge_preimage, ridge_preimage_fit

__all__ = ["KernelPCA"]

#: The notes' names ("polynomial", "gaussian") and scikit-learn's ("poly",
#: "rbf", "sigmoid", "cosine"), besides "linear" and "precomputed".
_NAMED_KERNELS = (
    "linear",
    "polynomial",
    "gaussian",
    "poly",
    "rbf",
    "sigmoid",
    "cosine",
    "precomputed",
)

# Kernels whose gamma defaults to 1 / n_features, as in scikit-learn.
_GAMMA_PER_FEATURE = ("poly", "rbf", "sigmoid")

# Kernels whose width can be too large for the data (see _roundoff_advice).
_WIDTH_KERNELS = ("gaussian", "rbf")

# The iterative solvers' iteration cap when max_iter is None.  (Their
# relative residual when tol=0, scikit-learn's default, "as accurate as the
# solver goes", is _SOLVER_TOL: 1e-10, or 1e-5 for float32 data.)
_DEFAULT_MAX_ITER = 500


class KernelPCA(BaseEstimator):
    r"""Kernel PCA with centring in feature space.

    A drop-in for :class:`sklearn.decomposition.KernelPCA`: its parameters,
    kernels, solvers and attributes have scikit-learn's names and meaning
    (the differences are listed below), and the notes' names stay.

    Parameters
    ----------
    n_components : int, optional
        Number :math:`k` of components.  None keeps every eigenvalue of
        :math:`K_c` above ``RANK_RTOL`` (``1e-10``) times the largest: the
        numerical rank :math:`r` of the notes.  Zero and round-off-negative
        eigenvalues are never divided by, nor those below the round-off
        of the kernel matrix as computed,
        :math:`10\varepsilon\max(\lVert K\rVert_F, \sum_i|K_{ii}|)` on
        the scale of the *uncentred* :math:`K`: a kernel dominated by a
        constant (a polynomial kernel of data far from the origin) resolves
        fewer, and one that resolves none raises a ``ValueError`` saying
        to centre or scale ``X``.  (The linear kernel with centring is
        computed from the centred data, and loses nothing.)  If fewer than
        ``k`` remain, they are dropped with a warning (see
        ``remove_zero_eig``).
    kernel : str or callable, default "gaussian"
        One of

        * ``"linear"``: :math:`x^\top y`;
        * ``"gaussian"`` (the notes' name):
          :math:`\exp(-\lVert x-y\rVert^2/(2\sigma^2))` with ``sigma``;
        * ``"rbf"`` (scikit-learn's name): :math:`\exp(-\gamma\lVert
          x-y\rVert^2)` with ``gamma``.  It is the same model as
          ``"gaussian"`` with :math:`\gamma = 1/(2\sigma^2)`, i.e.
          :math:`\sigma = 1/\sqrt{2\gamma}`;
        * ``"polynomial"`` (the notes') and ``"poly"`` (scikit-learn's):
          :math:`(\gamma\, x^\top y + c)^p`, the same kernel; they differ
          only in the defaults of :math:`\gamma` (1 for ``"polynomial"``,
          as in the notes' :math:`(1 + x^\top y)^p`; ``1/n_features`` for
          ``"poly"``) and of :math:`p` (2 and 3);
        * ``"sigmoid"``: :math:`\tanh(\gamma\, x^\top y + c)`, not positive
          semi-definite in general;
        * ``"cosine"``: :math:`x^\top y/(\lVert x\rVert\lVert y\rVert)`;
        * ``"precomputed"``: ``fit`` receives the :math:`n\times n` kernel
          matrix and ``transform`` the :math:`m\times n` kernel between new
          and training points;
        * a callable ``k(X, Y, **kernel_params)`` returning the matrix of
          kernel values between the rows of ``X`` and ``Y``.

        A precomputed or callable kernel (or the sigmoid, or a polynomial
        with :math:`c < 0`) need not be positive semi-definite; when the
        centred kernel matrix has eigenvalues below ``-RANK_RTOL`` times the
        largest, a :class:`kpca.NonEuclideanWarning` names them and their
        negative mass, and only the positive eigenvalues give components.
    sigma : float, default 1.0
        Width :math:`\sigma` of the ``"gaussian"`` kernel (unused by the
        others).
    gamma : float, optional
        :math:`\gamma` of the ``"rbf"``, ``"poly"``, ``"polynomial"`` and
        ``"sigmoid"`` kernels; None means ``1/n_features`` (1 for
        ``"polynomial"``).  Not allowed with ``"gaussian"``, whose width is
        ``sigma``: use ``kernel="rbf"`` to give :math:`\gamma`.
    degree : int, optional
        Degree :math:`p` of the polynomial kernel; None means 2 for
        ``"polynomial"``, 3 for ``"poly"``.
    coef0 : float, default 1.0
        The constant :math:`c` of the polynomial and sigmoid kernels.
    kernel_params : dict, optional
        Keyword arguments of a callable kernel (only with a callable).
    alpha : float, default 1.0
        Ridge penalty of the learned pre-image map (``fit_inverse_transform``).
    fit_inverse_transform : bool, default False
        Learn the pre-image map of :meth:`inverse_transform`.
    center : bool, default True
        Centre in feature space.  ``False`` reproduces the uncentred
        algorithm of the IIT Madras notes (their section 5), which is *not*
        PCA.
    eigen_solver : {"auto", "dense", "lanczos", "subspace", "randomized", "arpack"}
        Default ``"auto"``; see :func:`kpca.top_eigenpairs`.  ``"auto"``
        takes the exact dense solver for at most 600 points, for more than
        :math:`n/10` components and for ``n_components=None``, and Lanczos
        iteration (stopped at a :math:`10^{-10}` relative residual)
        otherwise, with a block of ``n_components`` vectors.  ``"randomized"`` (scikit-learn's name) is
        randomised subspace iteration, ``"subspace"``.  Every solver's pairs
        are checked and recomputed densely if the check fails.
    tol : float, default 0
        Relative residual :math:`\lVert K_cv - \mu v\rVert/\mu_1` at which
        the iterative solvers stop; 0 means :math:`10^{-10}`.
    max_iter : int, optional
        Iteration cap of the iterative solvers (500 when None).
    iterated_power : int or "auto", default "auto"
        scikit-learn's number of power iterations of ``"randomized"``.
        Accepted and validated for compatibility; kpca's randomised solver
        iterates until the residual reaches ``tol`` instead of a fixed
        count, and its answer is checked.
    remove_zero_eig : bool, optional
        What to do with eigenvalues at or below ``RANK_RTOL`` times the
        largest when ``n_components`` asked for them.  None (kpca's
        default): drop them with a warning.  True: drop them silently.
        False (scikit-learn's default): keep ``n_components`` components;
        those of zero eigenvalue have eigenvalue 0, zero ``alphas_`` and
        zero scores.  ``n_components=None`` always keeps the positive ones
        only.
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the iterative solvers' starting vectors (0 when None, so
        fits are reproducible).
    copy_X : bool, default True
        Store a copy of the training data in ``X_fit_`` (False stores the
        validated array, which is the caller's own when it already was a
        C-ordered float64 array).
    n_jobs : int, optional
        Accepted for compatibility with scikit-learn; kpca sizes its own
        threads from the BLAS thread limit (set it with threadpoolctl).

    Attributes
    ----------
    eigenvalues_ : ndarray, shape (n_components,)
        :math:`\mu_1 \ge \dots \ge \mu_k > 0`, eigenvalues of :math:`K_c`
        (:math:`n` times the variances :math:`\lambda_i`), as scikit-learn's.
    eigenvectors_ : ndarray, shape (n_samples, n_components)
        Unit eigenvectors :math:`v_i` as columns, with the sign convention of
        :func:`kpca.align_signs`, as scikit-learn's (whose sign rule is the
        largest entry positive; the two differ only at ties).
    alphas_ : ndarray, shape (n_samples, n_components)
        Expansion coefficients :math:`\alpha_i = v_i/\sqrt{\mu_i}` of the
        principal directions
        :math:`w_i = \sum_j \alpha_{ij}\,(\phi(x_j) - \bar\phi)`.
        (scikit-learn's old ``alphas_`` were the unit :math:`v_i`, now its
        ``eigenvectors_``.)
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
    gamma_ : float
        The :math:`\gamma` the kernel used: ``gamma``, or its default
        ``1/n_features`` (1 for ``"polynomial"``); for ``"gaussian"``,
        :math:`1/(2\sigma^2)`.
    kernel_col_means_ : ndarray, shape (n_samples,)
        Column means :math:`\frac1n\sum_l K_{lj}` of the uncentred training
        kernel matrix (only when ``center`` is true); with ``kernel_mean_``,
        :math:`\frac1{n^2}\sum_{l,l'}K_{ll'}`, they centre new kernel rows.
    kernel_mean_ : float
        The grand mean of the training kernel matrix (only when ``center``).
    X_fit_ : ndarray or None
        The training data; None when the kernel is precomputed (new points
        then come as kernel rows).
    dual_coef_ : ndarray, shape (n_samples, n_features)
        Coefficients of the learned pre-image map (``fit_inverse_transform``).
    X_transformed_fit_ : ndarray, shape (n_samples, n_components)
        The training scores the pre-image map was learned on.

    See Also
    --------
    kpca.PCA : the linear case, ``kernel="linear"``.
    kpca.preimage : reconstructions and pre-images of kernel PCA.

    Notes
    -----
    **Differences from scikit-learn** (1.9).  The defaults ``kernel``
    (``"gaussian"`` with :math:`\sigma = 1` here, ``"linear"`` there) and
    ``remove_zero_eig`` (see above) differ; pass them to get the other's.
    A callable kernel receives two 2-D arrays and returns their kernel
    matrix (scikit-learn calls it once per pair of rows; wrap such a function
    as ``lambda X, Y: sklearn.metrics.pairwise_kernels(X, Y, metric=f)``).
    Eigenvalues that are not positive are never kept as components of a
    non-zero eigenvalue.  The iterative solvers stop at a residual, not
    after a fixed number of steps, and their answers are checked.
    ``alphas_`` is :math:`v_i/\sqrt{\mu_i}`, as in the notes.  Sparse input
    is accepted with the named kernels except ``"cosine"`` (and
    ``"precomputed"``, whose kernel matrix is dense).  Transform,
    :meth:`kernel_diagonal`, :meth:`inverse_transform` and
    :mod:`kpca.preimage` use the parameters of the last fit, whatever
    ``set_params`` changed since.

    **Memory.**  With a named kernel and a solver that runs on products
    (the default beyond 600 points with :math:`k \le n/10`, and
    ``"lanczos"``, ``"arpack"``, ``"randomized"``), the kernel matrix is kept
    as its triangle on and above the diagonal, in panels of 512 rows:
    :math:`n(n + 512)/2` numbers instead of :math:`n^2` (256 MB instead of
    512 MB at :math:`n = 8000`), and the centring is folded into the
    products.  The dense solver, and a check that sends an iterative answer
    to it, take the whole matrix.

    The learned pre-image map (Bakır, Weston and Schölkopf [2]_) is kernel
    ridge regression from the scores back to the data, with the model's own
    kernel on the scores: with :math:`Z` the training scores,
    :math:`\hat x(z) = k(z, Z)\,(k(Z, Z) + \alpha I)^{-1} X`.  It works for
    every kernel with a kernel function; the Gaussian fixed-point pre-image
    of the notes is :func:`kpca.preimage.gaussian_preimage`.

    References
    ----------
    .. [1] B. Schölkopf, A. Smola and K.-R. Müller, "Nonlinear component
       analysis as a kernel eigenvalue problem", Neural Computation 10(5),
       1998.
    .. [2] G. H. Bakır, J. Weston and B. Schölkopf, "Learning to find
       pre-images", Advances in Neural Information Processing Systems 16,
       2004.

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
    KernelPCA(degree=2, kernel='polynomial')

    scikit-learn's names: ``"rbf"`` with :math:`\gamma = 1/(2\sigma^2)` is
    the ``"gaussian"`` model, and the learned pre-image map denoises:

    >>> X = np.random.default_rng(0).normal(size=(30, 2))
    >>> Z_rbf = KernelPCA(2, kernel="rbf", gamma=0.125).fit_transform(X)
    >>> Z_gauss = KernelPCA(2, kernel="gaussian", sigma=2.0).fit_transform(X)
    >>> bool(np.allclose(Z_rbf, Z_gauss))
    True
    >>> kp = KernelPCA(2, kernel="rbf", gamma=0.125, fit_inverse_transform=True)
    >>> X_back = kp.fit(X).inverse_transform(kp.transform(X))
    >>> X_back.shape
    (30, 2)
    """

    def __init__(
        self,
        n_components: int | None = None,
        *,
        kernel: str | Callable = "gaussian",
        sigma: float = 1.0,
        gamma: float | None = None,
        degree: int | None = None,
        coef0: float = 1.0,
        kernel_params: dict | None = None,
        alpha: float = 1.0,
        fit_inverse_transform: bool = False,
        center: bool = True,
        eigen_solver: str = "auto",
        tol: float = 0,
        max_iter: int | None = None,
        iterated_power: int | str = "auto",
        remove_zero_eig: bool | None = None,
        random_state: Any = None,
        copy_X: bool = True,
        n_jobs: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.center = center
        self.eigen_solver = eigen_solver
        self.tol = tol
        self.max_iter = max_iter
        self.iterated_power = iterated_power
        self.remove_zero_eig = remove_zero_eig
        self.random_state = random_state
        self.copy_X = copy_X
        self.n_jobs = n_jobs

    # -- the kernel --------------------------------------------------------
    def kernel_function(self) -> KernelFunction | None:
        """The kernel ``k(X, Y=None)`` this model uses.

        Returns
        -------
        callable or None
            A function of the rows of ``X`` and ``Y``, with the parameters
            validated; None when ``kernel="precomputed"``.  A default
            ``gamma`` (``1/n_features``) needs the fitted model.
        """
        return self._kernel(self._gamma(getattr(self, "n_features_in_", None)))

    def _gamma(self, n_features: int | None) -> float | None:
        """The kernel's gamma for data of ``n_features`` (see ``gamma_``)."""
        kernel = self.kernel
        if not callable(kernel):
            check_choice(kernel, "kernel", _NAMED_KERNELS)
        if kernel == "gaussian":
            if self.gamma is not None:
                raise ValueError(
                    "gamma is not a parameter of kernel='gaussian', whose "
                    "width is sigma; use kernel='rbf' with gamma (the same "
                    "model, gamma = 1/(2 sigma^2))"
                )
            return 0.5 / check_sigma(self.sigma, "sigma") ** 2
        if self.gamma is not None:
            return check_positive_float(self.gamma, "gamma")
        if kernel == "polynomial":
            return 1.0
        if n_features is not None:
            return 1.0 / n_features
        if kernel in _GAMMA_PER_FEATURE:
            raise NotFittedError(
                f"gamma=None means 1/n_features for kernel={kernel!r}: fit "
                "the model first, or give gamma"
            )
        return None

    def _kernel(self, gamma: float | None) -> KernelFunction | None:
        """The kernel function with the given (already validated) gamma."""
        kernel = self.kernel
        if callable(kernel):
            params = self.kernel_params
            if params is not None and not isinstance(params, dict):
                raise TypeError(
                    f"kernel_params must be None or a dict, got {params!r}"
                )
            return make_kernel(
                functools.partial(kernel, **params) if params else kernel
            )
        if self.kernel_params is not None:
            raise ValueError(
                "kernel_params is for a callable kernel, but kernel="
                f"{kernel!r}: give its parameters (gamma, degree, coef0) "
                "directly"
            )
        if kernel == "precomputed":
            return None
        if kernel == "linear":
            return linear_kernel
        if kernel == "cosine":
            return cosine_kernel
        if kernel == "gaussian":
            return _Gaussian(check_sigma(self.sigma, "sigma"))
        assert gamma is not None
        if kernel == "rbf":
            return _Gaussian(1.0 / math.sqrt(2.0 * gamma))
        coef0 = check_real(self.coef0, "coef0")
        if kernel == "sigmoid":
            return _Sigmoid(gamma, coef0)
        return _Polynomial(gamma, self._degree(), coef0)

    def _degree(self) -> int:
        if self.degree is None:
            return 3 if self.kernel == "poly" else 2
        return check_nonnegative_int(self.degree, "degree")

    def _known_psd(self) -> bool:
        if self.kernel in ("linear", "gaussian", "rbf", "cosine"):
            return True
        # (c + g x.y)^p is a positive combination of powers of x.y when
        # c >= 0 and g > 0.
        return self.kernel in ("polynomial", "poly") and self.coef0 >= 0

    # float32 data give a float32 kernel matrix; sparse data work with the
    # named kernels, through sparse products (see the _base tags).
    _keeps_float32 = True

    @property
    def _accepts_sparse(self) -> bool:  # type: ignore[override]
        # (The cosine kernel scales dense rows only.)
        return isinstance(self.kernel, str) and self.kernel not in (
            "precomputed",
            "cosine",
        )

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

    def _check_solver_params(self) -> dict[str, Any]:
        solver = check_choice(self.eigen_solver, "eigen_solver", EIGEN_SOLVERS)
        tol = check_real(self.tol, "tol")
        if tol < 0:
            raise ValueError(f"tol must be >= 0, got {self.tol!r}")
        max_iter = (
            _DEFAULT_MAX_ITER
            if self.max_iter is None
            else check_positive_int(self.max_iter, "max_iter")
        )
        if not (
            isinstance(self.iterated_power, str)
            and self.iterated_power == "auto"
        ):
            check_nonnegative_int(self.iterated_power, "iterated_power")
        if self.n_jobs is not None and (
            isinstance(self.n_jobs, bool)
            or not isinstance(self.n_jobs, numbers.Integral)
        ):
            raise TypeError(
                f"n_jobs must be None or an integer, got {self.n_jobs!r}"
            )
        return dict(
            solver=solver,
            tol=tol,  # 0: _SOLVER_TOL of the kernel matrix's dtype
            max_iter=max_iter,
            random_state=random_seed(self.random_state),
        )

    # Validation, kernel, spectrum and the fitted attributes in one place, so
    # that nothing is set before everything is checked (R7.12 tracks a split).
    def _fit(self, X: Any) -> np.ndarray:  # noqa: C901
        # Every parameter and the data are checked before any attribute is set.
        # The parameters transform will use, whatever set_params does later.
        params = self.get_params()
        center = check_bool(self.center, "center")
        inverse = check_bool(
            self.fit_inverse_transform, "fit_inverse_transform"
        )
        alpha = check_real(self.alpha, "alpha")
        if alpha < 0:
            raise ValueError(f"alpha must be >= 0, got {self.alpha!r}")
        if self.remove_zero_eig is not None:
            check_bool(self.remove_zero_eig, "remove_zero_eig")
        copy = check_bool(self.copy_X, "copy_X")
        solver_params = self._check_solver_params()
        names = self._check_feature_names(
            X, reset=self.kernel != "precomputed"
        )
        if self.kernel == "precomputed":
            if inverse:
                raise ValueError(
                    "fit_inverse_transform needs a kernel function to learn "
                    "the pre-image map with, which kernel='precomputed' "
                    "does not give"
                )
            gamma = self._gamma(None)
            kernel = self._kernel(gamma)  # None; checks kernel_params
            name = "X (precomputed kernel)"
            K = check_array(X, name, keep_float32=True)
            K = check_symmetric(K, name)
            X_fit = None
            K = symmetrize(K)  # a new, exactly symmetric array
            n_features = K.shape[0]
        else:
            X_fit = check_array(
                X,
                "X",
                copy=copy,
                keep_float32=True,
                accept_sparse=self._accepts_sparse,
            )
            n_features = X_fit.shape[1]
            gamma = self._gamma(n_features)
            kernel = self._kernel(gamma)
            assert kernel is not None
            # A named kernel's matrix is kept as its upper triangle (half
            # the memory) when the solver needs only its products.
            packs = isinstance(self.kernel, str) and self._solves_by_products(
                X_fit.shape[0], solver_params["solver"]
            )
            with packed_gram() if packs else contextlib.nullcontext():
                if _shifts_data(params, X_fit):
                    # The centred linear kernel is that of the centred data,
                    # computed without the cancellation of HKH (exact).
                    K = kernel(
                        X_fit - _accurate_mean(X_fit).astype(X_fit.dtype)
                    )
                else:
                    K = kernel(X_fit)
            if not isinstance(self.kernel, str):
                check_symmetric(K, "kernel(X, X)")
                K = symmetrize(K, inplace=True)
        n = K.shape[0]
        if center and n < 2:
            raise ValueError(
                "kernel PCA with centring needs at least 2 samples, got "
                f"n_samples={n}: one centred point is zero"
            )
        k = check_n_components(self.n_components, n)
        roundoff = _kernel_roundoff(K)
        advice = _roundoff_advice(params)
        known_psd = self.kernel != "precomputed" and self._known_psd()
        matrix = f"{'centred ' if center else ''}kernel matrix"
        negatives = (
            None
            if known_psd
            else _negative_part(K, center, solver_params["random_state"])
        )

        # With centring, the centring is folded into the products with K (an
        # iterative solver never needs K_c itself) and the dense solver
        # centres K in place.  Either way one kernel matrix is alive: the
        # whole of it, or (packed) its upper triangle.
        centred = _CentredKernel(K) if center else None
        operator: np.ndarray | _CentredKernel = (
            K if centred is None else centred
        )
        trace = float(K.trace(dtype=float))
        dtype = K.dtype
        del K
        if solver_params["tol"] == 0:
            solver_params["tol"] = _SOLVER_TOL[dtype == np.float32]
        mu, V = _top_eigenpairs(
            operator,
            n if k is None else k,
            overwrite=True,
            assume_psd=known_psd,
            **solver_params,
        )
        # tr HKH = tr K - n g, with the grand mean g found during the solve.
        total = trace if centred is None else trace - n * centred.grand_mean
        del operator
        indefinite = False
        negative_scale = 0.0
        if negatives is not None:
            found = (
                negatives
                if isinstance(negatives, NegativeSpectrum)
                else negative_spectrum(smallest=negatives, largest=mu[0])
            )
            # Negative eigenvalues within the round-off of K as computed
            # (a float32 kernel's, say) are not a sign of indefiniteness.
            indefinite = found.significant and -found.smallest > roundoff
            negative_scale = abs(found.smallest) if indefinite else 0.0
            if indefinite:
                warn_non_euclidean(
                    found,
                    matrix,
                    "It is not the Gram matrix of any feature vectors; the "
                    "directions of negative eigenvalues are left out.",
                    stacklevel=3,
                )
        remove = self.remove_zero_eig
        keep = components_to_keep(
            mu,
            k if remove is None else None,  # None: no warning
            matrix,
            f"the {matrix} has no positive eigenvalue: there is no component"
            + ("; " + advice if params["kernel"] in _WIDTH_KERNELS else ""),
            stacklevel=3,
            indefinite=indefinite,
            scale=negative_scale,
            roundoff=roundoff,
            advice=advice,
        )
        keep = _above_float32_roundoff(
            mu, keep, k if remove is None else None, total, dtype
        )
        if remove is False and k is not None:
            # scikit-learn's rule: n_components components; those of a zero
            # eigenvalue score zero.
            mu = np.where(np.arange(mu.size) < keep, mu, 0.0)
            alphas = np.zeros_like(V)
            alphas[:, :keep] = V[:, :keep] / np.sqrt(mu[:keep])
        else:
            mu, V = mu[:keep], V[:, :keep]
            alphas = V / np.sqrt(mu)
        # The trace is at least the sum of the kept eigenvalues, which lie
        # above the round-off; the subtraction tr K - n g can lose that much.
        total = max(total, float(mu.sum()))
        scores = (V * np.sqrt(mu)).astype(dtype, copy=False)
        inverse_map = (
            # dual_coef_ is a dense n x n_features array whatever X is.
            ridge_preimage_fit(
                scores,
                X_fit.toarray() if _is_sparse(X_fit) else X_fit,
                kernel,
                alpha,
            )
            if inverse and kernel is not None and X_fit is not None
            else None
        )

        self.eigenvalues_ = mu
        self.eigenvectors_ = V
        self.alphas_ = alphas
        self.explained_variance_ = mu / n
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = mu / total
        self.n_components_ = mu.size
        self.n_samples_ = n
        self._set_n_features(n_features, names)
        self.gamma_ = gamma
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
        if inverse_map is not None:
            self.dual_coef_ = inverse_map
            self.X_transformed_fit_ = scores
        else:
            for stale in ("dual_coef_", "X_transformed_fit_"):
                self.__dict__.pop(stale, None)
        self._fitted_params = params
        return scores

    def _solves_by_products(self, n: int, solver: str) -> bool:
        """Whether the fit's eigensolver takes the kernel matrix only through products.

        Then the matrix itself is needed only if the solver's answer fails
        its check.  Up to ``FULL_SPECTRUM_UP_TO`` points the check for
        negative eigenvalues takes the whole spectrum, so the matrix itself.
        """
        if n <= FULL_SPECTRUM_UP_TO:
            return False
        try:
            k = check_n_components(self.n_components, n)
        except (TypeError, ValueError):
            return False  # the fit raises this error after the kernel
        k = n if k is None else k
        return _chosen_solver(n, k, solver, self._known_psd()) != "dense"

    def _fitted_model(self) -> KernelPCA:
        """An unfitted copy with the parameters of the last fit."""
        return type(self)(**self._fitted_params)

    def _fitted_kernel(self) -> KernelFunction | None:
        """The kernel of the last fit (None if precomputed).

        With the parameters and ``gamma_`` of that fit, not of set_params
        since.
        """
        return self._fitted_model()._kernel(self.gamma_)

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
            diagonal = self._fitted_diagonal(X)
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

    def inverse_transform(self, X: Any) -> np.ndarray:
        r"""Pre-images of scores by the learned map (``fit_inverse_transform``).

        Kernel ridge regression from the training scores :math:`Z` back to
        the training data, with the model's kernel on the scores:
        :math:`\hat x(z) = k(z, Z)\,(k(Z, Z) + \alpha I)^{-1} X`
        (scikit-learn's ``inverse_transform``; see
        :func:`kpca.preimage.ridge_preimage`).

        Parameters
        ----------
        X : array_like, shape (m, n_components)
            Scores, e.g. from :meth:`transform`.

        Returns
        -------
        X_original : ndarray, shape (m, n_features)

        Raises
        ------
        NotFittedError
            If the model was not fitted with ``fit_inverse_transform=True``.
        """
        check_is_fitted(self, "eigenvectors_")
        if not hasattr(self, "dual_coef_"):
            raise NotFittedError(
                "The fit_inverse_transform parameter was not set to True "
                "when the model was fitted, so inverse_transform is not "
                "available"
            )
        Z = check_array(X, "X", keep_float32=True)
        if Z.shape[1] != self.X_transformed_fit_.shape[1]:
            raise ValueError(
                f"X has {Z.shape[1]} columns, but the model has "
                f"{self.X_transformed_fit_.shape[1]} components"
            )
        kernel = self._fitted_kernel()
        assert kernel is not None
        return ridge_preimage(
            Z, self.X_transformed_fit_, self.dual_coef_, kernel
        )

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

    def kernel_diagonal(self, X: Any) -> np.ndarray:
        r"""The values :math:`k(x, x)` of the fitted kernel for the rows of ``X``.

        Without the :math:`m\times m` matrix: :math:`\lVert x\rVert^2`
        (linear), :math:`(\gamma\lVert x\rVert^2 + c)^p` (polynomial), 1
        (Gaussian), :math:`\tanh(\gamma\lVert x\rVert^2 + c)` (sigmoid), 1
        or 0 for a zero row (cosine); a callable kernel is evaluated one row
        at a time.

        Parameters
        ----------
        X : array_like, shape (m, n_features)

        Returns
        -------
        ndarray, shape (m,)
        """
        check_is_fitted(self, "eigenvectors_")
        if self.X_fit_ is None:
            raise ValueError(
                "a precomputed kernel has no kernel function to evaluate"
            )
        self._check_feature_names(X, reset=False)
        X = check_array(
            X,
            "X",
            keep_float32=True,
            accept_sparse=_is_sparse(self.X_fit_) or self._accepts_sparse,
        )
        check_n_features(self, X)
        return self._fitted_diagonal(X)

    def _fitted_diagonal(self, X: Any) -> np.ndarray:
        """``kernel_diagonal`` of validated ``X``, with the fitted parameters."""
        model = self._fitted_model()
        kernel = model._kernel(self.gamma_)
        assert kernel is not None
        if _is_sparse(X):
            X = X.toarray()  # m x n_features: no larger than the rows
        X = np.asarray(X, dtype=float)
        squared = np.einsum("ij,ij->i", X, X)
        name = model.kernel
        if name in ("gaussian", "rbf"):
            return np.ones(X.shape[0])
        if name == "linear":
            return squared
        if name == "cosine":
            return (np.max(np.abs(X), axis=1, initial=0.0) > 0).astype(float)
        gamma = float(self.gamma_) if self.gamma_ is not None else 1.0
        coef0 = float(model.coef0)
        if name == "sigmoid":
            return np.tanh(gamma * squared + coef0)
        if name in ("polynomial", "poly"):
            return (gamma * squared + coef0) ** model._degree()
        return np.array([float(kernel(row[None, :])[0, 0]) for row in X])

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
    if params["kernel"] in _WIDTH_KERNELS:
        return (
            "the kernel width (sigma, or 1/sqrt(2 gamma)) is so large "
            "against the spread of X that the kernel is nearly constant: "
            "decrease sigma (increase gamma) or scale X"
        )
    if params["kernel"] in ("polynomial", "poly"):
        return (
            "the polynomial kernel of data far from the origin is a large "
            "constant plus a small variation, which float64 cannot hold: "
            "centre or scale X first"
        )
    return "centre or scale X first"


# The kernels with parameters, as small classes rather than closures: a
# fitted model's kernel can then be pickled with it.
class _Gaussian:
    def __init__(self, sigma: float) -> None:
        self.sigma = sigma

    def __call__(self, X: Any, Y: Any = None) -> np.ndarray:
        return gaussian_kernel(X, Y, sigma=self.sigma)


class _Sigmoid:
    def __init__(self, gamma: float, coef0: float) -> None:
        self.gamma, self.coef0 = gamma, coef0

    def __call__(self, X: Any, Y: Any = None) -> np.ndarray:
        return sigmoid_kernel(X, Y, gamma=self.gamma, coef0=self.coef0)


class _Polynomial:
    def __init__(self, gamma: float, degree: int, coef0: float) -> None:
        self.gamma, self.degree, self.coef0 = gamma, degree, coef0

    def __call__(self, X: Any, Y: Any = None) -> np.ndarray:
        if self.gamma != 1.0:
            # (g x.y + c)^p is the kernel (x'.y' + c)^p of x' = sqrt(g) x.
            root = math.sqrt(self.gamma)
            X = self._scaled(X, "X", root)
            Y = None if Y is None else self._scaled(Y, "Y", root)
        return polynomial_kernel(X, Y, degree=self.degree, coef0=self.coef0)

    @staticmethod
    def _scaled(X: Any, name: str, root: float) -> Any:
        X = check_array(X, name, keep_float32=True, accept_sparse=True)
        return X * X.dtype.type(root)  # float32 stays float32


def _negative_part(
    K: np.ndarray | PackedSymmetric, center: bool, seed: int
) -> NegativeSpectrum | float:
    """What the (centred) ``K`` has below zero, for a kernel not known PSD.

    Up to ``FULL_SPECTRUM_UP_TO`` points, the whole spectrum (exact: count,
    mass and the most negative).  Beyond, the smallest Ritz value of
    ``NEGATIVE_CHECK_STEPS`` Lanczos steps on the centred operator from a
    random start: by the Courant--Fischer theorem no Ritz value is below the
    smallest eigenvalue, so a negative one proves the matrix indefinite, and
    a large negative eigenvalue, an extreme one, is found in few steps.
    """
    n = K.shape[0]
    if n <= FULL_SPECTRUM_UP_TO:
        # (Such a matrix is never packed: see KernelPCA._solves_by_products.)
        assert isinstance(K, np.ndarray)
        Kc = (
            _center_kernel_inplace(K.copy(), symmetric=True)[0]
            if center
            else K
        )
        return negative_spectrum(scipy.linalg.eigvalsh(Kc, check_finite=False))
    product = _CentredKernel(K) if center else K
    steps = min(n, NEGATIVE_CHECK_STEPS)
    rng = np.random.default_rng(seed)
    Q = np.empty((steps, n))
    AQ = np.empty((steps, n))
    q = np.asarray(rng.uniform(-1.0, 1.0, size=n), dtype=float)
    size = 0
    for j in range(steps):
        q /= np.linalg.norm(q)
        Q[j] = q
        AQ[j] = product @ q
        size = j + 1
        w = AQ[j].copy()
        for _ in range(2):  # full reorthogonalisation, twice is enough
            w -= Q[:size].T @ (Q[:size] @ w)
        if np.linalg.norm(w) <= 1e-10 * np.linalg.norm(AQ[j]):
            break  # an invariant subspace: its Ritz values are eigenvalues
        q = w
    T = Q[:size] @ AQ[:size].T
    return float(scipy.linalg.eigvalsh(symmetrize(T), check_finite=False)[0])
