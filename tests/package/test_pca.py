import warnings

import numpy as np
import pytest
from sklearn import decomposition
from sklearn.datasets import load_iris
from sklearn.preprocessing import StandardScaler
from utils import assert_equal_up_to_sign

import kpca

IRIS = load_iris().data


@pytest.mark.parametrize("solver", ["covariance_eigh", "gram", "full", "auto"])
def test_matches_sklearn_up_to_sign(solver):
    Z = kpca.PCA(n_components=3, svd_solver=solver).fit_transform(IRIS)
    Z_ref = decomposition.PCA(n_components=3).fit_transform(IRIS)
    assert_equal_up_to_sign(Z, Z_ref, atol=1e-9)


def test_solvers_identical_with_sign_convention(rng):
    X = rng.normal(size=(40, 6)) @ rng.normal(size=(6, 6))
    fits = [
        kpca.PCA(4, svd_solver=s).fit(X)
        for s in ("covariance_eigh", "gram", "full")
    ]
    for f in fits[1:]:
        np.testing.assert_allclose(
            f.components_, fits[0].components_, atol=1e-9
        )
        np.testing.assert_allclose(
            f.explained_variance_, fits[0].explained_variance_, rtol=1e-10
        )


def test_wide_data_gram_and_covariance_agree(rng):
    X = rng.normal(size=(15, 200))
    a = kpca.PCA(svd_solver="gram").fit(X)
    b = kpca.PCA(svd_solver="covariance_eigh").fit(X)
    assert (
        a.n_components_ == b.n_components_ == 14
    )  # rank of centred data is n - 1
    np.testing.assert_allclose(a.components_, b.components_, atol=1e-8)
    np.testing.assert_allclose(
        a.components_ @ a.components_.T, np.eye(14), atol=1e-10
    )


def test_standardised_iris_numbers():
    pca = kpca.PCA(standardize=True).fit(IRIS)
    np.testing.assert_allclose(
        pca.explained_variance_ratio_[:2].sum(), 0.9581, atol=1e-4
    )
    np.testing.assert_allclose(
        pca.explained_variance_ratio_.round(4),
        [0.7296, 0.2285, 0.0367, 0.0052],
    )
    np.testing.assert_allclose(pca.explained_variance_.sum(), 4.0, rtol=1e-12)
    np.testing.assert_allclose(pca.scale_, IRIS.std(axis=0))
    Z = pca.transform(IRIS)
    Z_ref = decomposition.PCA().fit_transform(
        StandardScaler().fit_transform(IRIS)
    )
    assert_equal_up_to_sign(Z, Z_ref, atol=1e-9)


def test_centred_iris_ratios():
    r = kpca.PCA().fit(IRIS).explained_variance_ratio_
    np.testing.assert_allclose(r[:2].round(4), [0.9246, 0.0531])


def test_explained_variance_is_score_variance_one_over_n(rng):
    X = rng.normal(size=(50, 4))
    pca = kpca.PCA().fit(X)
    np.testing.assert_allclose(
        pca.transform(X).var(axis=0), pca.explained_variance_, rtol=1e-10
    )
    np.testing.assert_allclose(
        pca.singular_values_**2 / 50, pca.explained_variance_, rtol=1e-12
    )
    np.testing.assert_allclose(
        pca.total_variance_, X.var(axis=0).sum(), rtol=1e-12
    )


def test_inverse_transform_round_trip(rng):
    X = rng.normal(size=(30, 5))
    for standardize in (False, True):
        pca = kpca.PCA(standardize=standardize).fit(X)
        np.testing.assert_allclose(
            pca.inverse_transform(pca.transform(X)), X, atol=1e-10
        )


def test_sign_convention_on_components():
    C = kpca.PCA().fit(IRIS).components_
    idx = np.argmax(np.abs(C), axis=1)
    assert np.all(C[np.arange(len(C)), idx] > 0)


def test_rank_deficient_warns_and_keeps_rank(rng):
    X = rng.normal(size=(20, 2)) @ rng.normal(size=(2, 5))
    with pytest.warns(RuntimeWarning, match="exceeds the numerical rank 2"):
        pca = kpca.PCA(n_components=4).fit(X)
    assert pca.n_components_ == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kpca.PCA().fit(X).n_components_ == 2


# -- bad input -----------------------------------------------------------------
@pytest.mark.parametrize(
    "n_components, exc",
    [
        (0, ValueError),
        (5, ValueError),
        (2.0, ValueError),  # a float is a share of the variance, in (0, 1)
        ("2", ValueError),  # the one string is "mle"
        (True, TypeError),
    ],
)
def test_bad_n_components(n_components, exc):
    with pytest.raises(exc, match="n_components"):
        kpca.PCA(n_components=n_components).fit(IRIS)


def test_bad_solver():
    with pytest.raises(ValueError, match="svd_solver must be one of"):
        kpca.PCA(svd_solver="eig").fit(IRIS)
    with pytest.raises(ValueError, match="solver must be one of"):
        kpca.PCA(solver="eig").fit(IRIS)


def test_transform_before_fit():
    with pytest.raises(ValueError, match="not fitted yet"):
        kpca.PCA().transform(IRIS)


def test_feature_mismatch():
    pca = kpca.PCA(2).fit(IRIS)
    with pytest.raises(
        ValueError,
        match="X has 3 features, but PCA is expecting 4 features as input",
    ):
        pca.transform(IRIS[:, :3])
    with pytest.raises(ValueError, match="Z has 3 columns"):
        pca.inverse_transform(np.ones((2, 3)))


def test_nan_and_empty():
    X = IRIS.copy()
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        kpca.PCA().fit(X)
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        kpca.PCA().fit(np.empty((0, 3)))


def test_constant_feature_cannot_be_standardized():
    X = np.column_stack([IRIS[:, 0], np.full(150, 2.5)])
    with pytest.raises(ValueError, match=r"constant feature\(s\) \[1\]"):
        kpca.PCA(standardize=True).fit(X)


def test_zero_variance_data():
    with pytest.raises(ValueError, match="zero variance"):
        kpca.PCA().fit(np.ones((5, 3)))


def test_bad_standardize():
    with pytest.raises(TypeError, match="standardize"):
        kpca.PCA(standardize="yes").fit(IRIS)
