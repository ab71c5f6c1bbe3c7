"""partial_fit: chunks in any order give the model of fit on their union."""

from __future__ import annotations

import numpy as np
import pytest

from kpca import PCA, NystroemKernelPCA, RandomFourierKernelPCA


@pytest.fixture(scope="module")
def X():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 4))
    X[:, 1] += 2.0 * X[:, 0]
    return X + 5.0  # a mean away from zero


def _chunks_shuffled(X, n_chunks=5, seed=0):
    chunks = np.array_split(X, n_chunks)
    order = np.random.default_rng(seed).permutation(n_chunks)
    return [chunks[i] for i in order]


def _state(model):
    return {
        name: (value.copy() if isinstance(value, np.ndarray) else value)
        for name, value in vars(model).items()
        if name.endswith("_") or name.startswith("_")
    }


def _assert_same_state(a, b):
    assert a.keys() == b.keys()
    for name in a:
        if isinstance(a[name], np.ndarray):
            np.testing.assert_array_equal(a[name], b[name])


def _first_chunk_then_fit(X, make):
    chunks = _chunks_shuffled(X)
    model = make()
    for chunk in chunks:
        model.partial_fit(chunk)
    return model, chunks


def test_nystroem_partial_fit_equals_fit_with_its_landmarks(X):
    chunks = _chunks_shuffled(X)
    model = NystroemKernelPCA(3, sigma=2.0, n_landmarks=40, random_state=1)
    for chunk in chunks:
        model.partial_fit(chunk)
    # The landmarks are the first chunk's keyed uniform sample.
    first = NystroemKernelPCA(3, sigma=2.0, n_landmarks=40, random_state=1)
    np.testing.assert_array_equal(
        first.partial_fit(chunks[0]).landmarks_, model.landmarks_
    )
    fitted = NystroemKernelPCA(3, sigma=2.0, landmarks=model.landmarks_).fit(X)
    np.testing.assert_allclose(
        model.eigenvalues_, fitted.eigenvalues_, rtol=1e-10
    )
    np.testing.assert_allclose(
        model.kernel_col_means_, fitted.kernel_col_means_, rtol=1e-12
    )
    np.testing.assert_allclose(
        model.transform(X), fitted.transform(X), atol=1e-10
    )
    assert model.n_samples_ == X.shape[0]


def test_random_fourier_partial_fit_equals_fit(X):
    make = lambda: RandomFourierKernelPCA(  # noqa: E731
        3, sigma=2.0, n_random_features=80, random_state=2
    )
    model, _ = _first_chunk_then_fit(X, make)
    fitted = make().fit(X)
    np.testing.assert_allclose(
        model.eigenvalues_, fitted.eigenvalues_, rtol=1e-10
    )
    np.testing.assert_allclose(
        model.transform(X), fitted.transform(X), atol=1e-10
    )


@pytest.mark.parametrize("standardize", [False, True])
def test_pca_partial_fit_equals_fit(X, standardize):
    make = lambda: PCA(2, standardize=standardize)  # noqa: E731
    model, _ = _first_chunk_then_fit(X, make)
    fitted = make().fit(X)
    np.testing.assert_allclose(
        model.explained_variance_, fitted.explained_variance_, rtol=1e-10
    )
    np.testing.assert_allclose(model.mean_, fitted.mean_, rtol=1e-12)
    np.testing.assert_allclose(
        model.transform(X), fitted.transform(X), atol=1e-9
    )
    assert model.n_samples_ == X.shape[0]


def test_partial_fit_continues_a_fit_of_the_feature_pcas(X):
    make = lambda: RandomFourierKernelPCA(3, random_state=0)  # noqa: E731
    model = make().fit(X[:300]).partial_fit(X[300:])
    np.testing.assert_allclose(
        model.eigenvalues_, make().fit(X).eigenvalues_, rtol=1e-10
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: NystroemKernelPCA(2, n_landmarks=20),
        lambda: RandomFourierKernelPCA(2, n_random_features=20),
        lambda: PCA(2),
    ],
    ids=["nystroem", "random-fourier", "pca"],
)
def test_a_failed_partial_fit_leaves_the_model_unchanged(X, make):
    model = make().partial_fit(X[:200])
    before = _state(model)
    bad_width = np.ones((10, 3))
    with pytest.raises(ValueError, match="features"):
        model.partial_fit(bad_width)
    with_nan = X[:10].copy()
    with_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.partial_fit(with_nan)
    with pytest.raises(TypeError):
        model.partial_fit(c for c in [X[:10]])
    _assert_same_state(before, _state(model))
    # And it still works.
    model.partial_fit(X[200:])
    assert model.n_samples_ == X.shape[0]


def test_one_row_first_is_an_error_and_leaves_no_state(X):
    model = RandomFourierKernelPCA(2)
    with pytest.raises(ValueError, match="at least 2"):
        model.partial_fit(X[:1])
    assert not hasattr(model, "eigenvalues_")


def test_pca_partial_fit_needs_the_covariance_route(X):
    assert not hasattr(PCA(2, svd_solver="full"), "partial_fit")
    with pytest.raises(AttributeError, match="covariance_eigh"):
        PCA(2, svd_solver="randomized").partial_fit(X)


@pytest.mark.parametrize(
    "make",
    [
        lambda: NystroemKernelPCA(3, sigma=2.0, n_landmarks=40),
        lambda: RandomFourierKernelPCA(3, sigma=2.0, n_random_features=60),
    ],
)
def test_dask_ml_incremental_feeds_partial_fit(X, make):
    # dask-ml is not a dependency (it brings dask.dataframe and pyarrow):
    # this runs where it is installed.  The feature PCAs have no score
    # method, so Incremental needs a scoring callable.
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    wrappers = pytest.importorskip("dask_ml.wrappers")

    def total_variance(estimator, X, y=None):
        return float(np.sum(estimator.explained_variance_))

    Xd = da.from_array(X, chunks=(150, X.shape[1]))
    with dask.config.set(scheduler="sync"):
        wrapped = wrappers.Incremental(make(), scoring=total_variance)
        wrapped.fit(Xd)
        scores = wrapped.transform(Xd)
    model = wrapped.estimator_
    # Incremental feeds the blocks in a shuffled order: the landmarks are
    # those of the block it fed first.
    reference = make()
    if isinstance(reference, NystroemKernelPCA):
        reference.set_params(landmarks=model.landmarks_)
    reference.fit(X)
    np.testing.assert_allclose(
        model.eigenvalues_, reference.eigenvalues_, rtol=1e-10
    )
    assert isinstance(scores, da.Array)
    np.testing.assert_allclose(
        scores.compute(), reference.transform(X), rtol=0, atol=1e-10
    )
