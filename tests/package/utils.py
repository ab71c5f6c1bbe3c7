"""Assertions shared by the unit tests."""

import numpy as np


def assert_equal_up_to_sign(A, B, rtol=1e-7, atol=1e-9):
    """Columns of ``A`` and ``B`` agree up to one sign per column.

    The sign is read from the entry of ``B`` of largest magnitude, so a zero
    inner product (or a zero entry) never decides it.
    """
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    assert A.shape == B.shape, f"shapes differ: {A.shape} != {B.shape}"
    for j in range(A.shape[1]):
        i = int(np.argmax(np.abs(B[:, j])))
        sign = -1.0 if A[i, j] * B[i, j] < 0 else 1.0
        np.testing.assert_allclose(
            A[:, j],
            sign * B[:, j],
            rtol=rtol,
            atol=atol,
            err_msg=f"column {j}",
        )
