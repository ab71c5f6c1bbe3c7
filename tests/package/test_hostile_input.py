"""Regressions of issue 25: hostile input gets a clear error, never a NaN
or a silently wrong answer (one test per reported case and per instance of
its class found since)."""

import warnings

import numpy as np
import pytest

import kpca
from kpca.preimage import gaussian_preimage, reconstruction_error

RNG = np.random.default_rng(2026)
X20 = RNG.normal(size=(20, 2))

# -- accuracy far from the origin ---------------------------------------------


def test_polynomial_kernel_far_from_origin_raises_instead_of_infinite_ratio():
    # Reported: explained_variance_ratio_ = [inf, inf, ...] and
    # total_variance_ = 0.0, with only a RuntimeWarning.
    with pytest.raises(ValueError, match="centre or scale X"):
        kpca.KernelPCA(kernel="polynomial").fit(1e8 + 1e-3 * X20)


def test_linear_kernel_far_from_origin_keeps_the_rank_and_agrees_with_itself():
    # Reported: 2 components for rank-1 data, and fit_transform and
    # transform disagreeing by 12% of the score scale.
    X = np.array([[10.00012573], [9.9998679], [10.00064042]])
    model = kpca.KernelPCA(kernel="linear")
    Z = model.fit_transform(X)
    assert model.n_components_ == 1
    scale = np.abs(Z).max()
    np.testing.assert_allclose(model.transform(X), Z, atol=1e-12 * scale)
    centred = X - X.mean()
    np.testing.assert_allclose(
        model.eigenvalues_, [(centred.T @ centred).item()], rtol=1e-12
    )


def _exact_variances(X):
    """Variances of the principal components, from data centred exactly.

    The mean in extended precision and the data minus it, rounded once:
    far from the origin a float64 mean is off by up to half a unit of
    round-off of the offset, which is not small against a small spread.
    """
    Xl = X.astype(np.longdouble)
    centred = (Xl - Xl.mean(axis=0)).astype(float)
    return np.linalg.svd(centred, compute_uv=False) ** 2 / X.shape[0]


@pytest.mark.parametrize("offset", [0.0, 1e4, 1e8, 1e12])
def test_linear_kernel_pca_is_exact_wherever_the_data_lie(offset):
    X = offset + RNG.normal(size=(40, 3)) * [1.0, 0.1, 0.01]
    kp = kpca.KernelPCA(kernel="linear").fit(X)
    assert kp.n_components_ == 3
    np.testing.assert_allclose(
        kp.explained_variance_, _exact_variances(X), rtol=1e-9
    )
    # The uncentred kernel means keep their meaning (scores_from_kernel).
    np.testing.assert_allclose(
        kp.kernel_col_means_, (X @ X.T).mean(axis=0), rtol=1e-12
    )
    if offset <= 1e8:  # PCA centres once, with a float64 mean
        pca = kpca.PCA().fit(X)
        np.testing.assert_allclose(
            kp.explained_variance_, pca.explained_variance_, rtol=1e-9
        )
        # The data hold their values to a unit of round-off of the offset;
        # the scores cannot agree more closely than that.
        np.testing.assert_allclose(
            np.abs(kp.transform(X)),
            np.abs(pca.transform(X)),
            atol=1e-12 + 20 * np.finfo(float).eps * offset,
        )


@pytest.mark.parametrize("offset", [10.0, 1e3, 1e5])
def test_polynomial_kernel_keeps_only_resolved_components(offset):
    X = offset + RNG.normal(size=(60, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # None: no warning, a clean cut
        model = kpca.KernelPCA(kernel="polynomial").fit(X)
    ratio = model.explained_variance_ratio_
    assert np.all(np.isfinite(ratio)) and np.all(ratio > 0)
    assert ratio.sum() <= 1.0 + 1e-12
    # (c + x.y)^2 in two dimensions: at most 5 centred components.
    assert model.n_components_ <= 5
    K = kpca.polynomial_kernel(X)
    roundoff = 10 * np.finfo(float).eps * np.linalg.norm(K)
    assert model.eigenvalues_[-1] > roundoff


def test_asking_for_unresolved_components_warns_with_the_reason():
    X = 1e3 + RNG.normal(size=(60, 2))
    # Which of the small eigenvalues fall below the relative rank cut, and
    # which only below the round-off, depends on the LAPACK build (numpy 1.24
    # puts two more below the cut): either way the warning gives its reason.
    with pytest.warns(
        RuntimeWarning, match="round-off.*centre or scale|numerical rank"
    ):
        model = kpca.KernelPCA(5, kernel="polynomial").fit(X)
    assert model.n_components_ < 5


def test_nearly_constant_gaussian_kernel_names_sigma():
    with pytest.raises(ValueError, match="decrease sigma"):
        kpca.KernelPCA(sigma=1e9).fit(X20)


# -- overflow and underflow ------------------------------------------------------


@pytest.mark.parametrize("sigma", [1e-200, 1e-160, 1e160, 1e200])
@pytest.mark.parametrize(
    "call",
    [
        lambda s: kpca.gaussian_kernel(X20, sigma=s),
        lambda s: kpca.make_kernel("gaussian", sigma=s),
        lambda s: kpca.KernelPCA(sigma=s).fit(X20),
        lambda s: kpca.NystroemKernelPCA(sigma=s, n_landmarks=5).fit(X20),
        lambda s: kpca.RandomFourierKernelPCA(sigma=s).fit(X20),
        lambda s: kpca.gaussian_feature_map_1d(X20[:, 0], sigma=s),
        lambda s: kpca.kernel_diagonal("gaussian", X20, sigma=s),
    ],
    ids=["kernel", "make", "kpca", "nystroem", "rff", "map", "diagonal"],
)
def test_sigma_whose_square_under_or_overflows_is_refused(call, sigma):
    # Reported: 1e-200 gave ZeroDivisionError, 1e-160 a NaN diagonal.
    with pytest.raises(ValueError, match=r"sigma=.* is out of range"):
        call(sigma)


@pytest.mark.parametrize("scale", [1e160, 1e200, 1e250, 1e300])
@pytest.mark.parametrize(
    "fit",
    [
        lambda X: kpca.KernelPCA(kernel="linear").fit(X),
        lambda X: kpca.KernelPCA(kernel="polynomial").fit(X),
        lambda X: kpca.KernelPCA(sigma=1e150).fit(X),
        lambda X: kpca.ClassicalMDS().fit(X),
        lambda X: kpca.PCA().fit(X),
        lambda X: kpca.PCA(standardize=True).fit(X),
        lambda X: kpca.NystroemKernelPCA(n_landmarks=5).fit(X),
        lambda X: kpca.NystroemKernelPCA(kernel="linear").fit(X),
        lambda X: kpca.RandomFourierKernelPCA().fit(X),
        lambda X: kpca.squared_distances(X),
        lambda X: kpca.linear_kernel(X),
        lambda X: kpca.polynomial_kernel(X),
    ],
    ids=[
        "kpca-linear",
        "kpca-poly",
        "kpca-gauss",
        "mds",
        "pca",
        "pca-std",
        "nystroem",
        "nystroem-linear",
        "rff",
        "distances",
        "linear",
        "polynomial",
    ],
)
# PCA(standardize=True) squares the data for the standard deviations first.
@pytest.mark.filterwarnings("ignore:overflow encountered in square")
def test_huge_finite_data_raise_a_value_error_saying_to_scale(fit, scale):
    # Reported: inf/NaN kernels, NaN in every attribute of ClassicalMDS,
    # LinAlgError, or an error naming an internal array.
    with pytest.raises(ValueError, match="scale|centre"):
        fit(X20 * scale)


@pytest.mark.parametrize(
    "call",
    [
        lambda X: kpca.squared_distances(X),
        lambda X: kpca.linear_kernel(X),
        lambda X: kpca.polynomial_kernel(X, coef0=0.0),
        lambda X: kpca.PCA().fit(X),
        lambda X: kpca.ClassicalMDS().fit(X),
    ],
    ids=["distances", "linear", "polynomial", "pca", "mds"],
)
def test_tiny_data_whose_squares_underflow_raise(call):
    with pytest.raises(ValueError, match="underflow.*scale"):
        call(X20 * 1e-200)


@pytest.mark.parametrize("chunked", [False, True], ids=["array", "chunks"])
def test_nystroem_features_whose_squares_underflow_raise(chunked):
    # Linear kernel values of data near 1e-81 are near 1e-162, and their
    # squares are subnormal: the eigenvalues were 0.06 % (array) and 0.2 %
    # (chunks) off, silently (found by test_hostile_properties).
    X = np.array([[1.25730221], [-1.32104863], [6.40422650]])
    model = kpca.NystroemKernelPCA(kernel="linear", n_landmarks=2)
    with pytest.raises(ValueError, match="underflow.*scale X"):
        tiny = X * 1e-81
        model.fit(np.split(tiny, [1]) if chunked else tiny)
    # Data 1e11 times larger keep every digit, chunked or not.
    small = model.fit(np.split(X * 1e-70, [1]) if chunked else X * 1e-70)
    unit = kpca.NystroemKernelPCA(kernel="linear", n_landmarks=2).fit(X)
    np.testing.assert_allclose(
        small.eigenvalues_ * 1e140, unit.eigenvalues_, rtol=1e-12
    )


def test_precomputed_dissimilarities_whose_squares_overflow_raise():
    D = np.sqrt(kpca.squared_distances(X20)) * 1e200
    with pytest.raises(ValueError, match="overflow.*scale"):
        kpca.ClassicalMDS(metric="precomputed").fit(D)


def test_precomputed_kernel_too_large_to_decompose_raises():
    K = kpca.gaussian_kernel(X20) * 1e200
    with pytest.raises(ValueError, match="too large.*scale"):
        kpca.KernelPCA(kernel="precomputed").fit(K)


def test_polynomial_feature_map_large_coef0():
    # Reported: OverflowError from Python's float power.
    phi = kpca.polynomial_feature_map(X20, coef0=1e300)
    assert np.all(np.isfinite(phi))
    assert phi[0, 0] == pytest.approx(1e300)
    with pytest.raises(ValueError, match="overflow.*coef0"):
        kpca.polynomial_feature_map(X20, degree=4, coef0=1e300)


def test_gaussian_feature_map_overflow_raises():
    with pytest.raises(ValueError, match="overflow"):
        kpca.gaussian_feature_map_1d(np.array([1e200, 1.0]), sigma=1e-100)


# -- a fitted model keeps its parameters -------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"kernel": "precomputed"},
        {"kernel": "linear"},
        {"sigma": 7.0},
        {"center": False},
        {"kernel": "polynomial", "degree": 3},
    ],
)
def test_kernel_pca_transform_uses_the_parameters_of_the_fit(change):
    # Reported: set_params(kernel="precomputed") then transform raised a
    # bare AssertionError.
    model = kpca.KernelPCA(2).fit(X20)
    before = model.transform(X20[:5])
    error_before = reconstruction_error(model, X20[:5])
    model.set_params(**change)
    np.testing.assert_array_equal(model.transform(X20[:5]), before)
    np.testing.assert_array_equal(
        reconstruction_error(model, X20[:5]), error_before
    )


def test_gaussian_preimage_uses_the_parameters_of_the_fit():
    model = kpca.KernelPCA(2, sigma=1.5).fit(X20)
    Z = model.transform(X20[:3])
    before = gaussian_preimage(model, Z, X20[:3])
    model.set_params(kernel="linear", sigma=0.1)
    np.testing.assert_array_equal(gaussian_preimage(model, Z, X20[:3]), before)


def test_nystroem_transform_uses_the_parameters_of_the_fit():
    model = kpca.NystroemKernelPCA(2, n_landmarks=10).fit(X20)
    before = model.transform(X20)
    model.set_params(sigma=9.0, kernel="polynomial")
    np.testing.assert_array_equal(model.transform(X20), before)


def test_mds_fit_transform_returns_a_copy():
    model = kpca.ClassicalMDS()
    Y = model.fit_transform(X20)
    Y[:] = 0.0
    assert np.abs(model.embedding_).max() > 0


# -- chunking ----------------------------------------------------------------------

# Found by a random search: in one chunk 6 components, in two 7 (a noise
# eigenvalue of the scatter either side of the relative rank cut).
NYSTROEM_DATA = np.array(
    [
        999.0867118712948,
        999.9832715651307,
        999.8742479127532,
        999.7833431832028,
        998.851584839203,
        1001.3005532294476,
        998.5176975729552,
        999.46237007312,
        1000.8003466559487,
        1000.6272976241406,
        999.792991311751,
        1000.9518369572559,
        999.6698552606082,
        1001.9820334343715,
        1001.0483950640879,
        999.2512875844294,
        1000.8579858568879,
        999.78104754326,
        1000.3851613226,
        1001.2235849409556,
        999.1746888697282,
        1001.4055018451122,
        999.7333691857187,
        1001.094123011219,
        1000.442828772244,
        999.4487811736417,
        998.6411443561959,
        998.7758149651886,
        1000.2972894223515,
        998.912722982624,
        999.5054460338924,
        999.753603694739,
    ]  # fmt: skip
)[:, None]


def test_nystroem_keeps_as_many_components_in_any_chunking():
    X = NYSTROEM_DATA
    params = dict(n_landmarks=11, sigma=1.898672316419474)
    whole = kpca.NystroemKernelPCA(**params).fit(X)
    for cuts in ([25], [5, 17], list(range(1, 32, 3))):
        parts = kpca.NystroemKernelPCA(**params).fit(np.split(X, cuts))
        assert parts.n_components_ == whole.n_components_
        np.testing.assert_allclose(
            parts.eigenvalues_,
            whole.eigenvalues_,
            rtol=1e-6,
            atol=1e-8 * whole.eigenvalues_[0],
        )


# -- helpers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: kpca.align_signs(np.array([[1 + 1j, 2.0]])), "real"),
        (lambda: kpca.align_signs(np.array([[np.nan, 1.0]])), "NaN"),
        (lambda: kpca.align_signs(np.zeros((2, 2, 2))), "1-D or 2-D"),
        (lambda: kpca.align_signs([[1.0], [1.0, 2.0]]), "array-like"),
        (lambda: kpca.double_center(np.eye(2) * (1 + 1j)), "real"),
        (lambda: kpca.double_center([[0.0, -1.0], [-1.0, 0.0]]), "negative"),
        (lambda: kpca.double_center([[0.0, 1.0], [2.0, 0.0]]), "symmetric"),
        (lambda: kpca.double_center([[1.0, 1.0], [1.0, 1.0]]), "diagonal"),
        (
            lambda: kpca.center_test_kernel(np.ones((1, 2)), [[1, 2], [0, 1]]),
            "symmetric",
        ),
        (
            lambda: kpca.center_test_kernel(np.ones((1, 2)) * 1j, np.eye(2)),
            "real",
        ),
    ],
)
def test_helpers_reject_invalid_input(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_align_signs_does_not_alias_its_input():
    V = np.array([[-1.0, 2.0], [0.5, -3.0]])
    out = kpca.align_signs(V)
    assert out is not V and not np.shares_memory(out, V)
    np.testing.assert_array_equal(V, [[-1.0, 2.0], [0.5, -3.0]])


def test_an_overflow_in_one_tile_among_finite_tiles_is_reported():
    # x.y = 1e400 - 1e400 in one tile only, whichever panel ends first.
    X = np.vstack([[[1e200, 1e200]], RNG.normal(size=(600, 2))])
    Y = np.vstack([[[1e200, -1e200]], RNG.normal(size=(5, 2))])
    with pytest.raises(ValueError, match="overflows float64"):
        kpca.linear_kernel(X, Y)
