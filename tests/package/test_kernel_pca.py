import warnings

import numpy as np
import pytest
from sklearn import decomposition
from sklearn.datasets import load_iris, make_circles
from utils import assert_equal_up_to_sign

import kpca

IRIS = load_iris().data


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (
            dict(kernel="gaussian", sigma=1.5),
            dict(kernel="rbf", gamma=1 / (2 * 1.5**2)),
        ),
        (
            dict(kernel="polynomial", degree=3, coef0=1.0),
            dict(kernel="poly", degree=3, gamma=1.0, coef0=1.0),
        ),
        (dict(kernel="linear"), dict(kernel="linear")),
    ],
)
def test_matches_sklearn_up_to_sign(ours, theirs):
    kp = kpca.KernelPCA(n_components=3, **ours)
    Z = kp.fit_transform(IRIS)
    sk = decomposition.KernelPCA(
        n_components=3, eigen_solver="dense", **theirs
    )
    Z_ref = sk.fit_transform(IRIS)
    np.testing.assert_allclose(kp.eigenvalues_, sk.eigenvalues_, rtol=1e-9)
    assert_equal_up_to_sign(Z, Z_ref, rtol=1e-6, atol=1e-8)
    # New points must score with the same sign flip as the training points.
    largest = np.argmax(np.abs(Z_ref), axis=0)
    flip = np.sign(Z[largest, range(3)] * Z_ref[largest, range(3)])
    X_new = IRIS[::7] + 0.05
    np.testing.assert_allclose(
        kp.transform(X_new) * flip, sk.transform(X_new), rtol=1e-6, atol=1e-8
    )


def test_scores_are_sqrt_mu_v_and_transform_of_training_data(rng):
    X = rng.normal(size=(60, 3))
    kp = kpca.KernelPCA(n_components=5, sigma=2.0)
    Z = kp.fit_transform(X)
    np.testing.assert_allclose(
        Z, kp.eigenvectors_ * np.sqrt(kp.eigenvalues_), rtol=1e-12
    )
    np.testing.assert_allclose(kp.transform(X), Z, atol=1e-10)
    # The notes' X' = D V^T K_c, transposed.
    Kc = kpca.center_kernel(kpca.gaussian_kernel(X, sigma=2.0))
    D = np.diag(1 / np.sqrt(kp.eigenvalues_))
    np.testing.assert_allclose((D @ kp.eigenvectors_.T @ Kc).T, Z, atol=1e-10)
    np.testing.assert_allclose(
        np.linalg.norm(kp.eigenvectors_, axis=0), 1, rtol=1e-12
    )
    np.testing.assert_allclose(kp.explained_variance_, kp.eigenvalues_ / 60)


def test_linear_kernel_equals_pca():
    # PCA fixes the sign of u_i, kernel PCA that of v_i, so the scores agree up to sign.
    Z = kpca.KernelPCA(n_components=4, kernel="linear").fit_transform(IRIS)
    assert_equal_up_to_sign(Z, kpca.PCA(4).fit_transform(IRIS), atol=1e-9)


def test_explicit_feature_map_equals_kernel(rng):
    X = rng.normal(size=(25, 2))
    Z_kernel = kpca.KernelPCA(
        n_components=4, kernel="polynomial", degree=2
    ).fit_transform(X)
    Z_explicit = kpca.PCA(4).fit_transform(
        kpca.polynomial_feature_map(X, degree=2)
    )
    assert_equal_up_to_sign(Z_kernel, Z_explicit, atol=1e-9)


def test_rank_is_kept_and_round_off_dropped(rng):
    X = rng.normal(size=(30, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kp = kpca.KernelPCA(kernel="polynomial", degree=2).fit(X)
    assert kp.n_components_ == 5  # C(4, 2) = 6 features minus the constant one
    assert np.all(kp.eigenvalues_ > 0) and np.all(np.isfinite(kp.alphas_))
    with pytest.warns(RuntimeWarning, match="exceeds the numerical rank 5"):
        kp8 = kpca.KernelPCA(
            n_components=8, kernel="polynomial", degree=2
        ).fit(X)
    assert kp8.n_components_ == 5


def test_gaussian_rank_can_exceed_dimension(rng):
    X = rng.uniform(0, 10, size=(30, 2))
    assert (
        kpca.KernelPCA(sigma=0.5).fit(X).n_components_ == 29
    )  # centring removes one direction


@pytest.mark.parametrize(
    "solver", ["dense", "lanczos", "subspace", "arpack", "auto"]
)
def test_eigen_solvers_agree(solver):
    X, _ = make_circles(n_samples=900, noise=0.05, factor=0.4, random_state=0)
    ref = kpca.KernelPCA(n_components=6, sigma=0.3, eigen_solver="dense").fit(
        X
    )
    kp = kpca.KernelPCA(
        n_components=6, sigma=0.3, eigen_solver=solver, random_state=1
    ).fit(X)
    np.testing.assert_allclose(kp.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
    np.testing.assert_allclose(kp.eigenvectors_, ref.eigenvectors_, atol=1e-6)


def test_precomputed_and_callable_agree(rng):
    X, X_new = rng.normal(size=(40, 3)), rng.normal(size=(5, 3))
    named = kpca.KernelPCA(n_components=3, kernel="gaussian", sigma=1.3).fit(X)
    pre = kpca.KernelPCA(n_components=3, kernel="precomputed").fit(
        kpca.gaussian_kernel(X, sigma=1.3)
    )
    call = kpca.KernelPCA(
        n_components=3,
        kernel=lambda A, B: kpca.gaussian_kernel(A, B, sigma=1.3),
    ).fit(X)
    for other, new in (
        (pre, kpca.gaussian_kernel(X_new, X, sigma=1.3)),
        (call, X_new),
    ):
        np.testing.assert_allclose(
            other.eigenvalues_, named.eigenvalues_, rtol=1e-12
        )
        np.testing.assert_allclose(
            other.transform(new), named.transform(X_new), atol=1e-10
        )


def test_uncentred_variant(rng):
    X = rng.normal(size=(20, 2)) + 5
    kp = kpca.KernelPCA(n_components=2, kernel="linear", center=False).fit(X)
    w = np.linalg.eigvalsh(X @ X.T)[::-1][:2]
    np.testing.assert_allclose(kp.eigenvalues_, w, rtol=1e-10)
    np.testing.assert_allclose(
        kp.transform(X), kp.eigenvectors_ * np.sqrt(kp.eigenvalues_), atol=1e-9
    )


# -- bad input -----------------------------------------------------------------
@pytest.mark.parametrize(
    "params, exc, match",
    [
        (dict(sigma=0.0), ValueError, "sigma"),
        (dict(sigma=-2), ValueError, "sigma"),
        (dict(kernel="polynomial", degree=-1), ValueError, "degree"),
        (dict(kernel="polynomial", degree=1.5), TypeError, "degree"),
        (dict(kernel="rbff"), ValueError, "kernel must be"),
        (dict(kernel=3), TypeError, "kernel must be"),
        (dict(n_components=0), ValueError, "n_components"),
        (
            dict(n_components=151),
            ValueError,
            "n_components must be between 1 and 150",
        ),
        (dict(n_components=2.5), TypeError, "n_components"),
        (dict(eigen_solver="lobpcg"), ValueError, "eigen_solver"),
        (dict(center="no"), TypeError, "center"),
        (dict(random_state="seed"), TypeError, "random_state"),
    ],
)
def test_bad_parameters(params, exc, match):
    with pytest.raises(exc, match=match):
        kpca.KernelPCA(**params).fit(IRIS)


def test_bad_precomputed():
    with pytest.raises(ValueError, match="must be a square matrix"):
        kpca.KernelPCA(kernel="precomputed").fit(np.ones((3, 4)))
    K = np.array([[1.0, 0.5], [0.2, 1.0]])
    with pytest.raises(ValueError, match="must be symmetric"):
        kpca.KernelPCA(kernel="precomputed").fit(K)
    kp = kpca.KernelPCA(kernel="precomputed", n_components=1).fit(
        kpca.gaussian_kernel(IRIS[:10])
    )
    with pytest.raises(
        ValueError,
        match="X has 4 features, but KernelPCA is expecting 10 features",
    ):
        kp.transform(np.ones((2, 4)))


def test_transform_before_fit_and_feature_mismatch():
    with pytest.raises(ValueError, match="not fitted yet"):
        kpca.KernelPCA().transform(IRIS)
    kp = kpca.KernelPCA(n_components=2).fit(IRIS)
    with pytest.raises(
        ValueError,
        match="X has 2 features, but KernelPCA is expecting 4 features as input",
    ):
        kp.transform(IRIS[:, :2])


def test_nan_and_empty():
    with pytest.raises(ValueError, match="NaN"):
        kpca.KernelPCA().fit(np.array([[0.0, np.nan], [1.0, 2.0]]))
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        kpca.KernelPCA().fit(np.empty((0, 2)))


def test_no_positive_eigenvalue():
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        kpca.KernelPCA(kernel="linear").fit(np.ones((4, 2)))


def test_non_symmetric_callable_kernel_is_rejected():
    with pytest.raises(ValueError, match=r"kernel\(X, X\) must be symmetric"):
        kpca.KernelPCA(kernel=lambda A, B: A @ (2 * B).T + A[:, :1]).fit(
            IRIS[:10]
        )
