"""Feature names, set_output, float32 and sparse input for every estimator.

scikit-learn's transformers are the reference: the same names, the same
DataFrame output inside a Pipeline, the same dtype rules, and sparse input
giving the results of the dense input.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse
from sklearn import decomposition
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import kpca

pd = pytest.importorskip("pandas")


def _data(n=60, d=4, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


ESTIMATORS = {
    "PCA": lambda: kpca.PCA(2),
    "KernelPCA": lambda: kpca.KernelPCA(2, sigma=2.0),
    "NystroemKernelPCA": lambda: kpca.NystroemKernelPCA(
        2, sigma=2.0, n_landmarks=20
    ),
    "RandomFourierKernelPCA": lambda: kpca.RandomFourierKernelPCA(
        2, sigma=2.0, n_random_features=50
    ),
    "ClassicalMDS": lambda: kpca.ClassicalMDS(2),
}


def _embed(model, X):
    return model.fit_transform(X)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_feature_names_in_and_out(name):
    X = pd.DataFrame(_data(), columns=["a", "b", "c", "d"])
    model = ESTIMATORS[name]().fit(X)
    assert model.n_features_in_ == 4
    assert model.feature_names_in_.tolist() == ["a", "b", "c", "d"]
    prefix = name.lower()
    assert model.get_feature_names_out().tolist() == [
        f"{prefix}0",
        f"{prefix}1",
    ]
    assert model.get_feature_names_out(["a", "b", "c", "d"]).shape == (2,)
    with pytest.raises(ValueError, match="input_features"):
        model.get_feature_names_out(["a", "b", "c", "x"])
    # A plain array leaves no names behind, also after a refit.
    model.fit(X.to_numpy())
    assert not hasattr(model, "feature_names_in_")


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (kpca.PCA(2), decomposition.PCA(2)),
        (kpca.KernelPCA(2), decomposition.KernelPCA(2, kernel="rbf")),
    ],
)
def test_output_names_are_scikit_learns(ours, theirs):
    X = _data()
    assert (
        ours.fit(X).get_feature_names_out().tolist()
        == theirs.fit(X).get_feature_names_out().tolist()
    )


@pytest.mark.parametrize("name", ["PCA", "KernelPCA", "NystroemKernelPCA"])
def test_names_are_checked_in_transform(name):
    X = pd.DataFrame(_data(), columns=["a", "b", "c", "d"])
    model = ESTIMATORS[name]().fit(X)
    with pytest.raises(ValueError, match="feature names should match"):
        model.transform(X.rename(columns={"a": "z"}))
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        model.transform(X.to_numpy())
    plain = ESTIMATORS[name]().fit(X.to_numpy())
    with pytest.warns(UserWarning, match="fitted without feature names"):
        plain.transform(X)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_set_output_pandas(name):
    index = pd.Index([f"row{i}" for i in range(60)])
    X = pd.DataFrame(_data(), columns=list("abcd"), index=index)
    model = ESTIMATORS[name]().set_output(transform="pandas")
    Z = _embed(model, X)
    assert isinstance(Z, pd.DataFrame)
    assert Z.columns.tolist() == model.get_feature_names_out().tolist()
    assert Z.index.equals(index)
    plain = ESTIMATORS[name]()
    np.testing.assert_allclose(Z.to_numpy(), _embed(plain, X.to_numpy()))
    if hasattr(model, "transform"):
        assert isinstance(model.transform(X), pd.DataFrame)
        model.set_output(transform="default")
        assert isinstance(model.transform(X), np.ndarray)
    # clone keeps the choice, as scikit-learn's clone does.
    assert clone(
        ESTIMATORS[name]().set_output(transform="pandas")
    )._sklearn_output_config == {"transform": "pandas"}


def test_set_output_in_a_pipeline_like_scikit_learn():
    X = pd.DataFrame(_data(), columns=list("abcd"))
    ours = make_pipeline(StandardScaler(), kpca.PCA(2))
    theirs = make_pipeline(StandardScaler(), decomposition.PCA(2))
    Z = ours.set_output(transform="pandas").fit_transform(X)
    Z_ref = theirs.set_output(transform="pandas").fit_transform(X)
    assert Z.columns.tolist() == Z_ref.columns.tolist() == ["pca0", "pca1"]
    signs = np.sign(np.sum(Z.to_numpy() * Z_ref.to_numpy(), axis=0))
    np.testing.assert_allclose(
        Z.to_numpy() * signs, Z_ref.to_numpy(), atol=1e-9
    )


def test_set_output_rejects_unknown_containers():
    with pytest.raises(ValueError, match="transform must be one of"):
        kpca.PCA().set_output(transform="polars-ish")
    model = kpca.PCA(2)
    assert model.set_output() is model  # None leaves it as it is


# -- float32 ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ESTIMATORS)
def test_float32_in_float32_out(name):
    X = _data(seed=1)
    Z64 = _embed(ESTIMATORS[name](), X)
    model = ESTIMATORS[name]()
    Z32 = _embed(model, X.astype(np.float32))
    assert Z32.dtype == np.float32
    if hasattr(model, "transform"):
        assert model.transform(X.astype(np.float32)).dtype == np.float32
    signs = np.sign(np.sum(Z32 * Z64, axis=0))
    np.testing.assert_allclose(Z32 * signs, Z64, atol=1e-4)


def test_float32_kernel_pca_works_in_float32_like_scikit_learn():
    X = _data(n=200, d=5, seed=2).astype(np.float32)
    ours = kpca.KernelPCA(3, kernel="linear")
    theirs = decomposition.KernelPCA(3, kernel="linear")
    Z, Z_ref = ours.fit_transform(X), theirs.fit_transform(X)
    assert Z.dtype == Z_ref.dtype == np.float32
    # The kernel matrix itself is float32 (half the memory of float64).
    assert kpca.gaussian_kernel(X).dtype == np.float32
    signs = np.sign(np.sum(Z * Z_ref, axis=0))
    np.testing.assert_allclose(Z * signs, Z_ref, atol=1e-4)


def test_float32_rank_cut_drops_round_off_eigenvalues():
    # A rank-2 linear kernel: in float32 its zero eigenvalues come out at
    # about 1e-7 of the trace, and must not become components.
    rng = np.random.default_rng(3)
    X = (rng.normal(size=(80, 2)) @ rng.normal(size=(2, 6))).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        model = kpca.KernelPCA(kernel="linear").fit(X)
    assert model.n_components_ == 2


# -- sparse ------------------------------------------------------------------------
def _sparse_data(seed=4):
    rng = np.random.default_rng(seed)
    dense = rng.normal(size=(70, 12)) * (rng.random((70, 12)) < 0.3)
    return dense, scipy.sparse.csr_matrix(dense)


@pytest.mark.parametrize(
    "make",
    [
        lambda: kpca.KernelPCA(3, kernel="linear"),
        lambda: kpca.KernelPCA(3, kernel="polynomial", degree=2),
        lambda: kpca.KernelPCA(3, sigma=1.5),
        lambda: kpca.NystroemKernelPCA(3, sigma=1.5, n_landmarks=30),
        lambda: kpca.RandomFourierKernelPCA(
            3, sigma=1.5, n_random_features=40
        ),
        lambda: kpca.ClassicalMDS(3),
        lambda: kpca.PCA(3),
    ],
)
def test_sparse_input_gives_the_dense_results(make):
    dense, X = _sparse_data()
    Z_sparse = make().fit_transform(X)
    Z_dense = make().fit_transform(dense)
    np.testing.assert_allclose(Z_sparse, Z_dense, atol=1e-10)
    model = make().fit(X)
    if hasattr(model, "transform"):
        np.testing.assert_allclose(
            model.transform(X[:5]), model.transform(dense[:5]), atol=1e-10
        )


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_sparse_kernel_pca_matches_scikit_learn(fmt):
    dense, X = _sparse_data(5)
    X = X.asformat(fmt)
    ours = kpca.KernelPCA(3, sigma=1.5).fit_transform(X)
    theirs = decomposition.KernelPCA(
        3, kernel="rbf", gamma=1 / (2 * 1.5**2), eigen_solver="dense"
    ).fit_transform(X)
    signs = np.sign(np.sum(ours * theirs, axis=0))
    np.testing.assert_allclose(ours * signs, theirs, atol=1e-9)


def test_sparse_is_refused_where_the_algorithm_cannot_take_it():
    _, X = _sparse_data()
    K = scipy.sparse.csr_matrix(np.eye(5))
    with pytest.raises(TypeError, match="sparse"):
        kpca.KernelPCA(kernel="precomputed").fit(K)
    with pytest.raises(TypeError, match="sparse"):
        kpca.KernelPCA(kernel=lambda A, B: A @ B.T).fit(X)
    with pytest.raises(TypeError, match="sparse"):
        kpca.ClassicalMDS(metric="precomputed").fit(K)
