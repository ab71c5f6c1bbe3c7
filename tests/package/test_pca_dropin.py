"""kpca.PCA against scikit-learn's PCA on the same data, feature by feature.

The conventions differ in one place: kpca's variances divide by n, scikit-
learn's by n - 1.  Each test states which quantities agree exactly and which
agree after the factor (n - 1)/n.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse
from scipy.stats import multivariate_normal
from sklearn import decomposition
from sklearn.datasets import load_iris

import kpca

IRIS = load_iris().data


def _low_rank_plus_noise(seed, n=300, d=12, rank=4, noise=0.3):
    rng = np.random.default_rng(seed)
    signal = rng.normal(size=(n, rank)) @ rng.normal(size=(rank, d)) * 3
    return signal + noise * rng.normal(size=(n, d)) + 5.0


def _assert_same_up_to_sign(A, B, atol):
    # Columns (scores) or rows (components) may differ by a sign each.
    A, B = np.asarray(A), np.asarray(B)
    signs = np.sign(np.sum(A * B, axis=0))
    np.testing.assert_allclose(A * signs, B, atol=atol)


def _ratio(n):
    return (n - 1) / n


# -- n_components ---------------------------------------------------------------
@pytest.mark.parametrize("share", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
@pytest.mark.parametrize("seed", [0, 1])
def test_share_of_variance_chooses_the_same_k(share, seed):
    X = _low_rank_plus_noise(seed)
    ours = kpca.PCA(share).fit(X)
    theirs = decomposition.PCA(share, svd_solver="full").fit(X)
    assert ours.n_components_ == theirs.n_components_
    np.testing.assert_allclose(
        ours.explained_variance_ratio_,
        theirs.explained_variance_ratio_,
        rtol=1e-10,
    )
    assert ours.explained_variance_ratio_.sum() > share
    assert ours.explained_variance_ratio_[:-1].sum() <= share


@pytest.mark.parametrize("rank", [1, 2, 4, 7])
@pytest.mark.parametrize("seed", [0, 3])
def test_mle_chooses_the_same_k_as_scikit_learn(rank, seed):
    X = _low_rank_plus_noise(seed, rank=rank)
    ours = kpca.PCA("mle").fit(X)
    theirs = decomposition.PCA("mle", svd_solver="full").fit(X)
    assert ours.n_components_ == theirs.n_components_ == rank


def test_minka_evidence_equals_scikit_learns_for_every_k():
    from kpca.pca import _minka_log_evidence

    assess = pytest.importorskip("sklearn.decomposition._pca")
    X = _low_rank_plus_noise(5, d=9, rank=3)
    n = X.shape[0]
    spectrum = kpca.PCA().fit(X).explained_variance_
    for k in range(1, 9):
        ours = _minka_log_evidence(spectrum, k, n)
        theirs = assess._assess_dimension(spectrum, k, n)
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)
    # The 1/n and 1/(n - 1) spectra give the same k: the evidence changes by
    # a constant.
    shift = [
        _minka_log_evidence(spectrum * n / (n - 1), k, n)
        - _minka_log_evidence(spectrum, k, n)
        for k in range(1, 9)
    ]
    np.testing.assert_allclose(shift, shift[0], rtol=1e-9)


def test_mle_needs_as_many_samples_as_features(rng):
    with pytest.raises(ValueError, match="n_components='mle'"):
        kpca.PCA("mle").fit(rng.normal(size=(5, 8)))


@pytest.mark.parametrize("bad", [0.0, 1.0, 1.5, -0.2, "auto", [2]])
def test_bad_n_components_name_the_parameter(bad):
    with pytest.raises((ValueError, TypeError), match="n_components"):
        kpca.PCA(bad).fit(IRIS)


# -- solvers ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "solver", ["full", "covariance_eigh", "arpack", "randomized"]
)
def test_each_solver_matches_scikit_learns(solver):
    X = _low_rank_plus_noise(2, n=200, d=10, rank=5)
    n = X.shape[0]
    ours = kpca.PCA(3, svd_solver=solver, random_state=0).fit(X)
    theirs = decomposition.PCA(3, svd_solver=solver, random_state=0).fit(X)
    _assert_same_up_to_sign(
        ours.components_.T, theirs.components_.T, atol=1e-8
    )
    np.testing.assert_allclose(
        ours.singular_values_, theirs.singular_values_, rtol=1e-9
    )
    # Variances: scikit-learn's times (n - 1)/n.
    np.testing.assert_allclose(
        ours.explained_variance_,
        theirs.explained_variance_ * _ratio(n),
        rtol=1e-9,
    )
    np.testing.assert_allclose(
        ours.explained_variance_ratio_,
        theirs.explained_variance_ratio_,
        rtol=1e-9,
    )
    _assert_same_up_to_sign(ours.transform(X), theirs.transform(X), 1e-7)


@pytest.mark.parametrize("normalizer", ["auto", "QR", "LU", "none"])
@pytest.mark.parametrize("power", ["auto", 0, 1, 5])
def test_randomized_options(normalizer, power):
    X = _low_rank_plus_noise(4, n=400, d=30, rank=3, noise=0.05)
    exact = kpca.PCA(3, svd_solver="full").fit(X)
    fit = kpca.PCA(
        3,
        svd_solver="randomized",
        iterated_power=power,
        n_oversamples=7,
        power_iteration_normalizer=normalizer,
        random_state=np.random.default_rng(1),
    ).fit(X)
    # A gap of about 100 after the third value: even q = 0 is accurate.
    np.testing.assert_allclose(
        fit.singular_values_, exact.singular_values_, rtol=1e-4
    )


@pytest.mark.parametrize(
    "seed", [0, 7, np.random.default_rng(3), np.random.RandomState(3)]
)
def test_random_state_forms(seed):
    X = _low_rank_plus_noise(6)
    fit = kpca.PCA(2, svd_solver="randomized", random_state=seed).fit(X)
    assert fit.n_components_ == 2


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(random_state=-1), "random_state"),
        (dict(random_state=1.5), "random_state"),
        (dict(iterated_power=-1), "iterated_power"),
        (dict(iterated_power="many"), "iterated_power"),
        (dict(n_oversamples=0), "n_oversamples"),
        (dict(power_iteration_normalizer="qr"), "power_iteration_normalizer"),
        (dict(tol=-1.0), "tol"),
        (dict(whiten="yes"), "whiten"),
        (dict(copy=None), "copy"),
        (dict(svd_solver="lapack"), "svd_solver"),
    ],
)
def test_bad_parameters_name_themselves(params, match):
    with pytest.raises((ValueError, TypeError), match=match):
        kpca.PCA(2, svd_solver="randomized", **params).fit(IRIS) if (
            "svd_solver" not in params
        ) else kpca.PCA(2, **params).fit(IRIS)


def test_iterative_solvers_need_a_number_of_components():
    with pytest.raises(ValueError, match="svd_solver='arpack'"):
        kpca.PCA(4, svd_solver="arpack").fit(IRIS)  # k = min(n, d)
    for solver in ("arpack", "randomized"):
        with pytest.raises(ValueError, match="must be an int"):
            kpca.PCA(0.9, svd_solver=solver).fit(IRIS)


def test_deprecated_solver_names_still_work():
    for old, new in [
        ("covariance", "covariance_eigh"),
        ("svd", "full"),
        ("gram", "gram"),
        ("auto", "auto"),
    ]:
        with pytest.warns(FutureWarning, match=f"svd_solver='{new}'"):
            a = kpca.PCA(2, solver=old).fit(IRIS)
        b = kpca.PCA(2, svd_solver=new).fit(IRIS)
        np.testing.assert_array_equal(a.components_, b.components_)


# -- whitening ---------------------------------------------------------------------
def test_whitening_differs_from_scikit_learn_by_sqrt_n_over_n_minus_1():
    X = _low_rank_plus_noise(8)
    n = X.shape[0]
    ours = kpca.PCA(3, whiten=True).fit(X)
    theirs = decomposition.PCA(3, whiten=True).fit(X)
    Z = ours.transform(X)
    # Unit variance with 1/n, uncorrelated.
    np.testing.assert_allclose(Z.T @ Z / n, np.eye(3), atol=1e-10)
    _assert_same_up_to_sign(
        Z, theirs.transform(X) * np.sqrt(n / (n - 1)), atol=1e-9
    )
    np.testing.assert_allclose(ours.fit_transform(X), Z, atol=1e-10)
    # The reconstruction is the same projection as scikit-learn's.
    np.testing.assert_allclose(
        ours.inverse_transform(Z),
        theirs.inverse_transform(theirs.transform(X)),
        atol=1e-9,
    )


def test_copy_false_centres_in_place_and_scores_the_same():
    X = _low_rank_plus_noise(9)
    expected = kpca.PCA(3).fit_transform(X)
    data = X.copy()
    np.testing.assert_allclose(
        kpca.PCA(3, copy=False).fit_transform(data), expected, atol=1e-10
    )
    np.testing.assert_allclose(data.mean(axis=0), 0.0, atol=1e-12)


# -- probabilistic PCA -------------------------------------------------------------
@pytest.mark.parametrize("k", [1, 3, 6])
def test_probabilistic_pca_against_scikit_learn(k):
    X = _low_rank_plus_noise(10, n=150, d=8)
    n, d = X.shape
    ours = kpca.PCA(k).fit(X)
    theirs = decomposition.PCA(k, svd_solver="full").fit(X)
    # n >= d: every covariance is scikit-learn's times (n - 1)/n.
    np.testing.assert_allclose(
        ours.noise_variance_, theirs.noise_variance_ * _ratio(n), rtol=1e-10
    )
    C = ours.get_covariance()
    np.testing.assert_allclose(
        C, theirs.get_covariance() * _ratio(n), rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(
        ours.get_precision(), theirs.get_precision() / _ratio(n), rtol=1e-8
    )
    np.testing.assert_allclose(ours.get_precision() @ C, np.eye(d), atol=1e-9)
    # score_samples is the Gaussian log-density with that covariance.
    X_test = _low_rank_plus_noise(11, n=20, d=8)
    density = multivariate_normal(ours.mean_, C).logpdf(X_test)
    np.testing.assert_allclose(ours.score_samples(X_test), density, rtol=1e-10)
    assert ours.score(X_test) == pytest.approx(density.mean(), rel=1e-12)


def test_score_is_the_maximum_likelihood_of_tipping_and_bishop():
    X = _low_rank_plus_noise(12, n=200, d=10, rank=3)
    d, k = 10, 3
    ours = kpca.PCA(k).fit(X)
    lam = np.linalg.eigvalsh(np.cov(X, rowvar=False, bias=True))[::-1]
    sigma2 = lam[k:].mean()
    assert ours.noise_variance_ == pytest.approx(sigma2, rel=1e-10)
    # At the maximum, tr(C^-1 S) = d, so the mean log-likelihood is
    # -(d log 2 pi + log det C + d) / 2 (Tipping and Bishop, 1999).
    logdet = np.sum(np.log(lam[:k])) + (d - k) * np.log(sigma2)
    closed_form = -0.5 * (d * np.log(2 * np.pi) + logdet + d)
    assert ours.score(X) == pytest.approx(closed_form, rel=1e-12)
    # scikit-learn's covariance (n - 1)/n times smaller is not the maximum.
    theirs = decomposition.PCA(k, svd_solver="full").fit(X)
    assert ours.score(X) > theirs.score(X)
    # Nor is any other noise level with the same directions.
    for factor in (0.9, 1.1):
        other = kpca.PCA(k).fit(X)
        other.noise_variance_ = sigma2 * factor
        other.explained_variance_ = ours.explained_variance_ + sigma2 * (
            factor - 1
        )
        assert other.score(X) < ours.score(X)


def test_noise_variance_with_fewer_samples_than_features(rng):
    X = rng.normal(size=(10, 30))
    n, d, k = 10, 30, 3
    ours = kpca.PCA(k).fit(X)
    theirs = decomposition.PCA(k, svd_solver="full").fit(X)
    discarded = ours.total_variance_ - ours.explained_variance_.sum()
    # kpca: the mean over all d - k discarded eigenvalues (the ML value);
    # scikit-learn: over min(n, d) - k of them, with 1/(n - 1).
    assert ours.noise_variance_ == pytest.approx(discarded / (d - k))
    assert theirs.noise_variance_ == pytest.approx(
        discarded / (min(n, d) - k) / _ratio(n)
    )


def test_full_model_covariance_is_the_sample_covariance():
    X = _low_rank_plus_noise(13, d=5)
    for standardize in (False, True):
        fit = kpca.PCA(standardize=standardize).fit(X)
        assert fit.noise_variance_ == 0.0
        np.testing.assert_allclose(
            fit.get_covariance(),
            np.cov(X, rowvar=False, bias=True),
            rtol=1e-9,
        )
        density = multivariate_normal(
            X.mean(axis=0), np.cov(X, rowvar=False, bias=True)
        ).logpdf(X)
        np.testing.assert_allclose(fit.score_samples(X), density, rtol=1e-9)


def test_standardized_model_is_a_density_of_the_original_units():
    X = _low_rank_plus_noise(14, d=6) * np.arange(1, 7)
    fit = kpca.PCA(2, standardize=True).fit(X)
    density = multivariate_normal(fit.mean_, fit.get_covariance()).logpdf(X)
    np.testing.assert_allclose(fit.score_samples(X), density, rtol=1e-9)
    np.testing.assert_allclose(
        fit.get_precision() @ fit.get_covariance(), np.eye(6), atol=1e-9
    )


def test_singular_model_has_no_density(rng):
    X = rng.normal(size=(40, 2)) @ rng.normal(size=(2, 5))  # rank 2 in 5-D
    fit = kpca.PCA(2).fit(X)
    assert fit.noise_variance_ == pytest.approx(0.0, abs=1e-12)
    for method in (fit.get_precision, lambda: fit.score(X)):
        with pytest.raises(ValueError, match="singular"):
            method()


# -- sparse and float32 ----------------------------------------------------------
@pytest.mark.parametrize("solver", ["covariance_eigh", "arpack", "randomized"])
@pytest.mark.parametrize("standardize", [False, True])
def test_sparse_data_are_centred_implicitly(solver, standardize):
    # Three strong directions (a spectral gap, so the randomized solver is
    # accurate too), and zeros in most entries.
    rng = np.random.default_rng(15)
    A = rng.normal(size=(120, 3)) * (rng.random((120, 3)) < 0.4)
    B = 5 * rng.normal(size=(3, 15)) * (rng.random((3, 15)) < 0.5)
    noise = 0.1 * rng.normal(size=(120, 15)) * (rng.random((120, 15)) < 0.2)
    dense = A @ B + noise
    X = scipy.sparse.csr_matrix(dense)
    kw = dict(svd_solver=solver, standardize=standardize, random_state=0)
    ours = kpca.PCA(3, **kw).fit(X)
    ref = kpca.PCA(3, svd_solver="full", standardize=standardize).fit(dense)
    np.testing.assert_allclose(
        ours.explained_variance_, ref.explained_variance_, rtol=1e-6
    )
    _assert_same_up_to_sign(ours.transform(X), ref.transform(dense), 1e-5)
    np.testing.assert_allclose(ours.transform(X), ours.transform(dense))
    if not standardize and solver == "arpack":
        theirs = decomposition.PCA(3, svd_solver="arpack").fit(X)
        _assert_same_up_to_sign(ours.transform(X), theirs.transform(X), 1e-7)


@pytest.mark.parametrize("solver", ["full", "gram"])
def test_dense_only_solvers_say_so(solver):
    X = scipy.sparse.csr_matrix(np.eye(5))
    with pytest.raises(TypeError, match=f"svd_solver='{solver}'"):
        kpca.PCA(2, svd_solver=solver).fit(X)


@pytest.mark.parametrize(
    "solver", ["full", "covariance_eigh", "gram", "arpack", "randomized"]
)
def test_float32_in_float32_out(solver):
    X = _low_rank_plus_noise(16).astype(np.float32)
    fit = kpca.PCA(3, svd_solver=solver, whiten=True, random_state=0).fit(X)
    ref = kpca.PCA(3, svd_solver="full", whiten=True).fit(X.astype(float))
    for name in ("components_", "explained_variance_", "mean_"):
        assert getattr(fit, name).dtype == np.float32, name
    Z = fit.transform(X)
    assert Z.dtype == np.float32
    assert fit.fit_transform(X).dtype == np.float32
    assert fit.inverse_transform(Z).dtype == np.float32
    np.testing.assert_allclose(
        fit.explained_variance_, ref.explained_variance_, rtol=1e-4
    )
    _assert_same_up_to_sign(Z, ref.transform(X.astype(float)), 1e-3)
    theirs = decomposition.PCA(3, random_state=0).fit(X)
    assert theirs.transform(X).dtype == Z.dtype


def test_float32_covariance_route_has_no_round_off_components():
    # Rank 3 in 8-D: a float32 product X^T X would give eigenvalues of about
    # 1e-7 of the largest, above the rank cut; the float64 accumulation not.
    rng = np.random.default_rng(17)
    X = (rng.normal(size=(500, 3)) @ rng.normal(size=(3, 8))).astype(
        np.float32
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = kpca.PCA(svd_solver="covariance_eigh").fit(X)
    assert fit.n_components_ == 3
