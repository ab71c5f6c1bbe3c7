import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def assert_equal_up_to_sign(A, B, rtol=1e-7, atol=1e-9):
    """Columns of A and B agree up to a sign per column."""
    A, B = np.asarray(A), np.asarray(B)
    assert A.shape == B.shape
    for j in range(A.shape[1]):
        s = np.sign(A[:, j] @ B[:, j]) or 1.0
        np.testing.assert_allclose(A[:, j], s * B[:, j], rtol=rtol, atol=atol)
