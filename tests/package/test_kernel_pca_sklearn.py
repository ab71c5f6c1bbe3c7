"""KernelPCA as a drop-in for scikit-learn's: the same results on the same data.

Each feature is checked against sklearn.decomposition.KernelPCA: scores of
the training points and of new points, eigenvalues, the learned pre-image
map, remove_zero_eig.  Scores are compared up to the sign of each column
(the two sign conventions differ only at ties, but a test should not rest
on that).
"""

import warnings

import numpy as np
import pytest

sklearn_decomposition = pytest.importorskip("sklearn.decomposition")
SkKernelPCA = sklearn_decomposition.KernelPCA

import kpca  # noqa: E402
from kpca import KernelPCA, NonEuclideanWarning, NotFittedError  # noqa: E402

KERNELS = [
    dict(kernel="linear"),
    dict(kernel="rbf"),
    dict(kernel="rbf", gamma=0.3),
    dict(kernel="poly"),
    dict(kernel="poly", gamma=0.5, degree=2, coef0=2.0),
    dict(kernel="sigmoid", gamma=0.05, coef0=0.1),
    dict(kernel="cosine"),
]


def _data(n=80, d=4, seed=0):
    rng = np.random.default_rng(seed)
    # Distinct variances: the leading eigenvalues are well separated.
    return rng.standard_normal((n, d)) * np.array([3.0, 2.0, 1.0, 0.5])[:d]


def _same_up_to_sign(A, B, atol):
    assert A.shape == B.shape
    signs = np.sign(np.sum(A * B, axis=0))
    signs[signs == 0] = 1.0
    np.testing.assert_allclose(A, B * signs, atol=atol)


def _fit_quietly(model, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonEuclideanWarning)
        return model.fit_transform(X)


@pytest.mark.parametrize("params", KERNELS, ids=str)
@pytest.mark.parametrize("solver", ["dense", "arpack", "auto"])
def test_kernels_and_solvers_match_scikit_learn(params, solver):
    X, X_new = _data(), _data(7, seed=1)
    ours = KernelPCA(3, eigen_solver=solver, **params)
    theirs = SkKernelPCA(3, eigen_solver=solver, **params)
    Z = _fit_quietly(ours, X)
    Z_sk = theirs.fit_transform(X)
    scale = np.abs(Z_sk).max()
    _same_up_to_sign(Z, Z_sk, atol=1e-8 * scale)
    _same_up_to_sign(
        ours.transform(X_new), theirs.transform(X_new), 1e-8 * scale
    )
    np.testing.assert_allclose(
        ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9
    )
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-8)
    assert ours.gamma_ == pytest.approx(theirs.gamma_)


@pytest.mark.parametrize("params", KERNELS[:4], ids=str)
def test_randomized_solver_matches_scikit_learn(params):
    # scikit-learn's randomized solver runs a fixed number of power steps;
    # on a spectrum with gaps both land on the exact answer.
    X = _data(300)
    Z = KernelPCA(3, eigen_solver="randomized", **params).fit_transform(X)
    Z_sk = SkKernelPCA(
        3, eigen_solver="randomized", random_state=0, **params
    ).fit_transform(X)
    _same_up_to_sign(Z, Z_sk, atol=1e-6 * np.abs(Z_sk).max())


def test_rbf_with_gamma_is_the_gaussian_with_sigma():
    X = _data()
    for sigma in (0.5, 1.0, 3.0):
        gamma = 1.0 / (2.0 * sigma**2)
        Z_rbf = KernelPCA(4, kernel="rbf", gamma=gamma).fit_transform(X)
        Z_gauss = KernelPCA(4, kernel="gaussian", sigma=sigma).fit_transform(X)
        np.testing.assert_allclose(Z_rbf, Z_gauss, atol=1e-12)
    model = KernelPCA(4, kernel="gaussian", sigma=2.0).fit(X)
    assert model.gamma_ == 1.0 / 8.0


def test_polynomial_is_poly_with_the_notes_defaults():
    X = _data()
    Z_notes = KernelPCA(3, kernel="polynomial").fit_transform(X)
    Z_poly = KernelPCA(
        3, kernel="poly", gamma=1.0, degree=2, coef0=1.0
    ).fit_transform(X)
    np.testing.assert_allclose(Z_notes, Z_poly, rtol=1e-10)
    assert KernelPCA(kernel="polynomial").fit(X).gamma_ == 1.0


def test_callable_kernel_with_kernel_params():
    X, X_new = _data(), _data(5, seed=2)

    def laplacian(A, B, scale):
        return np.exp(-np.abs(A[:, None, :] - B[None, :, :]).sum(-1) / scale)

    ours = KernelPCA(3, kernel=laplacian, kernel_params={"scale": 2.0})
    Z = ours.fit_transform(X)
    K = laplacian(X, X, 2.0)
    theirs = SkKernelPCA(3, kernel="precomputed")
    Z_sk = theirs.fit_transform(K)
    _same_up_to_sign(Z, Z_sk, 1e-9)
    _same_up_to_sign(
        ours.transform(X_new), theirs.transform(laplacian(X_new, X, 2.0)), 1e-9
    )


@pytest.mark.parametrize(
    "params",
    [
        dict(kernel="rbf", gamma=0.2),
        dict(kernel="rbf"),
        dict(kernel="poly", degree=2),
        dict(kernel="sigmoid", gamma=0.05, coef0=0.1),
        dict(kernel="cosine"),
        dict(kernel="linear"),
    ],
    ids=str,
)
@pytest.mark.parametrize("alpha", [0.1, 1.0])
def test_learned_preimage_matches_scikit_learn(params, alpha):
    X, X_new = _data(60), _data(6, seed=3)
    ours = KernelPCA(3, fit_inverse_transform=True, alpha=alpha, **params)
    theirs = SkKernelPCA(3, fit_inverse_transform=True, alpha=alpha, **params)
    _fit_quietly(ours, X)
    theirs.fit(X)
    # A round trip does not depend on the signs of the score columns: the
    # kernel on the scores is a function of distances or inner products,
    # which flipping a column in every score leaves unchanged.
    back = ours.inverse_transform(ours.transform(X_new))
    back_sk = theirs.inverse_transform(theirs.transform(X_new))
    np.testing.assert_allclose(back, back_sk, atol=1e-9 * np.abs(X).max())
    assert ours.dual_coef_.shape == theirs.dual_coef_.shape


def test_learned_preimage_with_a_callable_kernel_denoises():
    rng = np.random.default_rng(4)
    t = rng.uniform(0, 2 * np.pi, 150)
    clean = np.column_stack([np.cos(t), np.sin(t)])
    noisy = clean + 0.1 * rng.standard_normal(clean.shape)

    def gaussian(A, B):
        return kpca.gaussian_kernel(A, B, sigma=0.5)

    model = KernelPCA(
        4, kernel=gaussian, fit_inverse_transform=True, alpha=0.05
    ).fit(noisy)
    denoised = model.inverse_transform(model.transform(noisy))
    radius_error = np.abs(np.linalg.norm(denoised, axis=1) - 1.0)
    noisy_error = np.abs(np.linalg.norm(noisy, axis=1) - 1.0)
    assert np.median(radius_error) < 0.6 * np.median(noisy_error)


@pytest.mark.parametrize("remove_zero_eig", [True, False])
def test_remove_zero_eig_matches_scikit_learn(remove_zero_eig):
    X = _data(40, d=2)  # the linear kernel has rank 2
    ours = KernelPCA(4, kernel="linear", remove_zero_eig=remove_zero_eig)
    theirs = SkKernelPCA(4, kernel="linear", remove_zero_eig=remove_zero_eig)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither rule warns
        Z = ours.fit_transform(X)
    Z_sk = theirs.fit_transform(X)
    assert (
        Z.shape == Z_sk.shape == ((40, 4) if not remove_zero_eig else (40, 2))
    )
    _same_up_to_sign(Z, Z_sk, 1e-9)
    _same_up_to_sign(ours.transform(X[:3]), theirs.transform(X[:3]), 1e-9)
    np.testing.assert_allclose(
        ours.eigenvalues_, theirs.eigenvalues_, atol=1e-9
    )


def test_the_default_keeps_the_rank_with_a_warning():
    X = _data(40, d=2)
    with pytest.warns(RuntimeWarning, match="numerical rank 2"):
        model = KernelPCA(4, kernel="linear").fit(X)
    assert model.n_components_ == 2


def _indefinite_kernel(n, seed=0):
    # Eigenvectors orthogonal to the ones vector: centring changes nothing,
    # and the centred spectrum is 10, 5, 2, -4, -1 and n - 5 zeros.
    B = np.random.default_rng(seed).standard_normal((n, 5))
    Q, _ = np.linalg.qr(B - B.mean(axis=0))
    K = (Q * np.array([10.0, 5.0, 2.0, -4.0, -1.0])) @ Q.T
    return 0.5 * (K + K.T)


@pytest.mark.parametrize("n", [40, 700])
def test_an_indefinite_precomputed_kernel_is_named_not_blamed_on_rank(n):
    K = _indefinite_kernel(n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = KernelPCA(5, kernel="precomputed").fit(K)
    messages = [str(w.message) for w in caught]
    non_euclidean = [
        str(w.message)
        for w in caught
        if issubclass(w.category, NonEuclideanWarning)
    ]
    assert len(non_euclidean) == 1, messages
    assert "not positive semi-definite" in non_euclidean[0]
    if n <= 600:  # the whole spectrum: count and mass
        assert "2 negative eigenvalue(s)" in non_euclidean[0]
        # mass = (4 + 1) / (10 + 5 + 2 + 4 + 1)
        assert f"negative mass {5 / 22:.2%}" in non_euclidean[0]
    assert "-4" in non_euclidean[0]
    assert not any("numerical rank" in m for m in messages), messages
    assert any(
        "exceeds the number 3 of positive eigenvalues" in m for m in messages
    ), messages
    assert model.n_components_ == 3
    np.testing.assert_allclose(model.eigenvalues_, [10.0, 5.0, 2.0], rtol=1e-8)


def test_an_indefinite_callable_kernel_warns_and_a_psd_one_does_not():
    X = _data(50)

    def difference_of_gaussians(A, B):
        return kpca.gaussian_kernel(A, B) - 0.5 * kpca.gaussian_kernel(
            A, B, sigma=0.3
        )

    with pytest.warns(NonEuclideanWarning, match="negative mass"):
        model = KernelPCA(2, kernel=difference_of_gaussians).fit(X)
    assert np.all(model.eigenvalues_ > 0)
    # A negated Gaussian kernel has no positive eigenvalue at all: round-off
    # above zero must not pass for a component.
    with pytest.warns(NonEuclideanWarning, match="negative mass"):
        with pytest.raises(ValueError, match="no positive eigenvalue"):
            KernelPCA(1, kernel=lambda A, B: -kpca.gaussian_kernel(A, B)).fit(
                X
            )
    with pytest.warns(NonEuclideanWarning, match="negative mass"):
        with pytest.raises(ValueError, match="no positive eigenvalue"):
            KernelPCA(3, kernel=lambda A, B: -kpca.gaussian_kernel(A, B)).fit(
                X
            )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KernelPCA(2, kernel=kpca.linear_kernel).fit(X)
        KernelPCA(2, kernel="precomputed").fit(kpca.gaussian_kernel(X))


@pytest.mark.parametrize(
    "params, error, match",
    [
        (dict(kernel="gaussian", gamma=0.5), ValueError, "gamma"),
        (dict(kernel="rbf", gamma=-1.0), ValueError, "gamma"),
        (
            dict(kernel="rbf", kernel_params={"a": 1}),
            ValueError,
            "kernel_params",
        ),
        (dict(kernel="nope"), ValueError, "kernel"),
        (dict(degree=-1, kernel="poly"), ValueError, "degree"),
        (dict(alpha=-1.0), ValueError, "alpha"),
        (dict(tol=-1.0), ValueError, "tol"),
        (dict(max_iter=0), ValueError, "max_iter"),
        (dict(iterated_power=-2), ValueError, "iterated_power"),
        (dict(iterated_power="many"), TypeError, "iterated_power"),
        (dict(remove_zero_eig="yes"), TypeError, "remove_zero_eig"),
        (dict(copy_X=1), TypeError, "copy_X"),
        (dict(n_jobs=1.5), TypeError, "n_jobs"),
        (dict(eigen_solver="eigsh"), ValueError, "eigen_solver"),
    ],
)
def test_bad_parameters_name_themselves(params, error, match):
    with pytest.raises(error, match=match):
        KernelPCA(2, **params).fit(_data())


def test_inverse_transform_needs_the_map_and_a_kernel_function():
    X = _data()
    with pytest.raises(NotFittedError, match="fit_inverse_transform"):
        KernelPCA(2).fit(X).inverse_transform(np.zeros((1, 2)))
    with pytest.raises(ValueError, match="precomputed"):
        KernelPCA(2, kernel="precomputed", fit_inverse_transform=True).fit(
            kpca.gaussian_kernel(X)
        )


def test_tol_and_max_iter_reach_the_solver():
    X = _data(700)
    exact = KernelPCA(3, eigen_solver="dense").fit(X).eigenvalues_
    for solver in ("lanczos", "arpack", "randomized"):
        model = KernelPCA(3, eigen_solver=solver, tol=1e-12, max_iter=1000)
        np.testing.assert_allclose(
            model.fit(X).eigenvalues_, exact, rtol=1e-10
        )


def test_copy_x_false_keeps_the_callers_array():
    X = np.ascontiguousarray(_data())
    assert KernelPCA(2, copy_X=False).fit(X).X_fit_ is X
    assert KernelPCA(2).fit(X).X_fit_ is not X
