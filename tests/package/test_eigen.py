import functools
import warnings

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse.linalg
from sklearn.datasets import make_circles

import kpca
from kpca._threads import rows_times
from kpca.eigen import align_signs, top_eigenpairs


@functools.cache
def _orthogonal(n):
    Q, _ = np.linalg.qr(np.random.default_rng(n).normal(size=(n, n)))
    Q.setflags(write=False)
    return Q


def _psd(rng, n, decay=0.8):
    """Symmetric, eigenvalues decay**i, in a random (cached) basis."""
    Q = _orthogonal(n)
    A = (Q * decay ** np.arange(n)) @ Q.T
    return 0.5 * (A + A.T)


@pytest.mark.blas_regression
@pytest.mark.parametrize(
    "solver", ["dense", "lanczos", "subspace", "arpack", "auto"]
)
def test_solvers_agree_with_full_eigh(rng, solver):
    A = _psd(rng, 700)
    w, V = top_eigenpairs(A, 6, solver=solver)
    w_ref, V_ref = np.linalg.eigh(A)
    np.testing.assert_allclose(w, w_ref[::-1][:6], rtol=1e-9)
    np.testing.assert_allclose(
        V, align_signs(V_ref[:, ::-1][:, :6]), atol=1e-7
    )


def test_auto_on_large_kernel_matches_dense(rng):
    K = kpca.center_kernel(
        kpca.gaussian_kernel(rng.normal(size=(1500, 5)), sigma=2.0)
    )
    w_a, V_a = top_eigenpairs(K, 8, solver="auto")
    w_d, V_d = top_eigenpairs(K, 8, solver="dense")
    np.testing.assert_allclose(w_a, w_d, rtol=1e-10)
    np.testing.assert_allclose(V_a, V_d, atol=1e-6)


def test_all_eigenpairs_when_k_none(rng):
    A = _psd(rng, 20)
    w, V = top_eigenpairs(A)
    assert w.shape == (20,) and np.all(np.diff(w) <= 0)
    np.testing.assert_allclose(V @ np.diag(w) @ V.T, A, atol=1e-12)


def test_sign_convention(rng):
    V = align_signs(rng.normal(size=(9, 4)))
    idx = np.argmax(np.abs(V), axis=0)
    assert np.all(V[idx, np.arange(4)] > 0)
    np.testing.assert_array_equal(align_signs(-V), V)


def test_subspace_warns_when_not_converged(rng):
    A = _psd(rng, 300, decay=0.999)
    with pytest.warns(RuntimeWarning, match="did not reach"):
        top_eigenpairs(A, 5, solver="subspace", max_iter=2)


def test_auto_falls_back_to_dense_when_not_converged(rng):
    A = _psd(rng, 700, decay=0.9999)
    w, _ = top_eigenpairs(A, 5, solver="auto", max_iter=3)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A)[::-1][:5], rtol=1e-12)


def test_bad_solver():
    with pytest.raises(ValueError, match="solver must be one of"):
        top_eigenpairs(np.eye(3), 1, solver="lapack")


# -- Regression tests: no eigenpair is ever silently lost --------------------
# LAPACK's subset driver (dsyevr) can return fewer pairs than asked for when
# the wanted eigenvalues are clustered (scipy issue 13913), depending on the
# BLAS kernel; `make test` runs these tests under two OpenBLAS kernels.

RINGS, _ = make_circles(n_samples=200, noise=0.05, factor=0.4, random_state=0)


@pytest.mark.blas_regression
@pytest.mark.parametrize("n", [50, 100, 200, 300])
@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("solver", ["auto", "dense", "lanczos", "subspace"])
def test_repeated_eigenvalue_of_centering_matrix(n, k, solver):
    w, V = top_eigenpairs(kpca.centering_matrix(n), k, solver=solver)
    assert w.shape == (k,) and V.shape == (n, k)
    np.testing.assert_allclose(w, 1.0, rtol=1e-10)
    np.testing.assert_allclose(V.T @ V, np.eye(k), atol=1e-10)
    np.testing.assert_allclose(V.sum(axis=0), 0.0, atol=1e-10)  # V in range H


@pytest.mark.blas_regression
@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_clustered_spectrum_of_ring_kernel_at_tiny_sigma(k):
    K_c = kpca.center_kernel(kpca.gaussian_kernel(RINGS, sigma=10**-3.5))
    w, V = top_eigenpairs(K_c, k)
    assert w.shape == (k,)
    np.testing.assert_allclose(
        w, np.linalg.eigvalsh(K_c)[::-1][:k], rtol=1e-10
    )
    np.testing.assert_allclose(K_c @ V, V * w, atol=1e-10)


@pytest.mark.blas_regression
@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("solver", ["arpack", "lanczos", "auto"])
def test_lanczos_missing_a_repeated_eigenvalue_is_caught(rng, k, solver):
    # Single-vector Lanczos returns one copy of a triple top eigenvalue and
    # passes its own convergence test; the deflation check must catch it.
    # Block Lanczos with a block of max(k, 2) vectors finds every copy; with
    # the block of two that "auto" runs at this size, two equal eigenvalues
    # send the problem to a block of k.
    n = 700
    Q = _orthogonal(n)
    w_true = np.r_[[1.0, 1.0, 1.0], 0.5 * 0.9 ** np.arange(n - 3)]
    A = (Q * w_true) @ Q.T
    A = 0.5 * (A + A.T)
    w, V = top_eigenpairs(A, k, solver=solver)
    np.testing.assert_allclose(w, w_true[:k], rtol=1e-9)
    np.testing.assert_allclose(A @ V, V * w, atol=1e-9)


@pytest.mark.blas_regression
def test_short_subset_answer_falls_back_to_the_full_decomposition(
    rng, monkeypatch
):
    # Whatever the BLAS kernel does, a short answer must be recomputed.
    A = _psd(rng, 40)
    real_eigh = scipy.linalg.eigh

    def short_eigh(a, *args, subset_by_index=None, **kwargs):
        w, V = real_eigh(a, *args, subset_by_index=subset_by_index, **kwargs)
        return (w[1:], V[:, 1:]) if subset_by_index is not None else (w, V)

    monkeypatch.setattr(scipy.linalg, "eigh", short_eigh)
    w, V = top_eigenpairs(A, 4, solver="dense")
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A)[::-1][:4], rtol=1e-12)
    assert V.shape == (40, 4)


def test_failed_lanczos_falls_back_to_the_dense_solver(rng, monkeypatch):
    A = _psd(rng, 700)

    def broken(*args, **kwargs):
        raise scipy.sparse.linalg.ArpackError(-9999)

    monkeypatch.setattr(scipy.sparse.linalg, "eigsh", broken)
    w, _ = top_eigenpairs(A, 5, solver="arpack")
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A)[::-1][:5], rtol=1e-12)


@pytest.fixture
def no_dense(monkeypatch):
    """Make a fall back to the dense solver fail the test."""

    def fell_back(*args, **kwargs):
        raise AssertionError("fell back to the dense solver")

    monkeypatch.setattr(kpca.eigen._lapack, "dense", fell_back)


@pytest.mark.blas_regression
def test_block_lanczos_answers_without_the_dense_fallback(rng, no_dense):
    # The checked fallback must stay a fallback: on an ordinary kernel matrix
    # the block Krylov solver converges by itself.
    K = kpca.center_kernel(
        kpca.gaussian_kernel(rng.normal(size=(1200, 5)), sigma=2.0)
    )

    w, V = top_eigenpairs(K, 6, solver="lanczos")
    np.testing.assert_allclose(w, np.linalg.eigvalsh(K)[::-1][:6], rtol=1e-10)
    np.testing.assert_allclose(K @ V, V * w, atol=1e-9)


def _lanczos_calls(monkeypatch):
    """Record the block size of every Lanczos run."""
    calls = []
    real = kpca.eigen._krylov.lanczos

    def recorded(A, k, tol, max_iter, rng, block, by_vector=False):
        calls.append((block, by_vector))
        return real(A, k, tol, max_iter, rng, block, by_vector)

    monkeypatch.setattr(kpca.eigen._krylov, "lanczos", recorded)
    return calls


def test_auto_runs_a_block_of_two_on_a_kernel_matrix_in_cache(
    rng, no_dense, monkeypatch
):
    # With PAIR_UP_TO = 3000 (the default) "auto" takes Lanczos with a
    # block of two vectors up to n = 3000, each multiplied by the matrix on
    # its own, and its answer stands.
    monkeypatch.setattr(kpca.eigen, "PAIR_UP_TO", 3000)
    calls = _lanczos_calls(monkeypatch)
    K = kpca.gaussian_kernel(rng.normal(size=(1500, 5)), sigma=2.0)
    K_c = kpca.center_kernel(K)
    for A in (K_c, kpca.centering._CentredKernel(K)):
        calls.clear()
        w, V = kpca.eigen._top_eigenpairs(A, 8, random_state=0)
        assert calls == [(2, True)]
        np.testing.assert_allclose(
            w, np.linalg.eigvalsh(K_c)[::-1][:8], rtol=1e-10
        )
        np.testing.assert_allclose(K_c @ V, V * w, atol=1e-9 * w[0])
    calls.clear()
    top_eigenpairs(K_c, 8, solver="lanczos")
    assert calls == [(8, False)]  # the named solver keeps its block of k


@pytest.mark.blas_regression
@pytest.mark.parametrize("copies", [2, 3])
def test_two_equal_eigenvalues_send_the_block_of_two_to_a_block_of_k(
    rng, no_dense, monkeypatch, copies
):
    # A block of two finds two copies of a repeated eigenvalue and cannot see
    # a third; so two equal wanted eigenvalues, whether or not a third copy
    # exists, make "auto" run a block of k.
    monkeypatch.setattr(kpca.eigen, "PAIR_UP_TO", 3000)
    n, k = 800, 6
    w_true = np.r_[
        3.0, [2.0] * copies, 1.5 * 0.95 ** np.arange(n - 1 - copies)
    ]
    A = (_orthogonal(n) * w_true) @ _orthogonal(n).T
    A = 0.5 * (A + A.T)
    calls = _lanczos_calls(monkeypatch)
    w, V = top_eigenpairs(A, k)
    assert calls == [(2, True), (k, False)]
    np.testing.assert_allclose(w, w_true[:k], rtol=1e-10)
    np.testing.assert_allclose(A @ V, V * w, atol=1e-9)
    # With k = 2 the block of two is a block of k: its answer stands.
    calls.clear()
    w, _ = top_eigenpairs(A, 2)
    assert calls == [(2, True)]
    np.testing.assert_allclose(w, w_true[:2], rtol=1e-10)


def test_auto_runs_a_block_of_k_beyond_pair_up_to(rng, no_dense, monkeypatch):
    # Beyond PAIR_UP_TO (here lowered to 1000), "auto" takes the block of k,
    # whose products stream a matrix too large for the cache once per step.
    monkeypatch.setattr(kpca.eigen, "PAIR_UP_TO", 1000)
    calls = _lanczos_calls(monkeypatch)
    K_c = kpca.center_kernel(
        kpca.gaussian_kernel(rng.normal(size=(1500, 5)), sigma=2.0)
    )
    w, V = kpca.eigen._top_eigenpairs(K_c, 8, random_state=0)
    assert calls == [(8, False)]
    np.testing.assert_allclose(
        w, np.linalg.eigvalsh(K_c)[::-1][:8], rtol=1e-10
    )


def test_pair_up_to_is_the_default_of_auto(rng, no_dense):
    # The default: a block of two up to n = 3000 (kpca._tuning).
    assert kpca.eigen.PAIR_UP_TO == 3000


@pytest.mark.blas_regression
@pytest.mark.parametrize("rank, k", [(3, 2), (5, 5), (12, 10)])
def test_block_lanczos_through_an_invariant_subspace(rng, no_dense, rank, k):
    # A low-rank matrix exhausts its Krylov space: the next block vanishes,
    # its rows are replaced by random directions, and the residuals of the
    # answer are then checked by a true product, not by the recurrence.
    X = rng.normal(size=(700, rank))
    A = X @ X.T

    w, V = top_eigenpairs(A, k, solver="lanczos")
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A)[::-1][:k], rtol=1e-10)
    np.testing.assert_allclose(A @ V, V * w, atol=1e-9 * w[0])


def test_block_lanczos_with_products_split_between_the_cores(rng, no_dense):
    # From 1600 columns on, the products run as one slice per core.
    K = kpca.center_kernel(
        kpca.gaussian_kernel(rng.normal(size=(1700, 4)), sigma=2.0)
    )

    w, V = top_eigenpairs(K, 5, solver="lanczos")
    np.testing.assert_allclose(w, np.linalg.eigvalsh(K)[::-1][:5], rtol=1e-10)
    np.testing.assert_allclose(K @ V, V * w, atol=1e-9 * w[0])


def test_rows_times_is_the_matrix_product(rng):
    # 1600 and 2001 take more than one panel of M's columns.
    for n in (10, 1600, 2001):
        M = rng.normal(size=(n, n))
        Xt = rng.normal(size=(3, n))
        np.testing.assert_allclose(
            rows_times(Xt, M), Xt @ M, rtol=1e-12, atol=1e-12 * n
        )
        # Rows taken from a larger array (not contiguous) give the same.
        wide = rng.normal(size=(6, n))
        np.testing.assert_allclose(
            rows_times(wide[::2], M), wide[::2] @ M, rtol=1e-12, atol=1e-12 * n
        )
    # float32 in panels, and mixed precisions (one product) in float64.
    M32 = rng.normal(size=(1600, 1600)).astype(np.float32)
    X32 = rng.normal(size=(2, 1600)).astype(np.float32)
    result = rows_times(X32, M32)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, X32 @ M32, rtol=1e-4, atol=1e-3)
    mixed = rows_times(X32.astype(float), M32)
    assert mixed.dtype == np.float64
    np.testing.assert_allclose(
        mixed, X32.astype(float) @ M32.astype(float), rtol=1e-12, atol=1e-9
    )


@pytest.mark.blas_regression
def test_kernel_pca_of_identity_kernel_keeps_every_component():
    for n in (100, 200, 1000):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            kp = kpca.KernelPCA(3, kernel="precomputed").fit(np.eye(n))
        assert kp.n_components_ == 3
        np.testing.assert_allclose(kp.eigenvalues_, 1.0, rtol=1e-10)


@pytest.mark.blas_regression
def test_kernel_pca_at_tiny_sigma_keeps_every_component():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no false "numerical rank" warning
        kp = kpca.KernelPCA(3, sigma=10**-3.5).fit(RINGS)
    assert kp.n_components_ == 3
    np.testing.assert_allclose(kp.eigenvalues_, 1.0, rtol=1e-10)


@pytest.mark.blas_regression
def test_sign_convention_ignores_one_ulp_ties():
    v = np.array([1.0, -1.0, 0.5]) / np.sqrt(2.25)
    bumped = v.copy()
    bumped[1] = np.nextafter(bumped[1], -1.0)  # |v[1]| now one ulp larger
    np.testing.assert_array_equal(
        np.sign(align_signs(v)), np.sign(align_signs(bumped))
    )
    assert align_signs(bumped)[0] > 0  # the first of the tied entries


@pytest.mark.parametrize(
    "k, exc",
    [(0, ValueError), (-1, ValueError), (4, ValueError), (2.0, TypeError)],
)
def test_bad_k(k, exc):
    with pytest.raises(exc, match="k must be"):
        top_eigenpairs(np.eye(3), k)


def test_non_symmetric_matrix_is_rejected():
    with pytest.raises(ValueError, match="A must be symmetric"):
        top_eigenpairs(np.array([[1.0, 2.0], [0.0, 1.0]]), 1)


@pytest.mark.parametrize("n", [130, 300])
@pytest.mark.parametrize(
    "where", [(0, 1), (1, 0), (5, 5 + 128), (299, 3), (129, 128), (-1, -2)]
)
def test_one_asymmetric_entry_anywhere_is_rejected(rng, n, where):
    # The check compares every tile with its mirror image: a single entry
    # off by 1e-9 of the largest, in any tile (the last, partial ones too),
    # is found, not only a widespread asymmetry.
    A = _psd(rng, n)
    i, j = (min(w, n - 1) if w >= 0 else n + w for w in where)
    if i == j:
        j = (j + 1) % n
    A[i, j] += 1e-9 * np.abs(A).max()
    with pytest.raises(ValueError, match="A must be symmetric"):
        top_eigenpairs(A, 2)


def test_round_off_asymmetry_is_symmetrised_and_a_symmetric_input_kept(rng):
    A = _psd(rng, 300)
    B = A.copy()
    B[7, 250] += 1e-13 * np.abs(A).max()  # within the 1e-10 tolerance
    kept = B.copy()
    w, V = top_eigenpairs(B, 3, solver="dense")
    np.testing.assert_array_equal(B, kept)  # symmetrised in a copy
    w_sym, _ = top_eigenpairs(0.5 * (B + B.T), 3, solver="dense")
    np.testing.assert_array_equal(w, w_sym)
    # An exactly symmetric input is used as it is, and left unchanged.
    A_before = A.copy()
    w, V = top_eigenpairs(A, 3, solver="dense")
    np.testing.assert_array_equal(A, A_before)
    np.testing.assert_allclose(w, 0.8 ** np.arange(3), rtol=1e-12)


def test_split_products_work_in_a_forked_child(rng):
    # The worker threads of the split products do not survive a fork; a child
    # must get a pool of its own instead of waiting on threads that are gone.
    import multiprocessing

    M = rng.normal(size=(1700, 1700))
    Xt = rng.normal(size=(2, 1700))
    expected = rows_times(Xt, M)  # the parent's pool now exists
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply_async(rows_times, (Xt, M)).get(timeout=60)
    np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-10)


@pytest.mark.blas_regression
@pytest.mark.parametrize("tol", [1e-10, 1e-12, 1e-14])
def test_block_lanczos_meets_its_tolerance_in_true_residuals(rng, tol):
    # Down to 1e-11 the residuals of the recurrence are trusted (the basis is
    # checked to be orthonormal); below, a true product checks them.
    K = kpca.center_kernel(
        kpca.gaussian_kernel(rng.normal(size=(800, 5)), sigma=2.0)
    )
    w, V = top_eigenpairs(K, 5, solver="lanczos", tol=tol)
    residual = np.linalg.norm(K @ V - V * w, axis=0) / w[0]
    assert np.all(residual <= 10 * max(tol, 1e3 * np.finfo(float).eps))
