"""kernel_diagonal: the diagonal of the kernel matrix, without the matrix."""

import numpy as np
import pytest

import kpca


@pytest.mark.parametrize(
    "kernel, params",
    [
        ("linear", {}),
        ("polynomial", {"degree": 3, "coef0": 0.5}),
        ("gaussian", {"sigma": 0.7}),
        (lambda X, Y: (X @ Y.T + 1.0) ** 2, {}),
    ],
)
def test_kernel_diagonal_is_the_diagonal_of_the_kernel_matrix(
    rng, kernel, params
):
    X = rng.standard_normal((7, 3))
    K = kpca.make_kernel(kernel, **params)(X)
    np.testing.assert_allclose(
        kpca.kernel_diagonal(kernel, X, **params), np.diag(K), rtol=1e-13
    )


@pytest.mark.parametrize(
    "kernel, params, exc, match",
    [
        ("gaussian", {"sigma": 0.0}, ValueError, "sigma"),
        ("polynomial", {"degree": -1}, ValueError, "degree"),
        ("polynomial", {"coef0": "1"}, TypeError, "coef0"),
        ("cosine", {}, ValueError, "kernel"),
        (["linear"], {}, TypeError, "kernel"),
    ],
)
def test_kernel_diagonal_rejects_what_make_kernel_rejects(
    kernel, params, exc, match
):
    with pytest.raises(exc, match=match):
        kpca.kernel_diagonal(kernel, np.ones((2, 2)), **params)
