import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from utils import assert_equal_up_to_sign

import kpca

IRIS = load_iris().data


def test_double_center_gives_gram_of_centred_data(rng):
    X = rng.normal(size=(10, 3))
    Xc = X - X.mean(axis=0)
    np.testing.assert_allclose(
        kpca.double_center(kpca.squared_distances(X)), Xc @ Xc.T, atol=1e-12
    )


def test_euclidean_mds_equals_pca_scores():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Y = kpca.ClassicalMDS(n_components=3).fit_transform(IRIS)
    assert_equal_up_to_sign(Y, kpca.PCA(3).fit_transform(IRIS), atol=1e-8)
    np.testing.assert_allclose(
        Y, kpca.KernelPCA(3, kernel="linear").fit_transform(IRIS), atol=1e-8
    )


def test_precomputed_matches_euclidean(rng):
    X = rng.normal(size=(15, 4))
    D = np.sqrt(kpca.squared_distances(X))
    a = kpca.ClassicalMDS(2, metric="precomputed").fit(D)
    b = kpca.ClassicalMDS(2).fit(X)
    np.testing.assert_allclose(a.embedding_, b.embedding_, atol=1e-9)
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=1e-10)


def test_full_dimension_reproduces_distances(rng):
    X = rng.normal(size=(8, 3))
    Y = kpca.ClassicalMDS(3).fit_transform(X)
    np.testing.assert_allclose(
        kpca.squared_distances(Y), kpca.squared_distances(X), atol=1e-10
    )


def test_strain_is_sum_of_discarded_squared_eigenvalues(rng):
    X = rng.normal(size=(12, 5))
    for d in range(1, 6):
        m = kpca.ClassicalMDS(d).fit(X)
        np.testing.assert_allclose(
            m.strain_, np.sum(m.spectrum_[d:] ** 2), rtol=1e-8, atol=1e-10
        )


def test_non_euclidean_dissimilarities_warn_and_never_nan():
    # Four points, one pair "too far": violates the triangle inequality.
    D = np.array(
        [[0, 1, 1, 5], [1, 0, 1, 1], [1, 1, 0, 1], [5, 1, 1, 0]], dtype=float
    )
    with pytest.warns(kpca.NonEuclideanWarning):
        m = kpca.ClassicalMDS(3, metric="precomputed").fit(D)
    assert np.all(np.isfinite(m.embedding_))
    assert m.spectrum_.min() < 0 and m.negative_mass_ > 0
    positive = m.eigenvalues_ > 0
    np.testing.assert_array_equal(m.embedding_[:, ~positive], 0.0)


def test_bad_inputs():
    with pytest.raises(ValueError, match="must not have negative entries"):
        kpca.ClassicalMDS(metric="precomputed").fit(
            np.array([[0.0, -1.0], [-1.0, 0.0]])
        )
    with pytest.raises(ValueError, match="zero diagonal"):
        kpca.ClassicalMDS(metric="precomputed").fit(
            np.array([[1.0, 1.0], [1.0, 0.0]])
        )
    with pytest.raises(ValueError, match="must be symmetric"):
        kpca.ClassicalMDS(metric="precomputed").fit(
            np.array([[0.0, 1.0], [2.0, 0.0]])
        )
    with pytest.raises(ValueError, match="square"):
        kpca.ClassicalMDS(metric="precomputed").fit(np.ones((2, 3)))
    with pytest.raises(
        ValueError, match="n_components must be between 1 and 5"
    ):
        kpca.ClassicalMDS(n_components=6).fit(
            np.random.default_rng(0).normal(size=(5, 2))
        )
    with pytest.raises(ValueError, match="dissimilarity must be one of"):
        kpca.ClassicalMDS(dissimilarity="cosine").fit(IRIS)
    with pytest.raises(ValueError, match="at least 2 points"):
        kpca.ClassicalMDS(n_components=1).fit(np.ones((1, 2)))
    with pytest.raises(ValueError, match="NaN"):
        kpca.ClassicalMDS().fit(np.array([[0.0, np.nan], [1.0, 1.0]]))
    with pytest.raises(ValueError, match="D2 must be symmetric"):
        kpca.double_center(np.array([[0.0, 1.0], [2.0, 0.0]]))
