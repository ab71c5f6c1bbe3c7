"""The packed symmetric kernel matrix: the same matrix, half the memory."""

import tracemalloc

import numpy as np
import pytest

import kpca
from kpca import KernelPCA
from kpca._packed import PackedSymmetric
from kpca.centering import _CentredKernel
from kpca.eigen import _krylov
from kpca.kernels import packed_gram

KERNELS = {
    "linear": kpca.linear_kernel,
    "polynomial": lambda X: kpca.polynomial_kernel(X, degree=3),
    "gaussian": lambda X: kpca.gaussian_kernel(X, sigma=1.5),
    "sigmoid": lambda X: kpca.sigmoid_kernel(X, gamma=0.2, coef0=0.1),
    "cosine": kpca.cosine_kernel,
}


@pytest.mark.parametrize("name", sorted(KERNELS))
@pytest.mark.parametrize("n", [1, 3, 511, 512, 513, 1100])
def test_packed_kernel_is_the_dense_kernel_exactly(name, n, rng):
    X = rng.normal(size=(n, 4))
    dense = KERNELS[name](X)
    with packed_gram():
        packed = KERNELS[name](X)
    assert isinstance(packed, PackedSymmetric)
    assert packed.shape == (n, n) and packed.dtype == dense.dtype
    np.testing.assert_array_equal(packed.to_dense(), dense)
    np.testing.assert_array_equal(packed.diagonal(), np.diag(dense))
    assert packed.trace() == pytest.approx(np.trace(dense), rel=1e-14)
    assert packed.peak() == np.abs(dense).max()
    assert packed.frobenius_norm() == pytest.approx(
        np.linalg.norm(dense), rel=1e-13
    )
    # Outside the context, and for a kernel between two sets, dense again.
    assert isinstance(KERNELS[name](X), np.ndarray)
    with packed_gram():
        assert isinstance(kpca.linear_kernel(X, X[:2]), np.ndarray)


def test_packed_matrix_stores_the_upper_triangle_once(rng):
    n = 1100  # three panels of 512, 512 and 76 rows
    with packed_gram():
        packed = kpca.gaussian_kernel(rng.normal(size=(n, 3)))
    stored = sum(panel.size for panel in packed.panels)
    assert stored == 512 * n + 512 * (n - 512) + 76 * 76
    assert stored < 0.75 * n * n


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [5, 700, 1100])
def test_packed_products_are_the_dense_products(n, dtype, rng):
    X = rng.normal(size=(n, 3)).astype(dtype)
    dense = kpca.gaussian_kernel(X)
    with packed_gram():
        packed = kpca.gaussian_kernel(X)
    rows, cols, x = (
        rng.normal(size=(6, n)),
        rng.normal(size=(n, 4)),
        rng.normal(size=n),
    )
    # In the matrix's precision: float32 products carry float32 round-off.
    tol = 1e-12 if dtype == np.float64 else 1e-4
    exact = dense.astype(float)
    for got, want in [
        (rows @ packed, rows @ exact),
        (packed @ cols, exact @ cols),
        (packed @ x, exact @ x),
        (x @ packed, x @ exact),
        (rows.T.copy().T @ packed, rows @ exact),  # rows not contiguous
    ]:
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=0, atol=tol * n)
    with pytest.raises(ValueError, match="does not match"):
        packed @ np.ones(n + 1)


def test_centred_operator_on_the_packed_matrix(rng):
    n = 1100
    X = rng.normal(size=(n, 3))
    K = kpca.gaussian_kernel(X)
    K_c = kpca.center_kernel(K)
    with packed_gram():
        packed = kpca.gaussian_kernel(X)
    rows, cols = rng.normal(size=(3, n)), rng.normal(size=(n, 2))
    for first in ("means", "rows", "vector"):
        operator = _CentredKernel(packed)
        if first == "means":
            np.testing.assert_allclose(
                operator.col_means, K.mean(axis=0), rtol=1e-13
            )
        if first == "vector":
            np.testing.assert_allclose(
                operator @ cols[:, 0], K_c @ cols[:, 0], atol=1e-10
            )
        np.testing.assert_allclose(rows @ operator, rows @ K_c, atol=1e-10)
        np.testing.assert_allclose(operator @ cols, K_c @ cols, atol=1e-10)
        np.testing.assert_allclose(
            operator.col_means, K.mean(axis=0), rtol=1e-13
        )
    np.testing.assert_allclose(operator.materialize(), K_c, atol=1e-13)
    assert packed.panels is None  # released
    with pytest.raises(RuntimeError, match="materialized"):
        packed @ cols


def _fit_peak(model, X):
    tracemalloc.start()
    try:
        model.fit(X)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("kernel", ["rbf", "poly", "sigmoid", "cosine"])
def test_kernel_pca_on_the_packed_matrix_equals_the_dense_fit(kernel, rng):
    n = 1300
    X = rng.normal(size=(n, 4))
    model = KernelPCA(n_components=4, kernel=kernel, gamma=0.1, coef0=0.5)
    packed = model.fit_transform(X)
    # The same model on the precomputed (dense) kernel matrix.
    K = model.kernel_function()(X)
    dense = KernelPCA(n_components=4, kernel="precomputed").fit(K)
    np.testing.assert_allclose(
        model.eigenvalues_, dense.eigenvalues_, rtol=1e-10
    )
    np.testing.assert_allclose(
        np.abs(packed), np.abs(dense.transform(K)), atol=1e-7
    )
    np.testing.assert_allclose(model.kernel_col_means_, K.mean(axis=0))
    np.testing.assert_allclose(model.transform(X[:5]), packed[:5], atol=1e-8)


def test_kernel_pca_keeps_half_the_kernel_matrix(rng):
    n = 3000
    X = rng.normal(size=(n, 5))
    # The fit holds the upper triangle in panels of 512 rows (60 % of the
    # matrix at this order) and the solver's basis (200 vectors, 7 %): the
    # whole matrix alone would be 72 MB.
    peak = _fit_peak(KernelPCA(n_components=5, kernel="rbf"), X)
    assert peak < 0.75 * n * n * 8


def test_a_failed_iterative_answer_falls_back_to_the_whole_matrix(
    rng, monkeypatch
):
    n = 1300
    X = rng.normal(size=(n, 3))
    want = KernelPCA(n_components=3, kernel="rbf", eigen_solver="dense").fit(X)
    monkeypatch.setattr(_krylov, "pair_lanczos", lambda *args: None)
    monkeypatch.setattr(_krylov, "lanczos", lambda *args: None)
    got = KernelPCA(n_components=3, kernel="rbf").fit(X)
    np.testing.assert_allclose(got.eigenvalues_, want.eigenvalues_, rtol=1e-12)
    np.testing.assert_allclose(
        got.kernel_col_means_, want.kernel_col_means_, rtol=1e-13
    )


def test_sparse_data_give_the_same_packed_fit(rng):
    import scipy.sparse

    X = rng.normal(size=(900, 6))
    X[rng.random(X.shape) < 0.6] = 0.0
    dense = KernelPCA(n_components=3, kernel="rbf", gamma=0.2).fit(X)
    sparse = KernelPCA(n_components=3, kernel="rbf", gamma=0.2).fit(
        scipy.sparse.csr_matrix(X)
    )
    np.testing.assert_allclose(
        sparse.eigenvalues_, dense.eigenvalues_, rtol=1e-12
    )
