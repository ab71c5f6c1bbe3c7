import numpy as np
import pytest

import kpca
from kpca.eigen import align_signs, top_eigenpairs


def _psd(rng, n, decay=0.8):
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    w = decay ** np.arange(n)
    return (Q * w) @ Q.T


@pytest.mark.parametrize("solver", ["dense", "subspace", "arpack", "auto"])
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
    A = _psd(rng, 900, decay=0.9999)
    w, _ = top_eigenpairs(A, 5, solver="auto", max_iter=3)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A)[::-1][:5], rtol=1e-12)


def test_bad_solver():
    with pytest.raises(ValueError, match="eigen_solver must be one of"):
        top_eigenpairs(np.eye(3), 1, solver="lapack")
