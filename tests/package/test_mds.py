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


def _distances(rng, n, kind):
    X = rng.normal(size=(n, 3))
    if kind == "cityblock":  # many negative eigenvalues
        D = np.abs(X[:, None, :] - X[None, :, :]).sum(axis=2)
    else:
        D = np.sqrt(kpca.squared_distances(X))
    if kind == "few violations":  # a few pairs too far apart
        for i, j, extra in [(0, 1, 3.0), (5, 9, 2.0), (20, 40, 2.5)]:
            D[i, j] = D[j, i] = D[i, j] + extra
    return D


@pytest.mark.parametrize("n", [90, 250])
@pytest.mark.parametrize("kind", ["euclidean", "few violations", "cityblock"])
def test_negative_mass_from_the_extremes_against_the_full_spectrum(
    rng, n, kind
):
    D = _distances(rng, n, kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kpca.NonEuclideanWarning)
        full = kpca.ClassicalMDS(2, metric="precomputed", spectrum="full")
        full.fit(D)
        ext = kpca.ClassicalMDS(2, metric="precomputed", spectrum="extremes")
        ext.fit(D)
    assert ext.spectrum_ is None and full.spectrum_.shape == (n,)
    np.testing.assert_allclose(ext.eigenvalues_, full.eigenvalues_, rtol=1e-9)
    np.testing.assert_allclose(ext.embedding_, full.embedding_, atol=1e-7)
    np.testing.assert_allclose(ext.strain_, full.strain_, rtol=1e-9)
    exact = full.negative_mass_
    assert full.negative_mass_bounds_ == (exact, exact)
    low, high = ext.negative_mass_bounds_
    assert ext.negative_mass_ == low
    spectrum = full.spectrum_
    cut = 1e-10 * np.abs(spectrum).max()
    negative = spectrum < -cut
    if kind == "euclidean":
        assert exact == 0.0 and (low, high) == (0.0, 0.0)
    elif negative.sum() < 16:
        # Every negative eigenvalue is among the smallest computed: exact,
        # up to the eigenvalues within the round-off cut, which the
        # extremes count as zero (2 n c / tr G relative at most).
        assert 0 < negative.sum() and low == high
        band = 2 * n * cut / np.trace(full.gram_)
        np.testing.assert_allclose(low, exact, rtol=band + 1e-9)
    else:
        # Bounds only; they hold the exact value and are not vacuous.
        assert negative.sum() >= 16
        assert low <= exact * (1 + 1e-9) and exact <= high * (1 + 1e-9)
        assert 0 < low and high < 1


def test_negative_mass_bounds_from_the_trace_identities():
    # The identities the bounds use, on a spectrum known in advance:
    # sum = trace, sum of squares = squared Frobenius norm.
    from kpca._spectrum import negative_mass_from_extremes

    spectrum = np.array([9.0, 4.0, 1.0, 0.5, -0.25, -0.5, -1.0, -2.0])
    negative = -spectrum[spectrum < 0].sum()
    exact = negative / np.abs(spectrum).sum()
    trace, frob2 = spectrum.sum(), np.sum(spectrum**2)
    top, n = spectrum[:2], spectrum.size
    # All four negatives among the five smallest: exact.
    found = negative_mass_from_extremes(
        trace, frob2, top, spectrum[::-1][:5], n, 1e-12
    )
    assert found.exact and found.count == 4
    assert found.low == pytest.approx(exact) == found.high
    # Two of them only: bounds that hold the exact value.
    found = negative_mass_from_extremes(
        trace, frob2, top, spectrum[::-1][:2], n, 1e-12
    )
    assert not found.exact and found.count == 2
    assert found.low < exact < found.high


def test_bad_spectrum_parameter():
    with pytest.raises(ValueError, match="spectrum"):
        kpca.ClassicalMDS(spectrum="partial").fit(IRIS)


def test_dissimilarities_symmetric_up_to_round_off_are_symmetrised(rng):
    D = _distances(rng, 300, "euclidean")
    D_asym = D.copy()
    D_asym[3, 290] *= 1 + 1e-13
    a = kpca.ClassicalMDS(2, metric="precomputed").fit(D_asym)
    np.testing.assert_array_equal(a.gram_, a.gram_.T)
    D_asym[3, 290] *= 1 + 1e-8
    with pytest.raises(ValueError, match="symmetric"):
        kpca.ClassicalMDS(2, metric="precomputed").fit(D_asym)
