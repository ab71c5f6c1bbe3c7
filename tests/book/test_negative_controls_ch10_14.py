"""Negative controls for the checks of the notebooks ch10-ch14.

Each check that a claims table of the notebooks ch10-ch14 cites as a
proof, or that a chapter calls a proof, lives in ``kpca.book.checks``.  Here every one of
them is applied to the book's formula (it must pass) and to a deliberately
wrong formula or implementation (it must fail), so a check that cannot fail
cannot come back unnoticed.
"""

import numpy as np
import pytest

sp = pytest.importorskip("sympy")

from kpca import book  # noqa: E402
from kpca.book import checks  # noqa: E402

# -- ch10: the large-sigma limit (expansion and double centring) --------------


def test_double_centring_identity_and_wrong_scales():
    assert checks.is_zero_matrix(checks.double_centring_residual())
    for wrong in (sp.Rational(-1, 4), sp.Integer(-1), sp.Rational(1, 2)):
        residual = checks.double_centring_residual(wrong)
        assert not checks.is_zero_matrix(residual), wrong


def test_gaussian_expansion_and_wrong_coefficients():
    t, s = sp.symbols("t sigma", positive=True)
    right = 1 - t / (2 * s**2) + t**2 / (8 * s**4)
    assert checks.gaussian_expansion_residual(right) == 0
    for wrong in (
        1 - t / (2 * s**2) + t**2 / (4 * s**4),  # wrong second order
        1 - t / s**2 + t**2 / (8 * s**4),  # wrong first order
        1 - t / (2 * s**2),  # missing term
    ):
        assert checks.gaussian_expansion_residual(wrong) != 0


def test_left_out_total_by_pythagoras_and_wrong_totals():
    # ch10-sigma-from-data divides the left-out error by eps + ||z||^2, the
    # centred k~(x, x); the check compares it with k~ from kernel values.
    import kpca
    from kpca.preimage import reconstruction_error

    X, _ = book.datasets.rings(factor=0.3)
    X_in, X_left = X[::5], X[1::5]
    model = kpca.KernelPCA(1, sigma=0.4).fit(X_in)
    total = reconstruction_error(model, X_left)
    total += np.sum(model.transform(X_left) ** 2, axis=1)
    k_left = kpca.gaussian_kernel(X_left, X_in, sigma=0.4)
    mean_K = kpca.gaussian_kernel(X_in, sigma=0.4).mean()
    right = 1 - 2 * k_left.mean(axis=1) + mean_K
    assert np.allclose(total, right, rtol=1e-10, atol=1e-12)
    for wrong in (
        np.ones(len(X_left)),  # k(x, x) without centring
        1 - k_left.mean(axis=1) + mean_K,  # a cross term once, not twice
        1 - 2 * k_left.mean(axis=1),  # the mean of K left out
    ):
        assert not np.allclose(total, wrong, rtol=1e-10, atol=1e-12)


# -- ch11: the symbolic derivation of G = -1/2 H Delta2 H ---------------------


@pytest.fixture(scope="module")
def mds_symbols():
    N = sp.Symbol("N", integer=True, positive=True)
    D = sp.Symbol("D", integer=True, positive=True)
    Z = sp.MatrixSymbol("Z", D, N)
    s = sp.MatrixSymbol("s", N, 1)
    one = sp.OneMatrix(N, 1)
    H = sp.Identity(N) - one * one.T / N
    X = Z * H
    Delta2 = s * one.T + one * s.T - 2 * X.T * X
    T = one.T * s

    def vanishes(expr):
        return checks.vanishes(expr, [(s.T * one, one.T * s)])

    return dict(
        N=N,
        Z=Z,
        s=s,
        one=one,
        H=H,
        X=X,
        Delta2=Delta2,
        T=T,
        vanishes=vanishes,
    )


def test_lines_b_to_e_and_wrong_versions(mds_symbols):
    g = mds_symbols
    N, one, s, X, Delta2, T = (
        g[k] for k in ("N", "one", "s", "X", "Delta2", "T")
    )
    vanishes = g["vanishes"]
    right = [
        X.T * X * one,
        Delta2 * one - (N * s + one * T),
        one.T * Delta2 - (N * s.T + T * one.T),
        one.T * Delta2 * one - 2 * N * T,
    ]
    wrong = [
        X.T * X * one - one,
        Delta2 * one - (N * s + 2 * one * T),
        one.T * Delta2 - (N * s.T + 2 * T * one.T),
        one.T * Delta2 * one - N * T,
    ]
    for expr in right:
        assert vanishes(expr)
    for expr in wrong:
        assert not vanishes(expr)


def test_gram_from_distances_and_the_notes_display(mds_symbols):
    g = mds_symbols
    N, one, X, Delta2, H = (g[k] for k in ("N", "one", "X", "Delta2", "H"))
    vanishes = g["vanishes"]
    J = one * one.T / N
    gram = Delta2 * J / 2 + J * Delta2 / 2 - J * Delta2 * J / 2 - Delta2 / 2
    assert vanishes(gram - X.T * X)
    assert vanishes(-H * Delta2 * H / 2 - X.T * X)
    assert not vanishes(-H * Delta2 * H - X.T * X)
    # E24: the notes' display, with the 1/(2N) missing, is not the Gram matrix
    printed = Delta2 * one * one.T + J * Delta2 / 2 - J * Delta2 * J / 2
    assert not vanishes(printed - Delta2 / 2 - X.T * X)
    # and the raw Z^T Z is not what double centring gives
    Z = g["Z"]
    free = g["s"] * one.T + one * g["s"].T - 2 * Z.T * Z
    assert vanishes(-H * free * H / 2 - (Z * H).T * (Z * H))
    assert not vanishes(-H * free * H / 2 - Z.T * Z)


def test_polarisation_identity_and_a_wrong_cross_term():
    D, k = sp.symbols("D k", integer=True, positive=True)
    a, b = sp.IndexedBase("a"), sp.IndexedBase("b")
    lhs = sp.Sum((a[k] - b[k]) ** 2, (k, 1, D))
    sq = sp.Sum(a[k] ** 2, (k, 1, D)) + sp.Sum(b[k] ** 2, (k, 1, D))
    cross = sp.Sum(a[k] * b[k], (k, 1, D))
    assert sp.simplify(lhs - (sq - 2 * cross)) == 0
    assert sp.simplify(lhs - (sq - cross)) != 0


def test_full_dimension_mds_reproduces_distances_and_a_wrong_scaling_does_not():
    import kpca

    rng = np.random.default_rng(11)
    X = rng.normal(size=(40, 6)) * [4.0, 2.5, 1.5, 0.8, 0.4, 0.2]
    Delta = np.sqrt(kpca.squared_distances(X))
    Y = kpca.ClassicalMDS(6, metric="precomputed").fit(Delta).embedding_
    assert checks.mds_reconstruction_error(Delta, Y) < 1e-9
    # a wrong scaling of the coordinates (lambda instead of sqrt(lambda))
    G = kpca.double_center(Delta**2)
    lam, V = np.linalg.eigh(G)
    wrong = V[:, -6:] * lam[-6:]
    assert checks.mds_reconstruction_error(Delta, wrong) > 0.1


# -- ch13: the same non-zero eigenvalues --------------------------------------


@pytest.mark.parametrize("D, N", [(2, 3), (3, 2)])
def test_charpoly_identity_and_a_wrong_power(D, N):
    assert checks.charpoly_identity_residual(D, N) == 0
    assert checks.charpoly_identity_residual(D, N, 1) != 0
    assert checks.charpoly_identity_residual(D, N, -1) != 0


# -- ch14: Nystroem, Gittens' bound, random features, scaling -----------------


def test_nystroem_lies_below_k_and_a_wrong_formula_does_not():
    import kpca

    X = np.random.default_rng(0).standard_normal((200, 3))
    K = kpca.gaussian_kernel(X, sigma=1.5)
    rows = np.arange(0, 200, 10)
    K_nm, K_mm = K[:, rows], K[np.ix_(rows, rows)]
    pinv = np.linalg.pinv(K_mm, rcond=1e-10, hermitian=True)
    assert checks.loewner_gap(K, K_nm @ pinv @ K_nm.T) > -1e-9
    # without the inverse, or scaled up, the approximation exceeds K
    assert checks.loewner_gap(K, K_nm @ K_nm.T / len(rows) * 4) < -1e-3
    assert checks.loewner_gap(K, 1.1 * K_nm @ pinv @ K_nm.T) < -1e-3


def test_landmark_mean_centring_breaks_the_underestimate():
    import kpca

    X = np.random.default_rng(0).standard_normal((400, 3))
    model = kpca.NystroemKernelPCA(
        5, sigma=1.5, n_landmarks=40, random_state=1
    ).fit(X)
    exact = kpca.KernelPCA(5, sigma=1.5).fit(X).eigenvalues_
    assert np.all(model.eigenvalues_ <= exact * (1 + 1e-10))
    K_mm = kpca.gaussian_kernel(model.landmarks_, sigma=1.5)
    K_nm = kpca.gaussian_kernel(X, model.landmarks_, sigma=1.5)
    lam, U = np.linalg.eigh(kpca.center_kernel(K_mm))
    keep = lam > 1e-10 * lam.max()
    F = kpca.center_test_kernel(K_nm, K_mm) @ (U[:, keep] / np.sqrt(lam[keep]))
    wrong = np.linalg.eigvalsh(F.T @ F)[::-1][:5]
    assert np.any(wrong > exact * 1.01)


def test_gittens_lemma_holds_and_a_misstated_bound_fails():
    import kpca

    X = np.random.default_rng(2).standard_normal((500, 3))
    K = kpca.gaussian_kernel(X, sigma=1.5)
    lam, U = np.linalg.eigh(K)
    U1 = U[:, ::-1][:, :5]
    m, eps, delta = 411, 0.5, 0.1
    rate, _ = checks.gittens_failure_rate(U1, m, 500 / (eps * m), n_draws=500)
    assert rate <= delta
    # dropping epsilon (n/m): fails in far more than delta of the draws
    rate, _ = checks.gittens_failure_rate(U1, m, 500 / m, n_draws=500)
    assert rate > delta


def test_rff_variance_and_wrong_variances():
    assert checks.rff_variance_residual(lambda k: 1 + k**4 / 2 - k**2) == 0
    for wrong in (
        lambda k: 1 - k**2,  # the paired features' variance times 2
        lambda k: 1 + k**4 - k**2,
        lambda k: (1 - k**2) ** 2 / 2,
    ):
        assert checks.rff_variance_residual(wrong) != 0


def test_scaling_exponent_tells_n2_from_n3():
    n = np.array([4000.0, 8000.0, 16000.0])
    quadratic = 1e-8 * n**2 * (1 + 0.05 * np.array([1, -1, 1]))
    cubic = 1e-12 * n**3
    assert 1.6 < checks.loglog_slope(n, quadratic) < 2.4
    assert not 1.6 < checks.loglog_slope(n, cubic) < 2.4
    # and the stored benchmark passes the check the chapter makes
    exact = book.datasets.load_benchmark_results()["parts"]["exact"]
    rows = {e["n"]: e["summary"] for e in exact["sizes"]}
    largest = sorted(rows)[-3:]
    times = [rows[k]["kpca_time_s"]["median"] for k in largest]
    assert 1.6 < checks.loglog_slope(largest, times) < 2.4
