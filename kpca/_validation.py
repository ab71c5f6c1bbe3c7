"""Input checks shared by the estimators and functions of :mod:`kpca`.

Every public entry point validates its arguments here so that bad input is
rejected with a :class:`ValueError` or :class:`TypeError` that names the
offending parameter, instead of propagating NaNs or silently wrong answers.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = [
    "check_array",
    "check_square",
    "check_symmetric",
    "check_positive_float",
    "check_nonnegative_int",
    "check_n_components",
    "check_is_fitted",
    "check_choice",
]


def check_array(
    X: Any,
    name: str = "X",
    *,
    ndim: int = 2,
    min_rows: int = 1,
    min_cols: int = 1,
) -> np.ndarray:
    """Return ``X`` as a finite float64 array with ``ndim`` dimensions.

    Raises
    ------
    TypeError
        If ``X`` is not array-like or holds non-numeric values.
    ValueError
        If ``X`` has the wrong number of dimensions, too few rows or columns,
        or contains NaN or infinity.
    """
    if X is None:
        raise TypeError(f"{name} must be an array-like of numbers, got None")
    if isinstance(X, (str, bytes)):
        raise TypeError(
            f"{name} must be an array-like of numbers, got {type(X).__name__}"
        )
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(
            f"{name} must be an array-like of numbers: {exc}"
        ) from None
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number)
        or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise TypeError(
            f"{name} must hold real numbers, got dtype {arr.dtype}"
        )
    if np.iscomplexobj(arr):
        raise TypeError(
            f"{name} must hold real numbers, got complex dtype {arr.dtype}"
        )
    arr = arr.astype(np.float64, copy=False)
    if arr.ndim != ndim:
        raise ValueError(
            f"{name} must be a {ndim}-D array, got {arr.ndim}-D with shape {arr.shape}"
            + (
                " (reshape a single sample with X.reshape(1, -1))"
                if arr.ndim == 1 and ndim == 2
                else ""
            )
        )
    if ndim >= 1 and arr.shape[0] < min_rows:
        raise ValueError(
            f"{name} must have at least {min_rows} row(s) (samples), got shape {arr.shape}"
        )
    if ndim == 2 and arr.shape[1] < min_cols:
        raise ValueError(
            f"{name} must have at least {min_cols} column(s), got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity")
    return arr


def check_square(M: np.ndarray, name: str) -> np.ndarray:
    """Raise ``ValueError`` unless ``M`` is a square 2-D array."""
    if M.shape[0] != M.shape[1]:
        raise ValueError(
            f"{name} must be a square matrix, got shape {M.shape}"
        )
    return M


def check_symmetric(
    M: np.ndarray, name: str, *, rtol: float = 1e-10
) -> np.ndarray:
    """Raise ``ValueError`` unless the square ``M`` is symmetric up to ``rtol``."""
    check_square(M, name)
    scale = (
        max(float(np.max(np.abs(M))), np.finfo(float).tiny) if M.size else 1.0
    )
    if M.size and float(np.max(np.abs(M - M.T))) > rtol * scale:
        raise ValueError(
            f"{name} must be symmetric (max |M - M.T| exceeds {rtol:g} of max |M|)"
        )
    return M


def check_positive_float(value: Any, name: str) -> float:
    """Return ``value`` as a float, raising unless it is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a positive real number, got {value!r}"
        )
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def check_real(value: Any, name: str) -> float:
    """Return ``value`` as a float, raising unless it is a finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def check_nonnegative_int(value: Any, name: str) -> int:
    """Return ``value`` as an int, raising unless it is an integer >= 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            raise TypeError(
                f"{name} must be an integer, got the float {value!r}"
            )
        raise TypeError(
            f"{name} must be a non-negative integer, got {value!r}"
        )
    if value < 0:
        raise ValueError(
            f"{name} must be a non-negative integer, got {value!r}"
        )
    return int(value)


def check_n_components(
    n_components: Any, upper: int, name: str = "n_components"
) -> int | None:
    """Validate ``n_components`` against the largest allowed value ``upper``."""
    if n_components is None:
        return None
    if isinstance(n_components, bool) or not isinstance(
        n_components, numbers.Integral
    ):
        raise TypeError(
            f"{name} must be None or a positive integer, got {n_components!r}"
        )
    if not 1 <= n_components <= upper:
        raise ValueError(
            f"{name} must be between 1 and {upper} for this data, got {n_components}"
        )
    return int(n_components)


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Raise unless ``value`` is one of the strings in ``choices``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {choices}, got {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_is_fitted(estimator: Any, attribute: str) -> None:
    """Raise ``ValueError`` if ``estimator`` has not been fitted yet."""
    if not hasattr(estimator, attribute):
        raise ValueError(
            f"this {type(estimator).__name__} instance is not fitted yet: call fit before using it"
        )
