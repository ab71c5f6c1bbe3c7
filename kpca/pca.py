r"""Linear principal component analysis, and its probabilistic model.

For centred (optionally standardised) data :math:`X_c` with the samples as
rows, PCA finds the orthonormal directions :math:`u_1, \dots, u_k` of maximum
variance: the top eigenvectors of the covariance
:math:`C = \frac1n X_c^\top X_c` (the notes' :math:`1/n` convention).  The same
directions come from the Gram matrix :math:`X_c X_c^\top` (the notes'
":math:`X^\top X` trick", :math:`u_i = X_c^\top v_i / \sqrt{\mu_i}`) and from the
thin SVD :math:`X_c = V S U^\top`, written so that :math:`u_i` (the columns of
:math:`U`) are the directions, :math:`v_i` the unit eigenvectors of the Gram
matrix and :math:`s_i = \sqrt{\mu_i}` the singular values.

The fitted model is also the maximum-likelihood probabilistic PCA of Tipping
and Bishop: :math:`x = W z + \bar x + \varepsilon` with
:math:`z \sim \mathcal N(0, I_k)`, :math:`\varepsilon \sim \mathcal
N(0, \sigma^2 I_d)`, whose likelihood is largest at
:math:`\sigma^2 = \frac1{d-k}\sum_{j>k}\lambda_j` and
:math:`W = U_k(\Lambda_k - \sigma^2 I)^{1/2}`, with :math:`\lambda_j` the
eigenvalues of :math:`C` (with :math:`1/n`).
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np
import scipy.linalg
import scipy.linalg.blas
import scipy.sparse.linalg
from scipy.special import gammaln

from ._base import BaseEstimator, check_n_features
from ._dask import is_dask_array
from ._spectrum import components_to_keep, symmetrize
from ._threads import gram_of_blocks, one_blas_thread, product_by_rows
from ._validation import (
    UNDERFLOW_SQUARES,
    _is_sparse,
    check_array,
    check_bool,
    check_choice,
    check_finite_sums,
    check_is_fitted,
    check_nonnegative_int,
    check_positive_int,
    check_real,
    random_seed,
)
from .eigen import RANK_RTOL, _top_eigenpairs, align_signs
from .streaming import StreamingMoments, iter_chunks

__all__ = ["PCA", "PCA_SOLVERS"]

# scikit-learn's solver names, and the notes' Gram-matrix route.
PCA_SOLVERS = (
    "auto",
    "full",
    "covariance_eigh",
    "arpack",
    "randomized",
    "gram",
)

# The names of the deprecated `solver` parameter, as `svd_solver` names.
_OLD_SOLVERS = {
    "auto": "auto",
    "covariance": "covariance_eigh",
    "svd": "full",
    "gram": "gram",
}

_NORMALIZERS = ("auto", "QR", "LU", "none")

# "auto" takes the covariance route only when it is much cheaper than the SVD.
_COVARIANCE_MIN_ASPECT = 10
_COVARIANCE_MAX_FEATURES = 1000

# For a few components (an int k of at most a tenth of min(n, d)) of dense
# data whose smaller side lies in this range, "auto" forms the smaller of
# the products X_c^T X_c and X_c X_c^T, and keeps its answer only if the
# kept eigenvalues pass the accuracy check below; smaller data go to the
# SVD, which there costs little.
_PRODUCT_MIN_SIDE = 100
# The product routes compute eigenvalue mu_i with a relative error of order
# eps * mu_1 / mu_i; "auto" accepts them while that is below 1e-12 for
# every kept component (mu_1 / mu_k <= 4500, i.e. s_1 / s_k <= 67), and
# otherwise computes the SVD.
_PRODUCT_MAX_SPREAD = 1e-12 / np.finfo(float).eps

# The blocks of centred rows (or columns) that the product routes multiply
# hold about this many bytes of float64: in the cache, and a small share of
# the memory of a copy of X.
_BLOCK_BYTES = 2**22

# Rows of X turned into float64 at a time when float32 data are multiplied
# with themselves (8 MB of float64 at d = 1000).
_BLOCK_ROWS = 1024


class PCA(BaseEstimator):
    r"""Principal component analysis with the notes' :math:`1/n` convention.

    A drop-in for :class:`sklearn.decomposition.PCA`: the same parameters,
    attributes and methods, with the differences listed under Notes (the
    :math:`1/n` convention first).

    Parameters
    ----------
    n_components : int, float, "mle" or None, default None
        How many components :math:`k` to keep:

        * an int, ``1 <= k <= min(n_samples, n_features)``;
        * a float in :math:`(0, 1)`: the smallest :math:`k` whose
          components explain more than this share of the variance,
          :math:`\sum_{i\le k}\lambda_i > \texttt{n\_components}
          \operatorname{tr} C`;
        * ``"mle"``: Minka's choice [2]_, the :math:`k` of largest
          (Laplace-approximated) evidence :math:`p(X \mid k)` of the
          probabilistic model; needs ``n_samples >= n_features``;
        * None: every component of non-zero variance (the numerical rank
          :math:`r` of the centred data).

        Components beyond :math:`r` carry no variance and are dropped, with
        a warning when an int asked for them.
    copy : bool, default True
        False lets ``fit`` centre a float array in place (the caller's data
        are then overwritten), as in scikit-learn.
    whiten : bool, default False
        Divide the scores by :math:`\sqrt{\lambda_i}`, so that each has
        variance 1 over the training data (with :math:`1/n`).
    svd_solver : {"auto", "full", "covariance_eigh", "arpack", "randomized", "gram"}, default "auto"
        How the components are computed:

        * ``"full"``: the thin SVD of :math:`X_c` (LAPACK), :math:`O(nd\min(n,d))`;
        * ``"covariance_eigh"``: the eigendecomposition of the
          :math:`d\times d` scatter :math:`X_c^\top X_c`, :math:`O(nd^2 + d^3)`;
        * ``"gram"``: the :math:`n\times n` Gram matrix
          :math:`X_c X_c^\top`, mapped back with
          :math:`u_i = X_c^\top v_i / \sqrt{\mu_i}` (the notes' route),
          :math:`O(n^2 d + n^3)`;
        * ``"arpack"``: the top :math:`k < \min(n, d)` singular triplets by
          ARPACK (``scipy.sparse.linalg.svds``), to the tolerance ``tol``;
        * ``"randomized"``: the randomized SVD of Halko, Martinsson and
          Tropp [3]_: :math:`k +` ``n_oversamples`` random directions, and
          ``iterated_power`` power iterations;
        * ``"auto"``: ``"covariance_eigh"`` when ``n_samples >= 10 *
          n_features`` and ``n_features <= 1000`` (as scikit-learn does).
          Else, for dense data, an int ``n_components`` of at most a tenth
          of :math:`m = \min(n, d)` and :math:`100 \le m \le 1000`, the
          smaller product: ``"covariance_eigh"`` when :math:`n \ge d`,
          ``"gram"`` when :math:`n < d`, whose answer is kept only when the
          kept eigenvalues satisfy :math:`\mu_1/\mu_k \le 4500` (their
          relative error, of order :math:`\varepsilon\mu_1/\mu_i`, is then
          below :math:`10^{-12}`), and is otherwise replaced by
          ``"full"``'s.  Else ``"full"`` (``"arpack"`` for sparse data with
          more than 1000 features and an int ``n_components``).  Unlike
          scikit-learn, ``"auto"`` never picks the approximate
          ``"randomized"``.

        Accuracy: the SVD computes each singular value :math:`s_i` with a
        relative error of order :math:`\varepsilon\, s_1/s_i`
        (:math:`\varepsilon \approx 2.2\times10^{-16}`); the covariance and
        Gram routes form a product of :math:`X_c` with itself, which squares
        the condition number, so their error is of order
        :math:`\varepsilon\, (s_1/s_i)^2`.  Components whose variance is
        below :math:`10^{-8}` of the largest are therefore reliable only with
        ``"full"``.  Sparse input works with ``"covariance_eigh"``,
        ``"arpack"`` and ``"randomized"``, which centre it implicitly.
    tol : float, default 0.0
        Relative accuracy of the singular values for ``"arpack"`` (0 means
        machine precision).
    iterated_power : int or "auto", default "auto"
        Power iterations of ``"randomized"``; ``"auto"`` is 7 when
        :math:`k < 0.1\min(n, d)` and 4 otherwise (scikit-learn's rule).
    n_oversamples : int, default 10
        Extra random directions of ``"randomized"``.
    power_iteration_normalizer : {"auto", "QR", "LU", "none"}, default "auto"
        How ``"randomized"`` re-orthonormalises between power iterations;
        ``"auto"`` is ``"none"`` for at most 2 iterations and ``"LU"``
        beyond.
    random_state : int, numpy.random.Generator, numpy.random.RandomState or None, default None
        Randomness of ``"arpack"`` (its start vector) and ``"randomized"``;
        None means the seed 0, so every fit is reproducible.
    standardize : bool, default False
        Divide each centred feature by its population standard deviation
        :math:`\sigma_j = \sqrt{\frac1n\sum_i (x_{ij} - \bar x_j)^2}` before
        the decomposition, as in Li's lecture (PCA of the correlation
        matrix).  scikit-learn has no such option (it would be a
        ``StandardScaler`` before the PCA).
    solver : {"auto", "covariance", "gram", "svd"}, optional
        Deprecated alias of ``svd_solver`` (``"covariance"`` is
        ``"covariance_eigh"``, ``"svd"`` is ``"full"``); when given it
        overrides ``svd_solver`` with a ``FutureWarning``.

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
        the scores along each component.  scikit-learn divides by
        :math:`n - 1`: its value is ``explained_variance_ * n_samples_ /
        (n_samples_ - 1)``.
    explained_variance_ratio_ : ndarray, shape (n_components,)
        :math:`\lambda_i / \sum_j \lambda_j`, the share of the total variance
        :math:`\operatorname{tr} C` (all components, kept or not); the same
        with either convention.
    total_variance_ : float
        :math:`\operatorname{tr} C`.
    singular_values_ : ndarray, shape (n_components,)
        :math:`s_i = \sqrt{\mu_i} = \sqrt{n \lambda_i}` (no convention).
    noise_variance_ : float
        :math:`\sigma^2 = \frac1{d-k}\sum_{j>k}\lambda_j`, the
        maximum-likelihood noise variance of probabilistic PCA (0 when
        :math:`k = d`).
    n_components_ : int
        Number of components kept.
    n_samples_ : int
        Number of training samples.
    n_features_in_ : int
        Number of features.
    feature_names_in_ : ndarray of str, shape (n_features,)
        The column names, when ``fit`` got a DataFrame with string names.

    Notes
    -----
    **Conventions.** The variances divide by :math:`n`, the notes'
    convention and the maximum-likelihood one; scikit-learn divides by
    :math:`n-1`.  Hence, on the same data and with the same :math:`k`:

    * ``components_``, ``singular_values_``, ``explained_variance_ratio_``
      and unwhitened scores agree with scikit-learn's (up to the signs of
      the components and round-off);
    * ``explained_variance_`` and, when ``n_samples >= n_features``,
      ``noise_variance_`` and :meth:`get_covariance` are scikit-learn's
      times :math:`(n-1)/n`, and :meth:`get_precision` is scikit-learn's
      times :math:`n/(n-1)`;
    * whitened scores are scikit-learn's times :math:`\sqrt{n/(n-1)}`;
    * :meth:`score_samples` is the log-density of the Gaussian with this
      model's covariance, which is the maximum-likelihood fit of
      probabilistic PCA [1]_; scikit-learn's is that of its covariance,
      :math:`n/(n-1)` times larger, so on the training data this model's
      :meth:`score` is the larger of the two.

    With fewer samples than features, scikit-learn averages the discarded
    variance over :math:`\min(n, d) - k` eigenvalues;
    :math:`\sigma^2` here averages it over all :math:`d - k` discarded
    eigenvalues (the zero ones too), which is the maximum-likelihood value.

    ``n_components=None`` keeps the components of non-zero variance, where
    scikit-learn keeps :math:`\min(n, d)` components, some of them of zero
    variance.

    References
    ----------
    .. [1] M. E. Tipping and C. M. Bishop, "Probabilistic principal
       component analysis", J. R. Statist. Soc. B 61(3), 611-622, 1999.
    .. [2] T. P. Minka, "Automatic choice of dimensionality for PCA",
       NIPS 13, 2000.
    .. [3] N. Halko, P.-G. Martinsson and J. A. Tropp, "Finding structure
       with randomness: probabilistic algorithms for constructing
       approximate matrix decompositions", SIAM Review 53(2), 2011.
    .. [4] I. T. Jolliffe, *Principal Component Analysis*, 2nd ed.,
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

    The variances divide by :math:`n = 5`; scikit-learn's divide by
    :math:`n - 1 = 4`, so its ``explained_variance_`` is this one times
    :math:`n/(n-1)`:

    >>> pca.explained_variance_.round(4)
    array([5.0081])
    >>> n = pca.n_samples_
    >>> (pca.explained_variance_ * n / (n - 1)).round(4)
    array([6.2601])

    A share of the variance chooses :math:`k`; the noise variance of the
    probabilistic model is the discarded eigenvalue of :math:`C` (there is
    one, :math:`d - k = 1`):

    >>> pca = PCA(n_components=0.99).fit(X)
    >>> pca.n_components_, round(pca.noise_variance_, 4)
    (1, 0.0319)
    >>> bool(np.isclose(pca.noise_variance_,
    ...                 pca.total_variance_ - pca.explained_variance_[0]))
    True
    """

    _keeps_float32 = True

    @property
    def _accepts_sparse(self) -> bool:  # type: ignore[override]
        solver = self.svd_solver if self.solver is None else self.solver
        return solver not in ("full", "gram", "svd")

    def __init__(
        self,
        n_components: int | float | str | None = None,
        *,
        copy: bool = True,
        whiten: bool = False,
        svd_solver: str = "auto",
        tol: float = 0.0,
        iterated_power: int | str = "auto",
        n_oversamples: int = 10,
        power_iteration_normalizer: str = "auto",
        random_state: Any = None,
        standardize: bool = False,
        solver: str | None = None,
    ) -> None:
        self.n_components = n_components
        self.copy = copy
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.tol = tol
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state
        self.standardize = standardize
        self.solver = solver

    # -- parameters ----------------------------------------------------------
    def _svd_solver(self) -> str:
        if self.solver is None:
            return check_choice(self.svd_solver, "svd_solver", PCA_SOLVERS)
        old = check_choice(self.solver, "solver", tuple(_OLD_SOLVERS))
        warnings.warn(
            "solver is deprecated and will be removed in the next release: "
            f"use svd_solver={_OLD_SOLVERS[old]!r} instead",
            FutureWarning,
            stacklevel=3,
        )
        return _OLD_SOLVERS[old]

    def _check_params(self) -> dict[str, Any]:
        params: dict[str, Any] = dict(
            solver=self._svd_solver(),
            copy=check_bool(self.copy, "copy"),
            whiten=check_bool(self.whiten, "whiten"),
            standardize=check_bool(self.standardize, "standardize"),
            oversamples=check_positive_int(
                self.n_oversamples, "n_oversamples"
            ),
            normalizer=check_choice(
                self.power_iteration_normalizer,
                "power_iteration_normalizer",
                _NORMALIZERS,
            ),
            rng=np.random.default_rng(random_seed(self.random_state)),
        )
        tol = check_real(self.tol, "tol")
        if tol < 0:
            raise ValueError(f"tol must be >= 0, got {self.tol!r}")
        params["tol"] = tol
        if isinstance(self.iterated_power, str):
            check_choice(self.iterated_power, "iterated_power", ("auto",))
            params["power"] = None
        else:
            params["power"] = check_nonnegative_int(
                self.iterated_power, "iterated_power"
            )
        return params

    # -- fit -------------------------------------------------------------------
    def fit(self, X: Any, y: Any = None) -> PCA:
        """Fit the principal components of ``X``.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix, shape (n_samples, n_features)
            Training data, samples as rows.  float32 data are fitted in
            float32 where the accuracy allows it, and the fitted arrays are
            float32.
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

    def _fit(self, X: Any) -> _CentredData | _BlockedCentredData | None:
        # Every check comes before the first attribute is set.
        params = self._check_params()
        names = self._check_feature_names(X, reset=True)
        if is_dask_array(X):
            from . import _dask

            X = _dask.row_blocks(X)
            solver = _moments_solver(params["solver"])
            moments = _dask.moments(X, None, max(1, 2**21 // X.shape[1]))
            self._fit_moments(moments, X.dtype, params, solver, names)
            return None
        X = check_array(
            X, "X", keep_float32=True, accept_sparse=True, finite=False
        )
        sparse = _is_sparse(X)
        # Dense data: the column sums prove X finite, and start its means.
        sums = None if sparse else check_finite_sums(X, "X")
        n, d = X.shape
        if n < 2:
            raise ValueError(
                f"PCA needs at least 2 samples, got n_samples={n}: one sample "
                "has no variance"
            )
        k, how = _parse_n_components(self.n_components, n, d)
        chosen = _choose_solver(params["solver"], how, k, n, d, sparse)
        solver = chosen
        if chosen == "product":
            solver = "covariance_eigh" if n >= d else "gram"
        data = _centred_data(X, sums, solver, params)

        need = min(n, d) if how != "int" else k
        if how == "rank" and solver == "arpack":
            need = min(n, d) - 1  # ARPACK finds fewer than min(n, d)
        if solver in ("arpack", "randomized"):
            if solver == "arpack" and need >= min(n, d):
                raise ValueError(
                    "svd_solver='arpack' needs n_components < min(n_samples, "
                    f"n_features): got n_components={need} with n_samples={n}"
                    f", n_features={d}"
                )
            assert isinstance(data, _CentredData)  # see _centred_data
            mu, U = _iterative_svd(data, need, solver, params)
        elif solver == "covariance_eigh":
            mu, U = _eigenpairs(data.scatter(), need)
        elif solver == "gram":
            mu, V = _eigenpairs(data.gram(), need)
            U = V  # mapped back in _set_fitted, once the rank is known
        if chosen == "product" and not _accurate_enough(mu):
            solver = "full"
            if isinstance(data, _BlockedCentredData):
                data = _CentredData(X, False, True)
        if solver == "full":
            assert isinstance(data, _CentredData)  # see _centred_data
            _, s, Vt = np.linalg.svd(data.centred(), full_matrices=False)
            mu, U = (s[:need].astype(np.float64)) ** 2, Vt[:need].T

        self._set_fitted(
            mu,
            U if solver != "gram" else (U, data.rmatmat),
            n,
            d,
            data.total,
            data.mean,
            data.scale,
            X.dtype,
            k,
            how,
            names,
        )
        # A fit of an array starts afresh: partial_fit does not continue it.
        self.__dict__.pop("_moments", None)
        return data

    def _set_fitted(
        self,
        mu: np.ndarray,
        U: Any,
        n: int,
        d: int,
        total: float,
        mean: np.ndarray,
        scale: np.ndarray | None,
        dtype: Any,
        k: Any,
        how: str,
        names: Any,
    ) -> None:
        """Choose the number of components, then set every fitted attribute.

        ``U`` holds the directions as columns, or (the Gram route) the pair
        (eigenvectors of the Gram matrix, the map :math:`Y \\mapsto X_c^\\top Y`)
        that gives the directions from them.
        """
        keep = components_to_keep(
            mu if total > 0 else np.zeros_like(mu),
            k if how == "int" else None,
            "centred data",
            "X has zero variance after centring: there is no principal "
            "component",
            stacklevel=4,
        )
        if how == "fraction":
            ratio = np.cumsum(mu[:keep]) / total
            keep = min(keep, int(np.searchsorted(ratio, k, side="right")) + 1)
        elif how == "mle":
            keep = min(keep, _minka_dimension(mu / n, n))
        mu = mu[:keep]
        if isinstance(U, tuple):
            # The notes' w_i = X v_i / sqrt(mu_i), written for samples as rows.
            V, rmatmat = U
            U = rmatmat(V[:, :keep]) / np.sqrt(mu)
        else:
            U = U[:, :keep]

        explained = mu / n
        discarded = max(total / n - float(np.sum(explained)), 0.0)
        self.mean_ = mean.astype(dtype)
        self.scale_ = None if scale is None else scale.astype(dtype)
        self.components_ = align_signs(U).T.astype(dtype)
        self.n_samples_ = n
        self._set_n_features(d, names)
        self.n_components_ = keep
        self.singular_values_ = np.sqrt(mu).astype(dtype)
        self.explained_variance_ = explained.astype(dtype)
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = (mu / total).astype(dtype)
        self.noise_variance_ = discarded / (d - keep) if keep < d else 0.0

    def _fit_moments(
        self,
        moments: StreamingMoments,
        dtype: Any,
        params: dict[str, Any],
        solver: str,
        names: Any,
    ) -> None:
        """The covariance route from the rows' moments (dask and partial_fit)."""
        n = moments.n_samples
        if n < 2:
            raise ValueError(
                f"PCA needs at least 2 samples, got n_samples={n}: one sample "
                "has no variance"
            )
        mean, S = moments.mean, moments.scatter
        assert mean is not None and S is not None
        d = mean.shape[0]
        k, how = _parse_n_components(self.n_components, n, d)
        _choose_solver(solver, how, k, n, d, False)
        scale = None
        if params["standardize"]:
            scale = np.sqrt(np.maximum(np.diag(S) / n, 0.0))
            tiny = np.finfo(dtype).eps * np.maximum(np.abs(mean), 1.0)
            constant = np.flatnonzero(scale <= tiny)
            if constant.size:
                raise ValueError(
                    f"X has constant feature(s) {constant.tolist()}: they "
                    "cannot be standardized (standardize=True divides by the "
                    "standard deviation)"
                )
            S = S / np.outer(scale, scale)
        need = min(n, d) if how != "int" else k
        mu, U = _eigenpairs(S, need)
        total = float(np.trace(S))
        self._set_fitted(mu, U, n, d, total, mean, scale, dtype, k, how, names)

    @property
    def partial_fit(self) -> Any:
        r"""Update the model with one more chunk of rows (the covariance route).

        The count, mean and scatter of the chunks seen so far are kept
        (:class:`kpca.streaming.StreamingMoments`, :math:`O(d^2)` memory)
        and merged with those of ``X``; the components then come from the
        :math:`d\times d` scatter, as ``svd_solver="covariance_eigh"``
        computes them.  After chunks :math:`X_1, \dots, X_t`, in any
        order, the model equals ``fit`` of their concatenation to
        round-off.  ``fit`` of an array starts afresh: the next
        ``partial_fit`` does not continue it (a ``fit`` of a dask array,
        made from the same moments, is continued).  If a call raises, the
        model is left as it was.

        Only with ``svd_solver="auto"`` or ``"covariance_eigh"``: for the
        other solvers the attribute does not exist (``hasattr`` is False),
        as scikit-learn hides methods that a configuration cannot run.

        Parameters
        ----------
        X : array_like, scipy.sparse matrix or dask array, shape (n_rows, n_features)
            The chunk.  float32 chunks give float32 fitted arrays while
            every chunk is float32.
        y : None
            Ignored.

        Returns
        -------
        self

        Examples
        --------
        >>> import numpy as np
        >>> X = np.random.default_rng(0).normal(size=(100, 3))
        >>> pca = PCA(2)
        >>> for chunk in np.array_split(X, 4):
        ...     pca = pca.partial_fit(chunk)
        >>> full = PCA(2).fit(X)
        >>> bool(np.allclose(pca.explained_variance_, full.explained_variance_))
        True
        """
        solver = self.svd_solver if self.solver is None else self.solver
        solver = _OLD_SOLVERS.get(solver, solver)
        if solver not in ("auto", "covariance_eigh"):
            raise AttributeError(
                f"partial_fit needs the covariance route, but svd_solver is "
                f"{solver!r}: use svd_solver='covariance_eigh' or 'auto'"
            )
        return self._partial_fit

    def _partial_fit(self, X: Any, y: Any = None) -> PCA:
        params = self._check_params()
        solver = _moments_solver(params["solver"])
        before = getattr(self, "_moments", None)
        names = self._check_feature_names(X, reset=before is None)
        if is_dask_array(X):
            from . import _dask

            X = _dask.row_blocks(X)
            if before is not None:
                check_n_features(self, X)
            added = _dask.moments(X, None, max(1, 2**21 // X.shape[1]))
        else:
            X = check_array(X, "X", keep_float32=True, accept_sparse=True)
            if before is not None:
                check_n_features(self, X)
            added = StreamingMoments()
            rows = max(1, 2**21 // X.shape[1])  # 16 MB blocks
            for chunk in iter_chunks(X, rows):
                added.update(chunk)
        dtype = np.dtype(X.dtype)
        if before is None:
            moments = added
        else:
            moments = before.merge(added)
            names = getattr(self, "feature_names_in_", None)
            if self.components_.dtype != np.float32:
                dtype = np.dtype(np.float64)
        self._fit_moments(moments, dtype, params, solver, names)
        self._moments = moments
        return self

    # -- transforms --------------------------------------------------------------
    def _check_X(self, X: Any) -> Any:
        check_is_fitted(self, "components_")
        self._check_feature_names(X, reset=False)
        X = check_array(X, "X", keep_float32=True, accept_sparse=True)
        check_n_features(self, X)
        return X

    def transform(self, X: Any) -> np.ndarray:
        r"""Scores :math:`Z = X_c U_k` of ``X`` (whitened: divided by :math:`\sqrt{\lambda_i}`).

        Parameters
        ----------
        X : array_like or scipy.sparse matrix, shape (m, n_features)
            Data to project, centred (and scaled) with the training
            statistics; sparse data are centred implicitly.

        Returns
        -------
        Z : ndarray, shape (m, n_components)
            A lazy dask array with the row blocks of ``X`` when ``X`` is a
            dask array.
        """
        if is_dask_array(X):
            from . import _dask

            check_is_fitted(self, "components_")
            X = _dask.row_blocks(X)
            check_n_features(self, X)
            return _dask.map_rows(
                X,
                self.transform,
                self.n_components_,
                np.result_type(X.dtype, self.components_.dtype),
            )
        X = self._check_X(X)
        directions = self.components_.T
        if self.scale_ is not None:
            directions = directions / self.scale_[:, None]
        if _is_sparse(X):
            Z = np.asarray(X @ directions) - self.mean_ @ directions
        else:
            Z = _centred_product(X, self.mean_, directions)
        if self.whiten:
            Z /= np.sqrt(self.explained_variance_)
        return Z

    def fit_transform(self, X: Any, y: Any = None) -> np.ndarray:
        """Fit to ``X`` and return its scores.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix, shape (n_samples, n_features)
            Training data.
        y : None
            Ignored.

        Returns
        -------
        Z : ndarray, shape (n_samples, n_components)
        """
        # The training scores come from the centred data fit made (which
        # with copy=False is X itself, centred in place).
        data = self._fit(X)
        if data is None:  # a dask array: lazy scores
            return self.transform(X)
        Z = data.matmat(self.components_.T)
        if self.whiten:
            Z /= np.sqrt(self.explained_variance_)
        return Z

    def inverse_transform(self, Z: Any) -> np.ndarray:
        r"""Map scores back to the input space.

        :math:`\hat x = U_k z + \bar x`, or :math:`\hat x = (U_k z)\odot
        \sigma + \bar x` with ``standardize=True``: the orthogonal projection
        of the (standardised) data onto the principal subspace, undone back to
        the original units.  With ``whiten=True`` the scores are first
        multiplied back by :math:`\sqrt{\lambda_i}`.

        Parameters
        ----------
        Z : array_like, shape (m, n_components)
            Scores.

        Returns
        -------
        X_hat : ndarray, shape (m, n_features)
        """
        check_is_fitted(self, "components_")
        Z = check_array(Z, "Z", keep_float32=True)
        if Z.shape[1] != self.n_components_:
            raise ValueError(
                f"Z has {Z.shape[1]} columns, but this PCA keeps "
                f"{self.n_components_} components"
            )
        if self.whiten:
            Z = Z * np.sqrt(self.explained_variance_)
        X = Z @ self.components_
        if self.scale_ is not None:
            X *= self.scale_
        return X + self.mean_

    # -- probabilistic PCA -----------------------------------------------------
    def _noise_and_variances(self) -> tuple[float, np.ndarray]:
        check_is_fitted(self, "components_")
        return float(self.noise_variance_), self.explained_variance_.astype(
            np.float64
        )

    def _singular(self) -> bool:
        noise, variances = self._noise_and_variances()
        d = self.n_features_in_
        return self.n_components_ < d and noise <= RANK_RTOL * variances[0]

    def _check_not_singular(self) -> None:
        if self._singular():
            raise ValueError(
                "the model's covariance is singular: noise_variance_ is 0 "
                f"because the data span only {self.n_components_} of "
                f"{self.n_features_in_} dimensions, so it has no density"
            )

    def get_covariance(self) -> np.ndarray:
        r"""The covariance of the probabilistic PCA model.

        .. math::

            \Sigma = W W^\top + \sigma^2 I
            = U_k \operatorname{diag}(\lambda_i - \sigma^2) U_k^\top
              + \sigma^2 I,

        in the units of the data (:math:`D\Sigma D` with
        :math:`D = \operatorname{diag}(\sigma_j)` when ``standardize`` is
        true).  With :math:`k` smaller than the rank it is the
        maximum-likelihood covariance of Tipping and Bishop's model; with
        every component kept it is the sample covariance :math:`C`.

        Returns
        -------
        ndarray, shape (n_features, n_features)

        Examples
        --------
        >>> import numpy as np
        >>> X = np.random.default_rng(0).normal(size=(50, 4))
        >>> full = PCA().fit(X)
        >>> C = np.cov(X, rowvar=False, bias=True)   # 1/n
        >>> bool(np.allclose(full.get_covariance(), C))
        True
        """
        noise, variances = self._noise_and_variances()
        U = self.components_.T.astype(np.float64)
        cov = (U * (variances - noise)) @ U.T
        cov.flat[:: cov.shape[0] + 1] += noise
        if self.scale_ is not None:
            cov *= np.outer(self.scale_, self.scale_)
        return cov

    def get_precision(self) -> np.ndarray:
        r"""The inverse of :meth:`get_covariance`, by the matrix inversion lemma.

        .. math::

            \Sigma^{-1} = \frac1{\sigma^2}\Bigl(I - U_k
            \operatorname{diag}\Bigl(\frac{\lambda_i-\sigma^2}{\lambda_i}
            \Bigr) U_k^\top\Bigr),

        a :math:`d\times d` result from a :math:`k`-dimensional correction
        (:math:`D^{-1}\Sigma^{-1}D^{-1}` when ``standardize`` is true).

        Returns
        -------
        ndarray, shape (n_features, n_features)

        Raises
        ------
        ValueError
            If the covariance is singular (``noise_variance_`` is 0 with
            fewer components than features).
        """
        self._check_not_singular()
        noise, variances = self._noise_and_variances()
        U = self.components_.T.astype(np.float64)
        d = self.n_features_in_
        if self.n_components_ == d:
            precision = (U / variances) @ U.T
        else:
            precision = -(U * ((variances - noise) / variances)) @ U.T
            precision.flat[:: d + 1] += 1.0
            precision /= noise
        if self.scale_ is not None:
            precision /= np.outer(self.scale_, self.scale_)
        return precision

    def score_samples(self, X: Any) -> np.ndarray:
        r"""Log-likelihood of each sample under the probabilistic PCA model.

        .. math::

            \log p(x) = -\tfrac12\bigl(d\log 2\pi + \log\det\Sigma
            + (x-\bar x)^\top \Sigma^{-1} (x - \bar x)\bigr),

        with :math:`\Sigma` from :meth:`get_covariance`,
        :math:`\log\det\Sigma = \sum_{i\le k}\log\lambda_i +
        (d-k)\log\sigma^2` (plus :math:`2\sum_j\log\sigma_j` when
        standardised) and the quadratic form from the :math:`k` scores.

        Parameters
        ----------
        X : array_like or scipy.sparse matrix, shape (m, n_features)

        Returns
        -------
        ndarray, shape (m,)
        """
        X = self._check_X(X)
        self._check_not_singular()
        noise, variances = self._noise_and_variances()
        d, k = self.n_features_in_, self.n_components_
        if _is_sparse(X):
            X = X.toarray()
        Xc = (X - self.mean_).astype(np.float64)
        logdet = float(np.sum(np.log(variances)))
        if self.scale_ is not None:
            Xc /= self.scale_
            logdet += 2.0 * float(np.sum(np.log(self.scale_)))
        scores = Xc @ self.components_.T.astype(np.float64)
        if k == d:
            quadratic = np.einsum("ij,ij->i", scores / variances, scores)
        else:
            logdet += (d - k) * np.log(noise)
            shrink = (variances - noise) / variances
            quadratic = np.einsum("ij,ij->i", Xc, Xc)
            quadratic -= np.einsum("ij,ij->i", scores * shrink, scores)
            quadratic /= noise
        return -0.5 * (d * np.log(2.0 * np.pi) + logdet + quadratic)

    def score(self, X: Any, y: Any = None) -> float:
        """The mean log-likelihood of the samples (:meth:`score_samples`).

        Parameters
        ----------
        X : array_like or scipy.sparse matrix, shape (m, n_features)
        y : None
            Ignored.

        Returns
        -------
        float
        """
        return float(np.mean(self.score_samples(X)))


# -- n_components and the solver --------------------------------------------


def _moments_solver(solver: str) -> str:
    """The covariance route, the one a fit from moments can take."""
    if solver not in ("auto", "covariance_eigh"):
        raise ValueError(
            f"svd_solver={solver!r} needs the whole X in memory, but a dask "
            "array or partial_fit is fitted from the covariance of its "
            "chunks: use svd_solver='covariance_eigh' or 'auto'"
        )
    return "covariance_eigh"


def _parse_n_components(value: Any, n: int, d: int) -> tuple[Any, str]:
    """(k, how): how is "int", "fraction", "mle" or "rank" (None)."""
    if value is None:
        return None, "rank"
    if isinstance(value, str):
        if value != "mle":
            raise ValueError(
                "n_components must be an int, a float in (0, 1), 'mle' or "
                f"None, got {value!r}"
            )
        if n < d:
            raise ValueError(
                "n_components='mle' needs n_samples >= n_features, got "
                f"n_samples={n} < n_features={d}"
            )
        return None, "mle"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            "n_components must be an int, a float in (0, 1), 'mle' or None, "
            f"got {value!r}"
        )
    if isinstance(value, numbers.Integral):
        if not 1 <= int(value) <= min(n, d):
            raise ValueError(
                f"n_components must be between 1 and {min(n, d)} for this "
                f"data, got {value}"
            )
        return int(value), "int"
    if not 0.0 < float(value) < 1.0:
        raise ValueError(
            "n_components as a float is the share of the variance to "
            f"explain and must lie in (0, 1), got {value!r}"
        )
    return float(value), "fraction"


def _choose_solver(
    solver: str, how: str, k: Any, n: int, d: int, sparse: bool
) -> str:
    if solver == "auto":
        if n >= _COVARIANCE_MIN_ASPECT * d and d <= _COVARIANCE_MAX_FEATURES:
            solver = "covariance_eigh"
        elif (
            not sparse
            and how == "int"
            and _PRODUCT_MIN_SIDE <= min(n, d) <= _COVARIANCE_MAX_FEATURES
            and k <= min(n, d) // 10
        ):
            solver = "product"  # checked by _accurate_enough, else "full"
        elif sparse:
            solver = "arpack" if how == "int" else "covariance_eigh"
            if solver == "arpack" and k >= min(n, d):
                solver = "covariance_eigh"
        else:
            solver = "full"
    if sparse and solver in ("full", "gram"):
        raise TypeError(
            f"svd_solver={solver!r} needs a dense X, but X is a sparse "
            "matrix: use svd_solver='covariance_eigh', 'arpack' or "
            "'randomized', or pass X.toarray()"
        )
    if solver in ("arpack", "randomized") and how in ("fraction", "mle"):
        raise ValueError(
            f"svd_solver={solver!r} computes a fixed number of components: "
            "n_components must be an int or None, got "
            f"{'a float' if how == 'fraction' else repr('mle')}"
        )
    return solver


# -- the centred data, as arrays and as products -------------------------------


class _CentredData:
    """:math:`X_c = (X - 1\\bar x^\\top) D^{-1}`, explicit (dense) or implicit (sparse)."""

    def __init__(self, X: Any, standardize: bool, copy: bool) -> None:
        self.X = X
        self.sparse = _is_sparse(X)
        n = X.shape[0]
        if self.sparse:
            mean = np.asarray(X.mean(axis=0), dtype=np.float64).ravel()
            squares = np.asarray(
                X.multiply(X).sum(axis=0), dtype=np.float64
            ).ravel()
            variances = np.maximum(squares / n - mean**2, 0.0)
        else:
            mean = _accurate_mean(X)
            variances = None
        self.mean = mean
        self.scale: np.ndarray | None = None
        if standardize:
            if variances is None:
                variances = X.var(axis=0, dtype=np.float64)
            scale = np.sqrt(variances)
            tiny = np.finfo(X.dtype).eps * np.maximum(np.abs(mean), 1.0)
            constant = np.flatnonzero(scale <= tiny)
            if constant.size:
                raise ValueError(
                    f"X has constant feature(s) {constant.tolist()}: they "
                    "cannot be standardized (standardize=True divides by the "
                    "standard deviation)"
                )
            self.scale = scale
        self._Xc: np.ndarray | None = None
        if not self.sparse:
            Xc = X if not copy else X.copy()
            Xc -= mean.astype(X.dtype)
            if self.scale is not None:
                Xc /= self.scale.astype(X.dtype)
            self._Xc = Xc
        if self.sparse:
            totals = squares - n * mean**2
            if self.scale is not None:
                totals = totals / self.scale**2
            self.total = float(np.sum(np.maximum(totals, 0.0)))
            _check_range(None, self.total, self.scale)
        else:
            Xc = self.centred()
            self.total = float(np.einsum("ij,ij->", Xc, Xc, dtype=float))
            _check_range(Xc, self.total, self.scale)

    @property
    def shape(self) -> tuple[int, int]:
        return self.X.shape

    @property
    def dtype(self) -> np.dtype:
        return self.X.dtype

    def centred(self) -> np.ndarray:
        assert self._Xc is not None  # dense only
        return self._Xc

    def _scaled(self, M: np.ndarray) -> np.ndarray:
        return M if self.scale is None else M / self.scale[:, None]

    def matmat(self, M: np.ndarray) -> np.ndarray:
        """:math:`X_c M` for M of shape (d, l)."""
        if self._Xc is not None:
            return self._Xc @ M.astype(self.dtype, copy=False)
        M = self._scaled(M)
        return np.asarray(self.X @ M) - self.mean @ M

    def rmatmat(self, Y: np.ndarray) -> np.ndarray:
        """:math:`X_c^\\top Y` for Y of shape (n, l)."""
        if self._Xc is not None:
            return self._Xc.T @ Y.astype(self.dtype, copy=False)
        Z = np.asarray(self.X.T @ Y) - np.outer(self.mean, Y.sum(axis=0))
        return self._scaled(Z)

    def scatter(self) -> np.ndarray:
        """:math:`X_c^\\top X_c` in float64 (d x d)."""
        if self.sparse:
            X64 = self.X.astype(np.float64)
            S = (X64.T @ X64).toarray()
            S -= self.shape[0] * np.outer(self.mean, self.mean)
            if self.scale is not None:
                S /= np.outer(self.scale, self.scale)
            return S
        Xc = self.centred()
        if Xc.dtype == np.float64:
            return Xc.T @ Xc
        # float32 data: the product squares the condition number, so it is
        # accumulated in float64, a block of rows at a time.
        S = np.zeros((Xc.shape[1], Xc.shape[1]))
        for start in range(0, Xc.shape[0], _BLOCK_ROWS):
            block = Xc[start : start + _BLOCK_ROWS].astype(np.float64)
            S += block.T @ block
        return S

    def gram(self) -> np.ndarray:
        """:math:`X_c X_c^\\top` in float64 (n x n, dense data only)."""
        Xc = self.centred().astype(np.float64, copy=False)
        return Xc @ Xc.T


class _BlockedCentredData:
    """Dense :math:`X_c = X - 1\\bar x^\\top`, never formed whole.

    Made for the covariance and Gram routes, which need X_c only through
    its product with itself, :meth:`scatter` or :meth:`gram` (which also
    set the total variance and the final mean), and through thin products.

    When the mean is small against the spread, the product is that of X,
    with the centring folded in afterwards (:math:`X^\\top X -
    n\\bar x\\bar x^\\top`, or the double centring of :math:`X X^\\top`):
    a float64 entry of a product carries a round-off of order
    :math:`\\varepsilon` times the norms of its two factors, and the fold
    is taken only if every diagonal entry of the raw product is at most
    twice the centred one, so that this round-off is at most twice the
    centred product's.  Otherwise (a large mean, or float32 data), blocks
    of rows (covariance) or columns (Gram) are centred into one small
    float64 buffer and passed to the BLAS rank-k update ``syrk``: X is
    read once and never copied, and float32 data are multiplied in
    float64.  The mean of each block route is corrected by the mean of the
    centred data, as :func:`_accurate_mean` does.
    """

    sparse = False
    scale = None

    def __init__(self, X: np.ndarray, sums: np.ndarray) -> None:
        self.X = X
        self.mean = sums / X.shape[0]
        self.total = 0.0
        self._folded = False

    @property
    def shape(self) -> tuple[int, int]:
        return self.X.shape

    @property
    def dtype(self) -> np.dtype:
        return self.X.dtype

    def scatter(self) -> np.ndarray:
        """:math:`X_c^\\top X_c` in float64 (d x d)."""
        # Data too large for float64 overflow in the product; _finish says so.
        with np.errstate(over="ignore", invalid="ignore"):
            return self._scatter()

    def gram(self) -> np.ndarray:
        """:math:`X_c X_c^\\top` in float64 (n x n)."""
        with np.errstate(over="ignore", invalid="ignore"):
            return self._gram()

    def _scatter(self) -> np.ndarray:
        X = self.X
        n, d = X.shape
        # A sample decides whether to try the folded product (checked exactly
        # below: a large mean would fail the check and waste the product).
        if X.dtype == np.float64 and _mean_is_small(X, self.mean):
            S = gram_of_blocks(X, rows=True)
            shift = n * np.outer(self.mean, self.mean)
            if np.all(2.0 * np.diag(shift) <= np.diag(S)):
                S -= shift
                return self._finish(S, upper=False)
        rows = max(1, _BLOCK_BYTES // (8 * d))
        buffer = np.empty((min(rows, n), d))
        S = np.zeros((d, d), order="F")
        shift = np.zeros(d)
        for start in range(0, n, rows):
            block = buffer[: min(rows, n - start)]
            np.subtract(X[start : start + rows], self.mean, out=block)
            shift += block.sum(axis=0)
            # block.T is Fortran-ordered: syrk reads it in place.
            S = scipy.linalg.blas.dsyrk(
                1.0, block.T, beta=1.0, c=S, trans=0, overwrite_c=1
            )
        # The mean of the centred rows is the round-off of the first mean:
        # moving the centre by it removes n * shift shift^T from S.
        shift /= n
        self.mean = self.mean + shift
        S -= n * np.outer(shift, shift)
        return self._finish(S)

    def _gram(self) -> np.ndarray:
        X = self.X
        n, d = X.shape
        # A sample decides whether to try the folded product (checked exactly
        # below: a large mean would fail the check and waste the product).
        if X.dtype == np.float64 and _mean_is_small(X, self.mean):
            G = gram_of_blocks(X, rows=False)
            a = X @ self.mean
            squares = float(self.mean @ self.mean)
            centred = np.diag(G) - 2.0 * a + squares
            if np.all(np.diag(G) <= 2.0 * centred):
                G -= a[:, None]
                G -= a[None, :]
                G += squares
                self._folded = True
                return self._finish(G, upper=False)
        cols = max(1, _BLOCK_BYTES // (8 * n))
        buffer = np.empty((n, min(cols, d)))
        G = np.zeros((n, n), order="F")
        mean = self.mean.copy()
        for start in range(0, d, cols):
            stop = min(start + cols, d)
            block = buffer[:, : stop - start]
            np.subtract(X[:, start:stop], mean[start:stop], out=block)
            # All rows are here: the second pass of the mean is exact.
            shift = block.mean(axis=0)
            block -= shift
            mean[start:stop] += shift
            G = scipy.linalg.blas.dsyrk(
                1.0, block.T, beta=1.0, c=G, trans=1, overwrite_c=1
            )
        self.mean = mean
        return self._finish(G)

    def _finish(self, A: np.ndarray, upper: bool = True) -> np.ndarray:
        if upper:
            # syrk filled the upper triangle: copy it to the lower one.
            lower = np.tril_indices(A.shape[0], -1)
            A[lower] = A.T[lower]
        self.total = float(np.trace(A))
        _check_range(None, self.total, None, self._peak)
        return A

    def _peak(self) -> float:
        """max |x - mean|, for the messages of :func:`_check_range`."""
        peak = 0.0
        rows = max(1, _BLOCK_BYTES // (8 * self.shape[1]))
        with np.errstate(over="ignore", invalid="ignore"):
            for start in range(0, self.shape[0], rows):
                block = self.X[start : start + rows] - self.mean
                peak = max(peak, float(np.max(np.abs(block), initial=0.0)))
        return peak

    def _rows(self, M: np.ndarray, out: np.ndarray) -> np.ndarray:
        if self.dtype == np.float64 and _mean_is_small(self.X, self.mean):
            product_by_rows(self.X, M, out)
            out -= self.mean @ M
            return out
        rows = max(1, _BLOCK_BYTES // (8 * self.shape[1]))
        for start in range(0, self.shape[0], rows):
            block = self.X[start : start + rows] - self.mean
            np.matmul(block, M, out=out[start : start + rows])
        return out

    def matmat(self, M: np.ndarray) -> np.ndarray:
        """:math:`X_c M` for M of shape (d, l), in the dtype of X."""
        M = np.asarray(M, dtype=np.float64)
        out = np.empty((self.shape[0], M.shape[1]), dtype=self.dtype)
        return self._rows(M, out)

    def rmatmat(self, Y: np.ndarray) -> np.ndarray:
        """:math:`X_c^\\top Y` for Y of shape (n, l), in float64."""
        n, d = self.shape
        if self._folded:
            Y = np.asarray(Y, dtype=np.float64)
            return self.X.T @ Y - np.outer(self.mean, Y.sum(axis=0))
        cols = max(1, _BLOCK_BYTES // (8 * n))
        out = np.empty((d, Y.shape[1]))
        for start in range(0, d, cols):
            stop = min(start + cols, d)
            block = self.X[:, start:stop] - self.mean[start:stop]
            np.matmul(block.T, Y, out=out[start:stop])
        return out


def _centred_data(
    X: Any, sums: np.ndarray | None, solver: str, params: dict[str, Any]
) -> _CentredData | _BlockedCentredData:
    """The centred data in the form the solver needs.

    The product routes on a copy of unstandardised dense data never need
    X_c whole (:class:`_BlockedCentredData`); the rest centre a copy, or
    X itself when ``copy=False``.
    """
    if (
        solver in ("covariance_eigh", "gram")
        and sums is not None
        and params["copy"]
        and not params["standardize"]
    ):
        return _BlockedCentredData(X, sums)
    return _CentredData(X, params["standardize"], params["copy"])


def _mean_is_small(X: np.ndarray, mean: np.ndarray) -> bool:
    """Whether ``mean`` is small against the spread of X about it.

    Decides from a sample of rows (a few hundred, fewer for long rows:
    about 100 kB): every :math:`\bar x_j^2` at most a quarter of the mean
    square of :math:`x_j-\bar x_j` in the sample.  Then :math:`XM -
    1(\bar x^\top M)` carries at most about 1.5 times the round-off of
    :math:`(X-1\bar x^\top)M` and needs no centred copy of X.
    """
    n, d = X.shape
    rows = max(4, min(256, 2**14 // max(d, 1)))
    sample = X[:: max(1, n // rows)] - mean
    sample *= sample
    spread = np.mean(sample, axis=0)
    return bool(np.all(4.0 * mean**2 <= spread))


def _centred_product(X: np.ndarray, mean: np.ndarray, M: np.ndarray):
    """:math:`(X - 1\bar x^\top)M`, without a centred copy when as accurate."""
    if X.dtype == np.float64 and len(X) and _mean_is_small(X, mean):
        Z = product_by_rows(X, M, np.empty((len(X), M.shape[1])))
        Z -= mean @ M
        return Z
    return (X - mean) @ M


def _accurate_mean(X: np.ndarray) -> np.ndarray:
    """The column means, corrected by the mean of the data minus them.

    Far from the origin the first mean is off by a few units of round-off
    of the data's magnitude, which is not small against a small spread;
    the second pass, on the centred data, removes that error.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        mean = X.mean(axis=0, dtype=np.float64)
        return mean + (X - mean).mean(axis=0)


def _check_range(
    Xc: np.ndarray | None,
    total: float,
    scale: np.ndarray | None,
    peak_of: Any = None,
) -> None:
    """Raise if the squares of the centred data over- or underflow float64.

    Every route computes squares of the centred data (the covariance or
    Gram matrix, or the squared singular values), bounded by their sum;
    standardising computes them first, for the standard deviations.
    """
    if scale is not None and not np.all(np.isfinite(scale)):
        raise ValueError(
            "X is too large for float64: the standard deviations of its "
            "features overflow (standardize=True): scale X"
        )
    if Xc is None and peak_of is None:  # sparse: the sums of squares only
        if not np.isfinite(total):
            raise ValueError(
                "X is too large for float64: the sum of squares of the "
                "centred data overflows: scale X"
            )
        return
    if np.isfinite(total) and total >= UNDERFLOW_SQUARES:
        return
    if Xc is not None:
        peak = float(np.max(np.abs(Xc), initial=0.0))
    else:
        peak = peak_of()  # blocked data: found only for the message
    if not np.isfinite(total):
        raise ValueError(
            "X is too large for float64: the sum of squares of the centred "
            f"data overflows (largest |x - mean| {peak:.3g}): scale X"
        )
    if 0.0 < peak and total < UNDERFLOW_SQUARES:
        raise ValueError(
            "X varies too little for float64: the squares of the centred "
            f"data underflow (largest |x - mean| {peak:.3g}): scale X"
        )


def _eigenpairs(A: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    # A is a fresh product, free to overwrite.  The tridiagonal reduction is
    # a long run of small BLAS calls: on one thread it is never slower, and
    # on a busy machine several times faster (kpca._threads).  Alone, two
    # threads reduce d = 1000 in 30 ms against 45; but inside a fit, right
    # after a NumPy product on NumPy's own OpenBLAS (SciPy's LAPACK loads
    # another copy, each with its own threads), they took 54-124 ms, as
    # NumPy's threads still spun on the same two cores.
    A = symmetrize(A, inplace=True)
    with one_blas_thread():
        return _top_eigenpairs(A, k, solver="dense", overwrite=True)


def _accurate_enough(mu: np.ndarray) -> bool:
    """Whether a product route's kept eigenvalues are accurate to 1e-12.

    Their relative errors are of order ``eps * mu[0] / mu[i]``; a zero or
    negative eigenvalue fails (the SVD then decides the rank).
    """
    return bool(mu.size) and bool(mu[-1] * _PRODUCT_MAX_SPREAD >= mu[0] > 0)


def _iterative_svd(
    data: _CentredData, k: int, solver: str, params: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray]:
    """(mu, U): the top k squared singular values and right vectors of X_c."""
    n, d = data.shape
    rng = params["rng"]
    if solver == "arpack":
        operator = scipy.sparse.linalg.LinearOperator(
            (n, d),
            matvec=lambda v: data.matmat(v.reshape(-1, 1)).ravel(),
            rmatvec=lambda v: data.rmatmat(v.reshape(-1, 1)).ravel(),
            matmat=data.matmat,
            rmatmat=data.rmatmat,
            dtype=data.dtype,
        )
        v0 = rng.uniform(-1.0, 1.0, min(n, d))
        _, s, Vt = scipy.sparse.linalg.svds(
            operator, k=k, tol=params["tol"], v0=v0, solver="arpack"
        )
        order = np.argsort(s)[::-1]
        s, Vt = s[order], Vt[order]
    else:
        s, Vt = _randomized_svd(data, k, params, rng)
    return s.astype(np.float64) ** 2, Vt.T


def _randomized_svd(
    data: _CentredData,
    k: int,
    params: dict[str, Any],
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Top k singular values and right vectors of X_c from a random range.

    A Gaussian test matrix of k + n_oversamples columns, sharpened by q
    power iterations (each product renormalised by QR, by LU, or not at
    all), gives an orthonormal basis Q of X_c's dominant column space; the
    small SVD of Q^T X_c then gives the triplets (Halko et al., 2011,
    algorithms 4.3 and 4.4).
    """
    n, d = data.shape
    width = min(k + params["oversamples"], n, d)
    power = params["power"]
    if power is None:
        power = 7 if k < 0.1 * min(n, d) else 4
    normalizer = params["normalizer"]
    if normalizer == "auto":
        normalizer = "none" if power <= 2 else "LU"

    def normalise(Y: np.ndarray) -> np.ndarray:
        if normalizer == "QR":
            return scipy.linalg.qr(Y, mode="economic")[0]
        if normalizer == "LU":
            return scipy.linalg.lu(Y, permute_l=True)[0]
        return Y

    test = rng.standard_normal((d, width))
    Y = data.matmat(test)
    for _ in range(power):
        Y = data.matmat(normalise(data.rmatmat(normalise(Y))))
    Q = scipy.linalg.qr(Y.astype(np.float64), mode="economic")[0]
    B = data.rmatmat(Q).T  # Q^T X_c, width x d
    _, s, Vt = scipy.linalg.svd(B, full_matrices=False)
    return s[:k], Vt[:k]


# -- Minka's choice of k -------------------------------------------------------


def _minka_log_evidence(spectrum: np.ndarray, k: int, n: int) -> float:
    r"""Laplace approximation of :math:`\log p(X \mid k)` (Minka, 2000).

    ``spectrum`` holds the d eigenvalues of the sample covariance, largest
    first.  The terms: the uniform prior on the Stiefel manifold, the
    likelihood at the kept eigenvalues and at the noise level
    :math:`v = \frac1{d-k}\sum_{j>k}\lambda_j`, and the Hessian determinant
    :math:`|A_Z|` of the Laplace approximation.  Invariant under a common
    scaling of the spectrum, so 1/n and 1/(n - 1) choose the same k.
    """
    d = spectrum.shape[0]
    i = np.arange(1, k + 1)
    log_prior = -k * np.log(2.0) + float(
        np.sum(gammaln((d - i + 1) / 2.0) - (d - i + 1) / 2.0 * np.log(np.pi))
    )
    kept = spectrum[:k]
    v = max(float(np.sum(spectrum[k:])) / (d - k), np.finfo(float).tiny)
    log_likelihood = -n / 2.0 * float(np.sum(np.log(kept)))
    log_likelihood -= n * (d - k) / 2.0 * np.log(v)
    m = d * k - k * (k + 1) / 2.0
    log_volume = (m + k) / 2.0 * np.log(2.0 * np.pi)
    # |A_Z| = prod_{i <= k < j or i < j <= k} n (1/l_j - 1/l_i)(lambda_i - lambda_j),
    # with l = lambda for the kept values and v for the rest.
    hat = np.where(np.arange(d) < k, spectrum, v)
    log_det = 0.0
    for a in range(k):
        rest = np.arange(a + 1, d)
        log_det += float(
            np.sum(
                np.log(
                    (1.0 / hat[rest] - 1.0 / hat[a])
                    * (spectrum[a] - spectrum[rest])
                )
            )
        ) + rest.size * np.log(n)
    return (
        log_prior
        + log_likelihood
        + log_volume
        - log_det / 2.0
        - k / 2.0 * np.log(n)
    )


def _minka_dimension(spectrum: np.ndarray, n: int) -> int:
    """The k in 1, ..., d - 1 of largest evidence (1 when d = 1)."""
    d = spectrum.shape[0]
    if d < 2:
        return 1
    with np.errstate(divide="ignore", invalid="ignore"):
        evidence = [_minka_log_evidence(spectrum, k, n) for k in range(1, d)]
    evidence = np.nan_to_num(np.asarray(evidence), nan=-np.inf)
    return int(np.argmax(evidence)) + 1
