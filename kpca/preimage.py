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
  iteration of Mika et al. (1999).

Rows are samples, as everywhere in :mod:`kpca`.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

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
    "reconstruction_error",
    "gaussian_preimage",
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
    if fitted["kernel"] != "gaussian":
        raise ValueError(
            "gaussian_preimage needs a model fitted with kernel='gaussian', "
            f"got {fitted['kernel']!r}"
        )
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
        weights = Gamma[idx] * gaussian_kernel(
            x[idx], X_fit, sigma=fitted["sigma"]
        )
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
