r"""Back from feature space: reconstructions, reconstruction errors, pre-images.

Kernel PCA projects the (centred) feature vector of a point onto the span of
the top :math:`k` principal directions :math:`w_i = \sum_j \alpha_{ji}\,(\phi(x_j) - \bar\phi)`.
Adding the mean back, the reconstruction of a point with scores
:math:`z \in \mathbb R^k` is the feature-space vector

.. math::

    \psi(z) = \bar\phi + \sum_{i=1}^k z_i w_i = \sum_{j=1}^n \gamma_j\, \phi(x_j),
    \qquad \gamma = \tfrac1n \mathbf 1 + H A z,

with :math:`A = [\alpha_1 \cdots \alpha_k]` and :math:`H` the centring matrix.
It is a combination of training feature vectors and is known only through
:math:`\gamma`.  This module provides

* :func:`feature_space_coefficients`, the :math:`\gamma` of each reconstruction;
* :func:`reconstruction_error`, the squared feature-space distance
  :math:`\lVert \phi(x) - \psi(z(x)) \rVert^2` between a point's feature vector
  and its reconstruction (a novelty score);
* :func:`gaussian_preimage`, an approximate pre-image :math:`x` with
  :math:`\phi(x) \approx \psi(z)` for the Gaussian kernel, by the fixed-point
  iteration of Mika et al. (1999);
* :func:`ridge_preimage_fit` and :func:`ridge_preimage`, the *learned*
  pre-image map of Bakır, Weston and Schölkopf (2004), for every kernel:
  kernel ridge regression from the scores back to the data, which is what
  ``KernelPCA(fit_inverse_transform=True).inverse_transform`` (and
  scikit-learn's) computes.

Rows are samples, as everywhere in :mod:`kpca`.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.linalg

from ._base import check_n_features
from ._validation import (
    check_array,
    check_is_fitted,
    check_nonnegative_int,
    check_positive_float,
)
from .kernels import KernelFunction, gaussian_kernel

if (
    TYPE_CHECKING
):  # only for annotations: kernel_pca does not import this module
    from .kernel_pca import KernelPCA

__all__ = [
    "feature_space_coefficients",
    "gaussian_preimage",
    "reconstruction_error",
    "ridge_preimage",
    "ridge_preimage_fit",
]


def _check_scores(model: KernelPCA, Z: Any) -> np.ndarray:
    check_is_fitted(model, "eigenvectors_")
    Z = check_array(Z, "Z")
    if Z.shape[1] != model.n_components_:
        raise ValueError(
            f"Z has {Z.shape[1]} columns, but the model has {model.n_components_} components"
        )
    return Z


def _kernel_and_training_data(
    model: KernelPCA, caller: str
) -> tuple[KernelFunction, np.ndarray]:
    check_is_fitted(model, "eigenvectors_")
    # The kernel the model was fitted with, whatever set_params did since.
    kernel = model._fitted_kernel()
    if kernel is None or model.X_fit_ is None:
        raise ValueError(
            f"{caller} needs the kernel function and k(x, x), which a "
            "precomputed kernel does not give"
        )
    return kernel, model.X_fit_


def feature_space_coefficients(model: KernelPCA, Z: Any) -> np.ndarray:
    r"""Coefficients :math:`\gamma` of the feature-space reconstructions of scores ``Z``.

    Parameters
    ----------
    model : kpca.KernelPCA
        A fitted model with :math:`n` training points and :math:`k` components.
    Z : array_like, shape (m, k)
        Scores, e.g. ``model.transform(X)`` or ``model.fit_transform(X)``.

    Returns
    -------
    Gamma : ndarray, shape (m, n)
        Row :math:`l` holds :math:`\gamma` with
        :math:`\psi(z_l) = \sum_j \gamma_j \phi(x_j)`, namely
        :math:`\gamma = \frac1n\mathbf 1 + H A z_l` when the model centres and
        :math:`\gamma = A z_l` when it does not.  Each row of a centring model
        sums to 1.

    Examples
    --------
    Keeping every component reproduces the training feature vectors, so the
    coefficients of the training scores are the identity:

    >>> import numpy as np
    >>> from kpca import KernelPCA
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> kp = KernelPCA(kernel="gaussian").fit(X)
    >>> np.round(feature_space_coefficients(kp, kp.transform(X)), 10) + 0.0
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    Z = _check_scores(model, Z)
    Gamma = Z @ model.alphas_.T
    if hasattr(
        model, "kernel_col_means_"
    ):  # the model centred in feature space
        Gamma -= Gamma.mean(axis=1, keepdims=True)
        Gamma += 1.0 / model.n_samples_
    return Gamma


def reconstruction_error(model: KernelPCA, X: Any) -> np.ndarray:
    r"""Squared feature-space distance between each point and its kernel-PCA reconstruction.

    For a new point :math:`x` with centred feature vector
    :math:`\tilde\phi(x) = \phi(x) - \bar\phi` and scores :math:`z(x)`,

    .. math::

        \varepsilon(x) = \lVert \tilde\phi(x) - \textstyle\sum_i z_i(x) w_i \rVert^2
        = \tilde k(x, x) - \lVert z(x) \rVert^2,

    with :math:`\tilde k(x, x) = k(x, x) - \frac2n\sum_j k(x, x_j) + \frac1{n^2}\sum_{j,l} k(x_j, x_l)`.
    It needs only kernel evaluations.  Large values flag points far from the
    principal subspace: Hoffmann's (2007) novelty score.  Without centring
    (``center=False``) it is :math:`k(x, x) - \lVert z(x)\rVert^2`.

    Parameters
    ----------
    model : kpca.KernelPCA
        A fitted model whose kernel is not ``"precomputed"``.
    X : array_like, shape (m, d)

    Returns
    -------
    ndarray, shape (m,)
        The errors, clipped at 0 (round-off can make an exact 0 slightly negative).

    Examples
    --------
    With every component kept, the training points are reconstructed exactly:

    >>> import numpy as np
    >>> from kpca import KernelPCA
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> kp = KernelPCA(kernel="gaussian").fit(X)
    >>> bool(np.all(reconstruction_error(kp, X) < 1e-12))
    True
    >>> bool(reconstruction_error(kp, np.array([[5.0, 5.0]]))[0] > 0.5)
    True
    """
    _kernel_and_training_data(model, "reconstruction_error")
    X = check_array(X, "X")
    check_n_features(model, X)
    # The kernel rows are evaluated once, for the centring and the scores,
    # as transform evaluates them.
    K_new, diag = model._centred_rows(X, with_diagonal=True)
    assert diag is not None
    Z = K_new @ model.alphas_
    return np.maximum(diag - np.einsum("ij,ij->i", Z, Z), 0.0)


def gaussian_preimage(
    model: KernelPCA,
    Z: Any,
    x0: Any,
    *,
    max_iter: int = 500,
    tol: float = 1e-9,
) -> np.ndarray:
    r"""Approximate pre-images for the Gaussian kernel by fixed-point iteration.

    For the reconstruction :math:`\psi = \sum_j \gamma_j\phi(x_j)` of scores
    :math:`z` (see :func:`feature_space_coefficients`), a pre-image minimises
    :math:`\lVert\phi(x) - \psi\rVert^2 = 1 - 2\sum_j\gamma_j k(x, x_j) + \lVert\psi\rVert^2`
    (:math:`k(x, x) = 1` for the Gaussian kernel).  Setting the gradient to zero
    gives the fixed-point iteration of Mika et al. (1999)

    .. math::

        x \leftarrow \frac{\sum_j \gamma_j\, k(x, x_j)\, x_j}{\sum_j \gamma_j\, k(x, x_j)}.

    It converges to a stationary point, not necessarily the global minimum,
    and depends on the start ``x0``; a point whose denominator vanishes keeps
    its last iterate.

    Parameters
    ----------
    model : kpca.KernelPCA
        A fitted model with ``kernel="gaussian"``.
    Z : array_like, shape (m, k)
        Scores to invert, e.g. ``model.transform(X_noisy)``.
    x0 : array_like, shape (m, d)
        Starting points (for denoising, the noisy points themselves).
    max_iter : int, default 500
    tol : float, default 1e-9
        Stop a point when its step is at most ``tol`` times (1 + its norm).

    Returns
    -------
    ndarray, shape (m, d)
        The pre-images.  A ``RuntimeWarning`` says how many points had not
        converged after ``max_iter`` iterations.

    Examples
    --------
    The training scores with every component kept invert to the training points:

    >>> import numpy as np
    >>> from kpca import KernelPCA
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> kp = KernelPCA(kernel="gaussian").fit(X)
    >>> np.round(gaussian_preimage(kp, kp.transform(X), x0=X + 0.3), 6) + 0.0
    array([[0., 0.],
           [1., 0.],
           [0., 1.]])
    """
    check_is_fitted(model, "eigenvectors_")
    fitted = model._fitted_params  # not what set_params did since
    if fitted["kernel"] not in ("gaussian", "rbf"):
        raise ValueError(
            "gaussian_preimage needs a model fitted with kernel='gaussian' "
            f"(or 'rbf'), got {fitted['kernel']!r}"
        )
    # "rbf" is the Gaussian kernel with gamma = 1 / (2 sigma^2); gamma_ is
    # the gamma of the fit.
    sigma = fitted["sigma"]
    if fitted["kernel"] == "rbf":
        gamma = model.gamma_
        assert gamma is not None  # the rbf kernel always has one
        sigma = 1.0 / np.sqrt(2.0 * gamma)
    max_iter = check_nonnegative_int(max_iter, "max_iter")
    tol = check_positive_float(tol, "tol")
    Gamma = feature_space_coefficients(model, Z)
    _, X_fit = _kernel_and_training_data(model, "gaussian_preimage")
    x = check_array(x0, "x0").copy()
    if x.shape != (Gamma.shape[0], X_fit.shape[1]):
        raise ValueError(
            f"x0 must have shape {(Gamma.shape[0], X_fit.shape[1])}, got {x.shape}"
        )

    active = np.ones(len(x), dtype=bool)
    for _ in range(max_iter):
        if not active.any():
            break
        idx = np.flatnonzero(active)
        weights = Gamma[idx] * gaussian_kernel(x[idx], X_fit, sigma=sigma)
        denom = weights.sum(axis=1)
        ok = np.abs(denom) > 1e-12
        new = x[idx].copy()
        new[ok] = (weights[ok] @ X_fit) / denom[ok, None]
        step = np.linalg.norm(new - x[idx], axis=1)
        x[idx] = new
        done = ~ok | (step <= tol * (1.0 + np.linalg.norm(new, axis=1)))
        active[idx[done]] = False
    if active.any():
        warnings.warn(
            f"{int(active.sum())} of {len(x)} pre-images did not converge in {max_iter} iterations",
            RuntimeWarning,
            stacklevel=2,
        )
    return x


def ridge_preimage_fit(
    Z: Any, X: Any, kernel: KernelFunction, alpha: float
) -> np.ndarray:
    r"""Learn the pre-image map: kernel ridge regression from scores to data.

    Given the training scores :math:`Z` (rows :math:`z_j`) and the training
    data :math:`X`, the map :math:`\hat x(z) = \sum_j k(z, z_j)\,
    \beta_j` with the dual coefficients

    .. math::

        B = (k(Z, Z) + \alpha I)^{-1} X

    minimises :math:`\sum_j \lVert x_j - \hat x(z_j)\rVert^2 + \alpha
    \operatorname{tr} B^\top k(Z, Z) B` (Bakır, Weston and Schölkopf,
    "Learning to find pre-images", NIPS 2004).  Any kernel works, including
    those without a fixed-point pre-image; :class:`kpca.KernelPCA` uses its
    own kernel on the scores, as scikit-learn does.

    Parameters
    ----------
    Z : array_like, shape (n, k)
        Training scores.
    X : array_like, shape (n, d)
        Training data.
    kernel : callable
        ``kernel(A, B=None)``, the kernel matrix between rows.
    alpha : float
        Ridge penalty :math:`\alpha \ge 0` (0 interpolates, when
        :math:`k(Z, Z)` is invertible).

    Returns
    -------
    B : ndarray, shape (n, d)
        The dual coefficients (scikit-learn's ``dual_coef_``).

    Raises
    ------
    ValueError
        If :math:`k(Z, Z) + \alpha I` is singular (``alpha`` too small).

    Examples
    --------
    With no penalty the map interpolates: it sends each training score to
    its own point.

    >>> import numpy as np
    >>> from kpca.kernels import gaussian_kernel
    >>> Z = np.array([[0.0], [1.0], [3.0]])
    >>> X = np.array([[0.0, 1.0], [2.0, 1.0], [5.0, 0.0]])
    >>> B = ridge_preimage_fit(Z, X, gaussian_kernel, 0.0)
    >>> ridge_preimage(Z, Z, B, gaussian_kernel).round(8) + 0.0
    array([[0., 1.],
           [2., 1.],
           [5., 0.]])
    """
    Z = check_array(Z, "Z")
    X = check_array(X, "X")
    alpha = float(alpha)
    if Z.shape[0] != X.shape[0]:
        raise ValueError(
            f"Z and X must have the same rows, got {Z.shape[0]} and "
            f"{X.shape[0]}"
        )
    G = kernel(Z)
    G.flat[:: G.shape[0] + 1] += alpha
    try:
        # Positive definite for a positive semi-definite kernel and alpha > 0.
        return scipy.linalg.solve(G, X, assume_a="pos", overwrite_a=False)
    except np.linalg.LinAlgError:
        pass
    try:  # an indefinite kernel (sigmoid, a user's): a symmetric solve
        return scipy.linalg.solve(G, X, assume_a="sym", overwrite_a=True)
    except np.linalg.LinAlgError:
        raise ValueError(
            f"the pre-image map cannot be learned: k(Z, Z) + alpha I is "
            f"singular (alpha={alpha:g}); use a larger alpha"
        ) from None


def ridge_preimage(
    Z: Any, Z_fit: np.ndarray, dual_coef: np.ndarray, kernel: KernelFunction
) -> np.ndarray:
    r"""Apply the learned pre-image map: :math:`\hat x(z) = k(z, Z_{\text{fit}})\,B`.

    Parameters
    ----------
    Z : array_like, shape (m, k)
        Scores to map back.
    Z_fit : ndarray, shape (n, k)
        The training scores the map was learned on.
    dual_coef : ndarray, shape (n, d)
        From :func:`ridge_preimage_fit`.
    kernel : callable
        The kernel it was learned with.

    Returns
    -------
    ndarray, shape (m, d)

    Examples
    --------
    With the linear kernel and a small penalty the map is nearly the least
    squares line through the training pairs, here :math:`x = 3z`:

    >>> import numpy as np
    >>> from kpca.kernels import linear_kernel
    >>> Z = np.array([[1.0], [2.0]])
    >>> B = ridge_preimage_fit(Z, 3 * Z, linear_kernel, 1e-9)
    >>> ridge_preimage(np.array([[4.0]]), Z, B, linear_kernel).round(6)
    array([[12.]])
    """
    Z = check_array(Z, "Z")
    if Z.shape[1] != Z_fit.shape[1]:
        raise ValueError(
            f"Z has {Z.shape[1]} columns, but the map was learned on "
            f"{Z_fit.shape[1]}"
        )
    return kernel(Z, Z_fit) @ dual_coef
