"""kpca's estimators in scikit-learn's protocol: clone, parameters, pipelines, checks."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

import kpca

ESTIMATORS = [
    kpca.PCA(),
    kpca.PCA(n_components=2, standardize=True, svd_solver="gram"),
    kpca.PCA(n_components=2, whiten=True, svd_solver="randomized"),
    kpca.PCA(n_components=1, svd_solver="arpack"),
    kpca.KernelPCA(n_components=3),
    kpca.KernelPCA(kernel="polynomial", degree=3, eigen_solver="dense"),
    kpca.KernelPCA(n_components=2, kernel="precomputed"),
    kpca.KernelPCA(2, kernel="rbf", gamma=0.5, fit_inverse_transform=True),
    kpca.KernelPCA(2, kernel="poly", eigen_solver="randomized"),
    kpca.ClassicalMDS(),
    kpca.ClassicalMDS(n_components=2, metric="precomputed"),
    kpca.NystroemKernelPCA(2, n_landmarks=10),
    kpca.NystroemKernelPCA(2, n_landmarks=10, landmarks="kmeans"),
    kpca.RandomFourierKernelPCA(2, n_random_features=20),
]


with warnings.catch_warnings():
    # The checks warn that kpca does not inherit from sklearn's BaseEstimator:
    # on purpose, kpca implements the protocol without depending on sklearn.
    warnings.filterwarnings("ignore", message="Estimator .* does not inherit")
    CHECKS = parametrize_with_checks(ESTIMATORS)


@CHECKS
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


# scikit-learn skips one check on its own: check_array_api_input (kpca takes
# NumPy arrays only, and scikit-learn runs it only with SCIPY_ARRAY_API=1).
# No other check is excluded.


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_clone_and_parameters(estimator):
    params = estimator.get_params()
    copy = clone(estimator)
    assert copy is not estimator and copy.get_params() == params
    assert repr(copy) == repr(estimator)
    with pytest.raises(ValueError, match="invalid parameter 'bogus'"):
        copy.set_params(bogus=1)
    assert copy.set_params(n_components=1) is copy
    assert copy.n_components == 1 and estimator.get_params() == params


def test_repr_shows_only_changed_parameters():
    assert repr(kpca.KernelPCA()) == "KernelPCA()"
    assert (
        repr(kpca.KernelPCA(2, sigma=0.5))
        == "KernelPCA(n_components=2, sigma=0.5)"
    )
    assert repr(kpca.PCA(standardize=True)) == "PCA(standardize=True)"


@pytest.mark.parametrize(
    "make", [lambda: kpca.KernelPCA(2, "gaussian"), lambda: kpca.PCA(2, True)]
)
def test_parameters_after_n_components_are_keyword_only(make):
    with pytest.raises(TypeError, match="positional argument"):
        make()


def test_pipeline_and_grid_search_over_sigma():
    from sklearn.datasets import make_circles
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import Pipeline

    X, y = make_circles(n_samples=200, noise=0.05, factor=0.4, random_state=0)
    pipe = Pipeline(
        [("kpca", kpca.KernelPCA(4)), ("clf", LogisticRegression())]
    )
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(pipe, {"kpca__sigma": [0.02, 0.3, 10.0]}, cv=folds)
    search.fit(X, y)
    # The rings become linearly separable after a Gaussian kernel PCA whose
    # width is near their gap; far narrower or wider widths do not separate.
    assert search.best_params_ == {"kpca__sigma": 0.3}
    narrow, best, wide = search.cv_results_["mean_test_score"]
    assert best > 0.95 and narrow < 0.8 and wide < 0.8


def test_n_features_in_everywhere(rng):
    X = rng.normal(size=(20, 3))
    assert kpca.PCA().fit(X).n_features_in_ == 3
    assert kpca.KernelPCA().fit(X).n_features_in_ == 3
    assert kpca.ClassicalMDS().fit(X).n_features_in_ == 3
    K = kpca.gaussian_kernel(X)
    assert kpca.KernelPCA(kernel="precomputed").fit(K).n_features_in_ == 20


def test_failed_refit_leaves_the_fitted_model_intact(rng):
    X = rng.normal(size=(30, 3))
    X_new = rng.normal(size=(5, 3))
    for model, bad in [
        (kpca.PCA(2), np.ones((5, 3))),  # zero variance
        (kpca.PCA(2, standardize=True), np.c_[X[:, :2], np.ones(30)]),
        (kpca.KernelPCA(2, kernel="linear"), np.ones((5, 3))),
        (kpca.KernelPCA(2), X[:1]),  # one sample
    ]:
        before = model.fit(X).transform(X_new)
        state = {
            k: np.copy(v) for k, v in vars(model).items() if k.endswith("_")
        }
        with pytest.raises(ValueError):
            model.fit(bad)
        for name, value in state.items():
            np.testing.assert_array_equal(
                getattr(model, name), value, err_msg=name
            )
        np.testing.assert_array_equal(model.transform(X_new), before)


def test_fitted_models_do_not_alias_the_callers_data(rng):
    X = rng.normal(size=(30, 3))
    X_new = rng.normal(size=(5, 3))
    kp = kpca.KernelPCA(2).fit(X)
    pca = kpca.PCA(2).fit(X)
    before = kp.transform(X_new), pca.transform(X_new)
    X[:] = 0.0
    np.testing.assert_array_equal(kp.transform(X_new), before[0])
    np.testing.assert_array_equal(pca.transform(X_new), before[1])
    K = kpca.gaussian_kernel(rng.normal(size=(10, 2)))
    K_before = K.copy()
    kpca.KernelPCA(kernel="precomputed").fit(K)
    np.testing.assert_array_equal(K, K_before)


def test_scores_from_kernel_validates_like_transform(rng):
    X = rng.normal(size=(30, 3))
    kp = kpca.KernelPCA(2).fit(X)
    K_new = kpca.gaussian_kernel(X[:4], X)
    np.testing.assert_allclose(
        kp.scores_from_kernel(K_new.tolist()), kp.transform(X[:4]), atol=1e-12
    )
    with pytest.raises(
        ValueError, match="K_new has 29 features, but KernelPCA"
    ):
        kp.scores_from_kernel(K_new[:, 1:])
    with pytest.raises(ValueError, match="K_new contains NaN"):
        kp.scores_from_kernel(np.full((1, 30), np.nan))
    with pytest.raises(ValueError, match="not fitted"):
        kpca.KernelPCA().scores_from_kernel(K_new)


def test_set_params_after_fit_does_not_change_the_fitted_centring(rng):
    X = rng.normal(size=(30, 3))
    kp = kpca.KernelPCA(2).fit(X)
    before = kp.transform(X[:3])
    kp.set_params(center=False)
    np.testing.assert_array_equal(kp.transform(X[:3]), before)


def test_mds_of_coincident_points_has_no_nan():
    with pytest.warns(kpca.NonEuclideanWarning, match="only 0 of"):
        mds = kpca.ClassicalMDS(2).fit(np.ones((4, 3)))
    for name, value in vars(mds).items():
        if name.endswith("_"):
            assert np.all(np.isfinite(value)), name
    assert mds.negative_mass_ == 0.0
    np.testing.assert_array_equal(mds.embedding_, 0.0)


def test_mds_dissimilarity_is_a_deprecated_alias_of_metric(rng):
    X = rng.normal(size=(8, 2))
    D = np.sqrt(kpca.squared_distances(X))
    new = kpca.ClassicalMDS(2, metric="precomputed").fit(D)
    with pytest.warns(FutureWarning, match="use metric='precomputed'"):
        old = kpca.ClassicalMDS(2, dissimilarity="precomputed").fit(D)
    np.testing.assert_array_equal(old.embedding_, new.embedding_)
