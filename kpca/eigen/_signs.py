"""The sign convention of eigenvectors: the leading entry is positive."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_array

__all__ = ["SIGN_TIE_RTOL", "align_signs", "sign_flips"]

#: Entries whose magnitudes differ by less than this fraction of the largest
#: count as tied for the sign convention, so round-off cannot flip a sign.
SIGN_TIE_RTOL = 1e-6


def align_signs(V: Any) -> np.ndarray:
    """Flip the columns of ``V`` so that each one's leading entry is positive.

    The leading entry of a column is its first entry whose magnitude is
    within ``SIGN_TIE_RTOL`` (a millionth) of the column's largest magnitude.
    Taking the *first* of the near-largest entries, not the largest one,
    makes the convention immune to round-off: ``(0.7071, -0.7071)`` keeps
    its sign whichever of its two entries comes out one ulp larger.

    Parameters
    ----------
    V : array_like, shape (n, k) or (n,)
        Eigenvectors as columns.

    Returns
    -------
    ndarray
        A copy of ``V`` with the fixed sign convention; zero columns are left
        as they are.

    Examples
    --------
    >>> import numpy as np
    >>> align_signs(np.array([[0.6, 0.1], [-0.8, -0.2]]))
    array([[-0.6, -0.1],
           [ 0.8,  0.2]])

    A tie goes to the first entry, whatever the round-off:

    >>> align_signs(np.array([-0.7071067811865475, 0.7071067811865476]))
    array([ 0.70710678, -0.70710678])
    """
    try:
        ndim = np.ndim(V)
    except ValueError:  # ragged nested lists: check_array says why
        ndim = 2
    if ndim not in (1, 2):
        raise ValueError(f"V must be 1-D or 2-D, got shape {np.shape(V)}")
    # Real, finite numbers (complex input raises): a copy, never V itself.
    V = check_array(V, "V", ndim=ndim, min_rows=0, min_cols=0, copy=True)
    if V.size == 0:
        return V
    M = V[:, None] if V.ndim == 1 else V
    M *= sign_flips(M)
    return V


def sign_flips(M: np.ndarray) -> np.ndarray:
    """The signs (+1 or -1, one per column of ``M``) that :func:`align_signs`
    multiplies the columns by; +1 for a zero column.

    Callers that must flip other arrays along with ``M`` (the coefficients
    of a direction in another basis, say) use these.
    """
    magnitude = np.abs(M)
    near_largest = magnitude >= (1.0 - SIGN_TIE_RTOL) * magnitude.max(axis=0)
    rows = np.argmax(near_largest, axis=0)  # first True in each column
    signs = np.sign(M[rows, np.arange(M.shape[1])])
    signs[signs == 0] = 1.0
    return signs
