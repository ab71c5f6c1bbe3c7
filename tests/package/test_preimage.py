import warnings

import numpy as np
import pytest

import kpca
from kpca.preimage import (
    feature_space_coefficients,
    gaussian_preimage,
    reconstruction_error,
)


def _explicit_projection(Phi_train, Phi, k):
    """Mean + projection of rows of Phi on the top-k PCs of the rows of Phi_train (explicit features)."""
    mean = Phi_train.mean(axis=0)
    _, _, Vt = np.linalg.svd(Phi_train - mean, full_matrices=False)
    W = Vt[:k].T
    return mean + (Phi - mean) @ W @ W.T


@pytest.mark.parametrize("center", [True, False])
def test_coefficients_rebuild_the_explicit_reconstruction(rng, center):
    X = rng.normal(size=(12, 2))
    kp = kpca.KernelPCA(
        n_components=3, kernel="polynomial", degree=2, center=center
    ).fit(X)
    Phi = kpca.polynomial_feature_map(X, degree=2)
    Gamma = feature_space_coefficients(kp, kp.transform(X))
    if center:
        expected = _explicit_projection(Phi, Phi, 3)
        np.testing.assert_allclose(Gamma.sum(axis=1), 1.0, atol=1e-10)
    else:
        _, _, Vt = np.linalg.svd(Phi, full_matrices=False)
        expected = Phi @ Vt[:3].T @ Vt[:3]
    np.testing.assert_allclose(Gamma @ Phi, expected, atol=1e-8)


def test_reconstruction_error_matches_explicit_features(rng):
    X, X_new = rng.normal(size=(15, 2)), rng.normal(size=(6, 2))
    kp = kpca.KernelPCA(n_components=2, kernel="polynomial", degree=2).fit(X)
    Phi, Phi_new = (
        kpca.polynomial_feature_map(X, 2),
        kpca.polynomial_feature_map(X_new, 2),
    )
    expected = np.sum(
        (Phi_new - _explicit_projection(Phi, Phi_new, 2)) ** 2, axis=1
    )
    np.testing.assert_allclose(
        reconstruction_error(kp, X_new), expected, rtol=1e-8, atol=1e-10
    )


@pytest.mark.parametrize(
    "kernel", ["gaussian", "linear", "polynomial", "callable"]
)
def test_reconstruction_error_is_zero_with_all_components(rng, kernel):
    X = rng.normal(size=(8, 3))
    kern = (
        (lambda A, B: (A @ B.T + 2.0) ** 2) if kernel == "callable" else kernel
    )
    kp = kpca.KernelPCA(kernel=kern).fit(X)
    scale = max(float(kp.eigenvalues_[0]), 1.0)
    assert np.all(reconstruction_error(kp, X) <= 1e-9 * scale)


def test_reconstruction_error_flags_outliers(rng):
    X = rng.normal(scale=0.3, size=(100, 2))
    kp = kpca.KernelPCA(n_components=5, sigma=0.5).fit(X)
    inside, outside = (
        reconstruction_error(kp, X),
        reconstruction_error(kp, np.array([[4.0, 4.0]])),
    )
    assert outside[0] > inside.max()
    # Far from every training point phi(x) is orthogonal to them all, so the error is
    # ||phi(x)||^2 + ||(I - P) mean||^2, between 1 and 1 + ||mean||^2.
    assert 1.0 - 1e-9 <= outside[0] <= 1.0 + kp.kernel_mean_ + 1e-9


def test_preimage_recovers_training_points():
    X = np.array([[0.0, 0.0], [1.0, 0.5], [-0.5, 1.0], [0.3, -0.7]])
    kp = kpca.KernelPCA(sigma=0.8).fit(X)
    P = gaussian_preimage(kp, kp.transform(X), x0=X + 0.2)
    np.testing.assert_allclose(P, X, atol=1e-10)


def test_preimage_is_a_stationary_point_and_denoises(rng):
    t = rng.uniform(-np.pi, np.pi, 200)
    clean = np.column_stack([t, np.sin(t)])
    X = clean + 0.2 * rng.normal(size=clean.shape)
    kp = kpca.KernelPCA(n_components=6, sigma=1.0).fit(X)
    Z = kp.transform(X)
    P = gaussian_preimage(kp, Z, x0=X, tol=1e-12, max_iter=5000)
    # Stationarity of sum_j gamma_j k(x, x_j): sum_j gamma_j k(x, x_j) (x_j - x) = 0.
    W = feature_space_coefficients(kp, Z) * kpca.gaussian_kernel(
        P, X, sigma=1.0
    )
    grad = W @ X - W.sum(axis=1, keepdims=True) * P
    assert np.max(np.abs(grad)) < 1e-8
    s = np.linspace(-4, 4, 4001)
    curve = np.column_stack([s, np.sin(s)])

    def mean_distance_to_curve(A):
        return np.sqrt(kpca.squared_distances(A, curve).min(axis=1)).mean()

    assert mean_distance_to_curve(P) < 0.5 * mean_distance_to_curve(X)


def test_preimage_warns_when_not_converged(rng):
    X = rng.normal(size=(30, 2))
    kp = kpca.KernelPCA(n_components=2).fit(X)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gaussian_preimage(kp, kp.transform(X), x0=X, max_iter=1)
    assert any("did not converge" in str(w.message) for w in caught)


def test_input_validation(rng):
    X = rng.normal(size=(10, 2))
    kp = kpca.KernelPCA(n_components=2).fit(X)
    with pytest.raises(ValueError, match="columns"):
        feature_space_coefficients(kp, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="x0 must have shape"):
        gaussian_preimage(kp, kp.transform(X), x0=X[:5])
    with pytest.raises(ValueError, match="features"):
        reconstruction_error(kp, np.zeros((2, 3)))
    poly = kpca.KernelPCA(n_components=2, kernel="polynomial").fit(X)
    with pytest.raises(ValueError, match="gaussian"):
        gaussian_preimage(poly, poly.transform(X), x0=X)
    pre = kpca.KernelPCA(n_components=2, kernel="precomputed").fit(
        kpca.gaussian_kernel(X)
    )
    with pytest.raises(ValueError, match="precomputed"):
        reconstruction_error(pre, X)
    with pytest.raises(ValueError, match="not fitted"):
        feature_space_coefficients(kpca.KernelPCA(), np.zeros((1, 1)))
