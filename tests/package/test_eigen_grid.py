"""Every solver answers every (n, k), and random_state has one rule.

The grid samples n <= 300 and 1 <= k < n where the block solvers change
regime: a block of max(k, 2) vectors that fits twice in the Krylov basis
(2 max(k, 2) <= n), one that does not (then the dense solver answers), and
the edges k = 1, n // 2, n // 2 + 1 and n - 1.
"""

import numpy as np
import pytest

import kpca
from kpca.eigen import EIGEN_SOLVERS, top_eigenpairs

SIZES = (2, 3, 4, 5, 7, 16, 41, 300)


def _grid():
    for n in SIZES:
        ks = {1, 2, 3, n // 2, n // 2 + 1, n - 1}
        if n == 300:
            ks |= {30, 149, 150, 151, 160}
        for k in sorted(k for k in ks if 1 <= k < n):
            yield n, k


def _psd_with_spectrum(n, seed):
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    w = 1.0 + 0.9 ** np.arange(n)  # distinct, a gap at every index
    A = (Q * w) @ Q.T
    return 0.5 * (A + A.T), w


@pytest.mark.parametrize("solver", EIGEN_SOLVERS)
def test_every_solver_answers_every_n_and_k(solver):
    for n, k in _grid():
        A, w_true = _psd_with_spectrum(n, seed=n)
        w, V = top_eigenpairs(A, k, solver=solver)
        assert w.shape == (k,) and V.shape == (n, k), (n, k)
        np.testing.assert_allclose(
            w, w_true[:k], rtol=1e-9, err_msg=f"{n=} {k=}"
        )
        np.testing.assert_allclose(
            A @ V, V * w, atol=1e-8, err_msg=f"{n=} {k=}"
        )
        np.testing.assert_allclose(V.T @ V, np.eye(k), atol=1e-9)


@pytest.mark.parametrize("solver", EIGEN_SOLVERS)
def test_the_reported_small_cases(solver):
    # n = 3, k = 1: a block of two in a space of three.
    w, V = top_eigenpairs(np.diag([3.0, 2.0, 1.0]), 1, solver=solver)
    np.testing.assert_allclose(w, [3.0])
    np.testing.assert_allclose(np.abs(V[:, 0]), [1.0, 0.0, 0.0], atol=1e-12)
    # n = 5, k = 3 through KernelPCA, as the bug was first seen.
    X = np.random.default_rng(0).standard_normal((5, 2))
    Z = kpca.KernelPCA(3, eigen_solver=solver).fit_transform(X)
    Z_dense = kpca.KernelPCA(3, eigen_solver="dense").fit_transform(X)
    np.testing.assert_allclose(Z, Z_dense, atol=1e-8)


GENERATORS = (
    lambda: np.random.default_rng(7),
    lambda: np.random.RandomState(7),
)

ESTIMATORS = (
    lambda rs: kpca.KernelPCA(2, eigen_solver="lanczos", random_state=rs),
    lambda rs: kpca.KernelPCA(2, eigen_solver="randomized", random_state=rs),
    lambda rs: kpca.NystroemKernelPCA(2, n_landmarks=20, random_state=rs),
    lambda rs: kpca.NystroemKernelPCA(
        2, n_landmarks=20, landmarks="kmeans", random_state=rs
    ),
    lambda rs: kpca.RandomFourierKernelPCA(
        2, n_random_features=30, random_state=rs
    ),
)


@pytest.mark.parametrize("make", ESTIMATORS)
@pytest.mark.parametrize(
    "bad, error",
    [
        (-1, ValueError),
        (1.5, TypeError),
        ("seed", TypeError),
        (True, TypeError),
    ],
)
def test_an_invalid_random_state_names_the_parameter(make, bad, error):
    X = np.random.default_rng(0).standard_normal((50, 3))
    with pytest.raises(error, match="random_state"):
        make(bad).fit(X)


@pytest.mark.parametrize("make", ESTIMATORS)
@pytest.mark.parametrize("generator", GENERATORS)
def test_a_generator_is_a_random_state(make, generator):
    X = np.random.default_rng(0).standard_normal((50, 3))
    a = make(generator()).fit_transform(X)
    b = make(generator()).fit_transform(X)
    np.testing.assert_array_equal(
        a, b
    )  # the same generator state, the same fit
    assert np.all(np.isfinite(a))


@pytest.mark.parametrize(
    "call",
    [
        lambda rs: top_eigenpairs(np.eye(4), 2, random_state=rs),
        lambda rs: kpca.landmarks.uniform_landmarks(
            np.eye(4), 2, random_state=rs
        ),
        lambda rs: kpca.landmarks.kmeans_landmarks(
            np.eye(4), 2, random_state=rs
        ),
    ],
)
def test_the_functions_share_the_rule(call):
    with pytest.raises(
        ValueError, match="random_state must be a non-negative"
    ):
        call(-1)
    with pytest.raises(TypeError, match="random_state must be None"):
        call("0")
    call(np.random.default_rng(0))
    call(np.random.RandomState(0))
    call(None)
