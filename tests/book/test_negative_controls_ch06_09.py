"""Negative controls for the checks of the notebooks ch06-ch09.

Every symbolic proof and every numerical check that a claims table of
the notebooks ch06-ch09 cites as a proof is run here twice through the
same function of ``kpca.book.checks``: once on the book's formula, where
it must pass, and once on a deliberately wrong formula or implementation,
where it must fail.
A check that passed both would be true by construction.
"""

import numpy as np
import pytest
import sympy as sp

import kpca
from kpca.book import checks, symbolic

X2 = sp.Matrix(sp.symbols("x1 x2", real=True))
Y2 = sp.Matrix(sp.symbols("y1 y2", real=True))
THETA = sp.Symbol("theta", real=True)
ROTATION = sp.Matrix(
    [[sp.cos(THETA), -sp.sin(THETA)], [sp.sin(THETA), sp.cos(THETA)]]
)
REFLECTION = sp.Matrix(
    [[sp.cos(THETA), sp.sin(THETA)], [sp.sin(THETA), -sp.cos(THETA)]]
)


SQRT2 = sp.sqrt(2)


def weighted_map(z, weight=SQRT2):
    """eq-ch07-phi2; weight sqrt(2) is right, any other weight wrong."""
    return sp.Matrix(
        [1, z[0] ** 2, z[1] ** 2, weight * z[0], weight * z[1]]
        + [weight * z[0] * z[1]]
    )


def plain_map(z):
    """eq-ch06-poly-map, the notes' map without weights."""
    return sp.Matrix([1, z[0], z[1], z[0] ** 2, z[1] ** 2, z[0] * z[1]])


def poly2(a, b):
    return (1 + a.dot(b)) ** 2


# --- ch06 --------------------------------------------------------------------


def test_ch06_e05_weighted_map_passes_wrong_weights_fail():
    k = poly2(X2, Y2)
    assert checks.kernel_has_feature_map(k, weighted_map, X2, Y2)
    assert not checks.kernel_has_feature_map(k, plain_map, X2, Y2)
    assert not checks.kernel_has_feature_map(
        k, lambda z: weighted_map(z, sp.sqrt(3)), X2, Y2
    )


@pytest.mark.parametrize("Q", [ROTATION, REFLECTION], ids=["rot", "refl"])
def test_ch06_rotation_invariance_fails_for_plain_kernel(Q):
    assert checks.kernel_is_invariant(poly2, Q, X2, Y2)
    plain = lambda a, b: plain_map(a).dot(plain_map(b))  # noqa: E731
    assert not checks.kernel_is_invariant(plain, Q, X2, Y2)
    # a matrix that is not orthogonal must fail for the weighted kernel too
    assert not checks.kernel_is_invariant(poly2, 2 * Q, X2, Y2)


def test_ch06_data_matrix_reordering_rejects_wrong_weights():
    X = np.random.default_rng(0).standard_normal((30, 2))
    Phi = kpca.polynomial_feature_map(X, degree=2, coef0=1.0)
    z1, z2 = X.T
    r2 = np.sqrt(2)
    printed = np.column_stack(
        [np.ones_like(z1), z1**2, z2**2, r2 * z1, r2 * z2, r2 * z1 * z2]
    )
    assert checks.column_permutation(printed, Phi) == [0, 3, 4, 1, 5, 2]
    wrong = printed.copy()
    wrong[:, 5] = z1 * z2  # the notes' unweighted cross term
    assert checks.column_permutation(wrong, Phi) is None


# --- ch07 --------------------------------------------------------------------


def test_ch07_degree2_trick_rejects_the_notes_typo():
    x1, x2 = X2
    y1, y2 = Y2
    k = poly2(X2, Y2)
    assert checks.expands_to_zero(k - weighted_map(X2).dot(weighted_map(Y2)))
    printed = sp.expand(k) - 2 * x1 * x2 * y1 * y2 + 2 * x1 * x2 * y2 * y2
    assert not checks.expands_to_zero(k - printed)


@pytest.mark.parametrize("p, d", [(3, 2), (2, 3)])
def test_ch07_multinomial_weights_needed(p, d):
    x, y = symbolic.symbol_vector("x", d), symbolic.symbol_vector("y", d)
    k = symbolic.polynomial_kernel_expr(x, y, degree=p)
    assert checks.kernel_has_feature_map(
        k, lambda z: symbolic.polynomial_feature_vector(z, p), x, y
    )

    def bare(z):
        exps = kpca.feature_maps.polynomial_exponents(d, p)
        return sp.Matrix(
            [
                sp.Mul(*[zi**q for zi, q in zip(z, t[1:], strict=True)])
                for t in exps
            ]
        )

    assert not checks.kernel_has_feature_map(k, bare, x, y)


def test_ch07_induction_step_rejects_a_wrong_step():
    p, k = sp.symbols("p k", integer=True, nonnegative=True)
    Q = sp.Symbol("Q", positive=True)
    step = sp.binomial(p, k) * sp.factorial(p - k) / Q
    right = sp.factorial(p) / (Q * sp.factorial(k))
    wrong = sp.factorial(p) / (Q * sp.factorial(k + 1))
    assert sp.combsimp(step - right) == 0
    assert sp.combsimp(step - wrong) != 0


def test_ch07_gaussian_series_rejects_a_wrong_feature_map():
    x, y = sp.symbols("x y", real=True)
    s = sp.Symbol("sigma", positive=True)
    j = sp.Symbol("j", integer=True, nonnegative=True)
    gauss = sp.exp(-((x - y) ** 2) / (2 * s**2))

    def phi(t, root=True):
        norm = sp.sqrt(sp.factorial(j)) if root else sp.factorial(j)
        return sp.exp(-(t**2) / (2 * s**2)) * t**j / (s**j * norm)

    assert checks.feature_series_sums_to(phi, j, gauss, x, y)
    assert not checks.feature_series_sums_to(
        lambda t: phi(t, root=False), j, gauss, x, y
    )


def test_ch07_quadratic_form_instance_rejects_a_wrong_factor():
    Phi = sp.Matrix(3, 2, sp.symbols("f0:6", real=True))
    z = sp.Matrix(sp.symbols("z1 z2", real=True))
    quad = (z.T * Phi.T * Phi * z)[0, 0]
    norm_sq = sum(e**2 for e in Phi * z)
    assert checks.expands_to_zero(quad - norm_sq)
    assert not checks.expands_to_zero(quad - 4 * norm_sq)


def test_ch07_closure_rules_reject_wrong_kernels():
    def tensor(f, g):
        return sp.Matrix([a * b for a in f for b in g])

    lin = X2.dot(Y2)
    k3 = poly2(X2, Y2) * lin
    product_map = lambda z: tensor(weighted_map(z), z)  # noqa: E731
    assert checks.kernel_has_feature_map(k3, product_map, X2, Y2)
    assert not checks.kernel_has_feature_map(
        poly2(X2, Y2) + lin, product_map, X2, Y2
    )
    u, w = symbolic.symbol_vector("u", 2), symbolic.symbol_vector("w", 2)
    v, z = symbolic.symbol_vector("v", 3), symbolic.symbol_vector("z", 3)
    inner = tensor(u, v).dot(tensor(w, z))
    assert checks.expands_to_zero(inner - u.dot(w) * v.dot(z))
    assert not checks.expands_to_zero(inner - u.dot(w) - v.dot(z))


# --- ch08 --------------------------------------------------------------------


def test_ch08_li_normalisation_rejects_yuilles_scale():
    m_lambda = sp.Symbol("mlambda", positive=True)
    u_norm2, alpha_norm2, scale = checks.normalising_scale(m_lambda)
    assert sp.simplify(u_norm2 - m_lambda * alpha_norm2) == 0
    assert scale == [1 / sp.sqrt(m_lambda)]
    assert scale != [1 / m_lambda]
    # a wrong eigen-relation, K_c v = 2 m lambda v, gives another scale
    assert checks.normalising_scale(2 * m_lambda)[2] != scale


def test_ch08_four_routes_check_rejects_the_uncentred_kernel():
    X = np.random.default_rng(8).normal(size=(10, 2))
    reference = kpca.align_signs(
        kpca.KernelPCA(3, kernel="polynomial", degree=2).fit_transform(X)
    )
    K_c = kpca.center_kernel(kpca.polynomial_kernel(X, degree=2))
    K = kpca.polynomial_kernel(X, degree=2)
    for G, should_agree in [(K_c, True), (K, False)]:
        mu, V = np.linalg.eigh(G)
        mu, V = mu[::-1][:3], V[:, ::-1][:, :3]
        scores = (np.diag(1 / np.sqrt(mu)) @ V.T @ G).T  # D V^T G
        agree = np.allclose(kpca.align_signs(scores), reference, atol=1e-9)
        assert agree is should_agree


# --- ch09 --------------------------------------------------------------------

N = sp.Symbol("n", integer=True, positive=True)
D = sp.Symbol("D", integer=True, positive=True)
M = sp.Symbol("m", integer=True, positive=True)
PHI = sp.MatrixSymbol("Phi", D, N)
ONE_N = sp.OneMatrix(N, N) / N
H = sp.Identity(N) - ONE_N
MEAN = PHI * sp.OneMatrix(N, 1) / N
K = PHI.T * PHI


def test_ch09_mean_column_rejects_twice_the_mean():
    assert checks.is_zero_matrix(PHI * ONE_N - MEAN * sp.OneMatrix(1, N))
    assert not checks.is_zero_matrix(
        PHI * ONE_N - 2 * MEAN * sp.OneMatrix(1, N)
    )


@pytest.mark.parametrize(
    "form, right",
    [
        (K - K * ONE_N - ONE_N * K + ONE_N * K * ONE_N, True),
        (H * K * H, True),
        (K - K * ONE_N - ONE_N * K - ONE_N * K * ONE_N, False),
        (K - K * ONE_N, False),
    ],
    ids=["expanded", "HKH", "wrong-sign", "missing-terms"],
)
def test_ch09_centring_theorem_check_discriminates(form, right):
    K_c = (PHI * H).T * (PHI * H)
    assert checks.is_zero_matrix(K_c - form) is right


def test_ch09_test_centring_rejects_a_missing_or_doubled_grand_mean():
    Q = sp.MatrixSymbol("Q", D, M)
    one_mn = sp.OneMatrix(M, N) / N
    K_new = Q.T * PHI
    lhs = (Q - MEAN * sp.OneMatrix(1, M)).T * (PHI - MEAN * sp.OneMatrix(1, N))
    rhs = K_new - one_mn * K - K_new * ONE_N + one_mn * K * ONE_N
    assert checks.is_zero_matrix(lhs - rhs)
    assert not checks.is_zero_matrix(lhs - (rhs - one_mn * K * ONE_N))
    assert not checks.is_zero_matrix(lhs - (rhs + one_mn * K * ONE_N))


def test_ch09_centring_numeric_rejects_row_means_only():
    Phi = kpca.polynomial_feature_map(
        np.random.default_rng(0).normal(size=(20, 2)), degree=2
    )
    K_num = Phi @ Phi.T
    explicit = (Phi - Phi.mean(axis=0)) @ (Phi - Phi.mean(axis=0)).T
    scale = np.abs(explicit).max()
    assert np.abs(kpca.center_kernel(K_num) - explicit).max() < 1e-10 * scale
    half = K_num - K_num.mean(axis=0)  # only the column means removed
    assert np.abs(half - explicit).max() > 1e-3 * scale
