import numpy as np
import pytest
from sklearn.preprocessing import KernelCenterer

import kpca
from kpca.centering import _CentredKernel


def test_center_kernel_is_HKH(rng):
    K = kpca.gaussian_kernel(rng.normal(size=(12, 3)))
    H = kpca.centering_matrix(12)
    np.testing.assert_allclose(kpca.center_kernel(K), H @ K @ H, atol=1e-14)


def test_centred_kernel_rows_sum_to_zero_and_input_untouched(rng):
    K = kpca.polynomial_kernel(rng.normal(size=(10, 2)), degree=3)
    before = K.copy()
    Kc = kpca.center_kernel(K)
    np.testing.assert_allclose(Kc.sum(axis=0), 0, atol=1e-10)
    np.testing.assert_allclose(Kc.sum(axis=1), 0, atol=1e-10)
    np.testing.assert_array_equal(K, before)


def test_center_kernel_equals_explicit_centring(rng):
    X = rng.normal(size=(8, 2))
    phi = kpca.polynomial_feature_map(X, degree=2)
    phi_c = phi - phi.mean(axis=0)
    np.testing.assert_allclose(
        kpca.center_kernel(kpca.polynomial_kernel(X)),
        phi_c @ phi_c.T,
        atol=1e-12,
    )


def test_center_test_kernel_matches_explicit_and_sklearn(rng):
    X, X_new = rng.normal(size=(9, 2)), rng.normal(size=(4, 2))
    phi, phi_new = (
        kpca.polynomial_feature_map(X),
        kpca.polynomial_feature_map(X_new),
    )
    mean = phi.mean(axis=0)
    expected = (phi_new - mean) @ (phi - mean).T
    K, K_new = kpca.polynomial_kernel(X), kpca.polynomial_kernel(X_new, X)
    got = kpca.center_test_kernel(K_new, K)
    np.testing.assert_allclose(got, expected, atol=1e-12)
    np.testing.assert_allclose(
        got, KernelCenterer().fit(K).transform(K_new), atol=1e-12
    )


def test_center_test_kernel_on_training_points(rng):
    K = kpca.gaussian_kernel(rng.normal(size=(7, 3)))
    np.testing.assert_allclose(
        kpca.center_test_kernel(K, K), kpca.center_kernel(K), atol=1e-15
    )


def test_centering_matrix_is_projection():
    H = kpca.centering_matrix(5)
    np.testing.assert_allclose(H @ H, H, atol=1e-15)
    np.testing.assert_allclose(H @ np.ones(5), 0, atol=1e-15)


def test_bad_inputs():
    with pytest.raises(ValueError, match="K must be a square matrix"):
        kpca.center_kernel(np.ones((2, 3)))
    with pytest.raises(ValueError, match="K contains NaN"):
        kpca.center_kernel(np.array([[1.0, np.nan], [np.nan, 1.0]]))
    with pytest.raises(ValueError, match="K_train must be a square matrix"):
        kpca.center_test_kernel(np.ones((2, 3)), np.ones((3, 2)))
    with pytest.raises(
        ValueError, match="K_test has 2 columns but K_train has 3"
    ):
        kpca.center_test_kernel(np.ones((2, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="n must be a positive integer"):
        kpca.centering_matrix(0)


@pytest.mark.parametrize("n", [40, 1700])  # 1700: the products are split
def test_centred_kernel_operator_products_equal_those_of_HKH(rng, n):
    # The eigensolvers never see K_c: products with rows, columns and single
    # vectors are folded into products with K, the column means found in the
    # first, whichever kind it is.
    K = kpca.gaussian_kernel(rng.normal(size=(n, 3)))
    K_c = kpca.center_kernel(K)
    rows, cols = rng.normal(size=(3, n)), rng.normal(size=(n, 2))
    for first in ("rows", "columns", "vector"):
        operator = _CentredKernel(K)
        if first == "rows":
            np.testing.assert_allclose(rows @ operator, rows @ K_c, atol=1e-12)
        if first == "vector":
            np.testing.assert_allclose(
                operator @ cols[:, 1], K_c @ cols[:, 1], atol=1e-12
            )
        np.testing.assert_allclose(operator @ cols, K_c @ cols, atol=1e-12)
        np.testing.assert_allclose(
            operator @ cols[:, 0], K_c @ cols[:, 0], atol=1e-12
        )
        np.testing.assert_allclose(rows @ operator, rows @ K_c, atol=1e-12)
        np.testing.assert_allclose(
            rows[0] @ operator, rows[0] @ K_c, atol=1e-12
        )
        np.testing.assert_allclose(operator.col_means, K.mean(axis=0))
    # Spent by materialize, which centres K in place.
    np.testing.assert_allclose(operator.materialize(), K_c, atol=1e-14)
    with pytest.raises(RuntimeError, match="materialized"):
        rows @ operator
