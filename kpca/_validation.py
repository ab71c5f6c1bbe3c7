"""Input checks shared by the estimators and functions of :mod:`kpca`.

Every public entry point validates its arguments here so that bad input is
rejected with a :class:`ValueError` or :class:`TypeError` that names the
offending parameter, instead of propagating NaNs or silently wrong answers.
This module is internal: its names may change without notice.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._base import check_is_fitted
from ._threads import column_sums, slices

__all__ = [
    "ComplexDataError",
    "check_array",
    "check_bool",
    "check_choice",
    "check_finite_sums",
    "check_generator",
    "check_is_fitted",
    "check_n_components",
    "check_nonnegative_int",
    "check_positive_float",
    "check_positive_int",
    "check_random_state",
    "check_real",
    "check_square",
    "check_symmetric",
    "random_seed",
]


class ComplexDataError(TypeError, ValueError):
    """Complex input where real numbers are needed.

    A :class:`TypeError` by meaning, and a :class:`ValueError` as well because
    scikit-learn's estimator checks expect one for complex data.
    """


def _is_sparse(X: Any) -> bool:
    return hasattr(X, "toarray") and hasattr(X, "nnz")


def _working_dtype(dtype: np.dtype, keep_float32: bool) -> type:
    """float32 stays float32 when the caller can work in it; all else is float64."""
    return np.float32 if keep_float32 and dtype == np.float32 else np.float64


# One branch per rejected kind of input, each with its own message: the
# checks read best as one list.
def check_array(  # noqa: C901
    X: Any,
    name: str = "X",
    *,
    ndim: int = 2,
    min_rows: int = 1,
    min_cols: int = 1,
    copy: bool = False,
    keep_float32: bool = False,
    accept_sparse: bool = False,
    finite: bool = True,
) -> Any:
    """Return ``X`` as a finite float64 array with ``ndim`` dimensions.

    Parameters
    ----------
    X : array_like
        The input.
    name : str
        Its parameter name, used in error messages.
    ndim : int, default 2
        Required number of dimensions.
    min_rows, min_cols : int, default 1
        Least number of rows (samples) and, for 2-D input, columns.
    copy : bool, default False
        Return a new array even when ``X`` already is a float64 array, so
        that the caller's array is never aliased.
    keep_float32 : bool, default False
        Return float32 input as float32 (the caller works in single
        precision); any other input is still converted to float64.
    accept_sparse : bool, default False
        Return a ``scipy.sparse`` matrix or array in CSR format (its values
        as float64, or float32 with ``keep_float32``) instead of rejecting
        it.  Only 2-D input can be sparse.
    finite : bool, default True
        Check that a dense ``X`` holds no NaN or infinity.  False leaves the
        check to a caller that makes it in a pass over ``X`` it needs anyway
        (:func:`check_finite_sums`); sparse input is always checked.

    Returns
    -------
    ndarray of float64 (or float32), or a CSR sparse matrix

    Raises
    ------
    TypeError
        If ``X`` is not array-like, sparse, or holds non-numeric values
        (complex input raises :class:`ComplexDataError`, also a ValueError).
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
    if _is_sparse(X):
        if not accept_sparse:
            raise TypeError(
                f"{name} is a sparse matrix, but this kpca method needs a "
                "dense array: pass X.toarray()"
            )
        return _check_sparse(X, name, min_rows, min_cols, keep_float32)
    try:
        arr = np.asarray(X)
        if arr.dtype == object:
            arr = arr.astype(np.float64)
    except (TypeError, ValueError) as exc:  # ragged lists, strings in lists
        raise TypeError(
            f"{name} must be an array-like of numbers: {exc}"
        ) from None
    if np.iscomplexobj(arr):
        raise ComplexDataError(
            f"{name} must hold real numbers (Complex data not supported), "
            f"got dtype {arr.dtype}"
        )
    if not (
        np.issubdtype(arr.dtype, np.number)
        or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise TypeError(
            f"{name} must hold real numbers, got dtype {arr.dtype}"
        )
    arr = arr.astype(_working_dtype(arr.dtype, keep_float32), copy=copy)
    if arr.ndim != ndim:
        hint = ""
        if arr.ndim == 1 and ndim == 2:
            hint = (
                ". Reshape your data: X.reshape(1, -1) for a single sample, "
                "X.reshape(-1, 1) for a single feature"
            )
        raise ValueError(
            f"{name} must be a {ndim}-D array, got {arr.ndim}-D with shape "
            f"{arr.shape}{hint}"
        )
    if ndim >= 1 and arr.shape[0] < min_rows:
        raise ValueError(
            f"{name} has {arr.shape[0]} sample(s) (shape={arr.shape}) while a "
            f"minimum of {min_rows} is required."
        )
    if ndim == 2 and arr.shape[1] < min_cols:
        raise ValueError(
            f"{name} has {arr.shape[1]} feature(s) (shape={arr.shape}) while a "
            f"minimum of {min_cols} is required."
        )
    if finite:
        _check_finite(arr, name)
    return arr


def _check_finite(arr: np.ndarray, name: str) -> None:
    # In slices of rows of about 2**16 entries: the mask of a whole kernel
    # matrix of order 8000 would take 61 MiB.
    if arr.ndim == 0 or arr.size <= _FINITE_CHUNK:
        finite = bool(np.all(np.isfinite(arr)))
    else:
        parts = -(-arr.size // _FINITE_CHUNK)
        finite = all(np.all(np.isfinite(part)) for part in slices(arr, parts))
    if not finite:
        raise ValueError(f"{name} contains NaN or infinity")


_FINITE_CHUNK = 2**16

# A sum of squares below this lies within eps of float64's subnormal range,
# where products and sums keep only some of their digits: data (PCA's
# centred X, the feature PCAs' features) whose squares add up to less has
# lost them to underflow.
UNDERFLOW_SQUARES = np.finfo(float).tiny / np.finfo(float).eps


def check_finite_sums(X: np.ndarray, name: str = "X") -> np.ndarray | None:
    """The column sums of a dense 2-D ``X`` in float64, raising on NaN or infinity.

    A sum is finite only if every one of its terms is, so finite sums prove
    ``X`` finite in the same pass that the column means need; only when a
    sum is not finite are the entries themselves checked, for the error.
    Returns None when every entry is finite but a sum overflows float64
    (the caller then needs another way to its means).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        sums = column_sums(X)
    if np.all(np.isfinite(sums)):
        return sums
    _check_finite(X, name)
    return None


def _check_sparse(
    X: Any, name: str, min_rows: int, min_cols: int, keep_float32: bool
) -> Any:
    """A validated CSR copy (or view) of the sparse ``X``."""
    if np.iscomplexobj(X.dtype.type(0)):
        raise ComplexDataError(
            f"{name} must hold real numbers (Complex data not supported), "
            f"got dtype {X.dtype}"
        )
    if not (
        np.issubdtype(X.dtype, np.number) or np.issubdtype(X.dtype, np.bool_)
    ):
        raise TypeError(f"{name} must hold real numbers, got dtype {X.dtype}")
    if len(X.shape) != 2:
        raise ValueError(f"{name} must be a 2-D sparse matrix")
    X = X.tocsr().astype(_working_dtype(X.dtype, keep_float32))
    if X.shape[0] < min_rows:
        raise ValueError(
            f"{name} has {X.shape[0]} sample(s) (shape={X.shape}) while a "
            f"minimum of {min_rows} is required."
        )
    if X.shape[1] < min_cols:
        raise ValueError(
            f"{name} has {X.shape[1]} feature(s) (shape={X.shape}) while a "
            f"minimum of {min_cols} is required."
        )
    if not np.all(np.isfinite(X.data)):
        raise ValueError(f"{name} contains NaN or infinity")
    return X


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
    """Raise ``ValueError`` unless the square ``M`` is symmetric up to ``rtol``.

    The tolerance is relative to the largest magnitude of ``M``: ``1e-10``
    accepts matrices symmetric up to the round-off of their computation and
    rejects any real asymmetry.
    """
    check_square(M, name)
    if not M.size:
        return M
    n = M.shape[0]
    scale = max(float(max(M.max(), -M.min())), np.finfo(float).tiny)
    # Blocks of rows against blocks of columns: no n x n temporary.
    step = max(1, _BLOCK_ENTRIES // n)
    for start in range(0, n, step):
        rows = M[start : start + step]
        cols = M[:, start : start + step].T
        if float(np.max(np.abs(rows - cols))) > rtol * scale:
            raise ValueError(
                f"{name} must be symmetric (max |M - M.T| exceeds {rtol:g} "
                "of max |M|)"
            )
    return M


# Blocked loops over n x n matrices touch about this many entries (512 KiB of
# float64) at a time: small enough for the cache, large enough to amortise
# the Python loop.
_BLOCK_ENTRIES = 2**16


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


def check_positive_int(value: Any, name: str) -> int:
    """Return ``value`` as an int, raising unless it is an integer >= 1."""
    value = check_nonnegative_int(value, name)
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


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
    n_components = int(n_components)
    if not 1 <= n_components <= upper:
        raise ValueError(
            f"{name} must be between 1 and {upper} for this data, got {n_components}"
        )
    return n_components


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Raise unless ``value`` is one of the strings in ``choices``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {choices}, got {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_bool(value: Any, name: str) -> bool:
    """Raise ``TypeError`` unless ``value`` is True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_generator(
    value: Any, name: str = "random_state"
) -> np.random.Generator:
    """A NumPy ``Generator`` from ``random_state``.

    An integer >= 0 seeds a new generator, None gives the seed 0 (so results
    are reproducible), a ``numpy.random.Generator`` is used as it is and a
    legacy ``numpy.random.RandomState`` seeds a generator from its stream.
    """
    if isinstance(value, np.random.Generator):
        return value
    if isinstance(value, np.random.RandomState):
        return np.random.default_rng(value.randint(0, 2**31 - 1))
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, numbers.Integral)
    ):
        raise TypeError(
            f"{name} must be None, an integer, a numpy.random.Generator or a "
            f"numpy.random.RandomState, got {value!r}"
        )
    if value is not None and value < 0:
        raise ValueError(
            f"{name} must be a non-negative integer, got {value!r}"
        )
    return np.random.default_rng(0 if value is None else int(value))


def check_random_state(
    value: Any, name: str = "random_state"
) -> int | np.random.Generator | np.random.RandomState | None:
    """Validate a ``random_state``: the one rule of every :mod:`kpca` estimator.

    Accepted: None, a non-negative integer seed, a
    :class:`numpy.random.Generator` or a :class:`numpy.random.RandomState`
    (as scikit-learn accepts them).  Anything else raises an error that
    names the parameter: a :class:`TypeError` for another type, a
    :class:`ValueError` for a negative seed (NumPy's seeds are
    non-negative).  The value is returned unchanged; :func:`random_seed`
    turns it into the integer seed the algorithms use.
    """
    if value is None or isinstance(
        value, (np.random.Generator, np.random.RandomState)
    ):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be None, a non-negative integer, a "
            f"numpy.random.Generator or a numpy.random.RandomState, got "
            f"{value!r}"
        )
    if value < 0:
        raise ValueError(
            f"{name} must be a non-negative integer, got {value!r}"
        )
    return int(value)


def random_seed(value: Any, name: str = "random_state") -> int:
    """The integer seed of a ``random_state``, validated by :func:`check_random_state`.

    An integer is its own seed and None means 0, so that :mod:`kpca`'s
    results are reproducible by default.  A generator gives a seed drawn
    from it (and advances it), so that successive fits with one generator
    differ, as in scikit-learn.
    """
    value = check_random_state(value, name)
    if value is None:
        return 0
    if isinstance(value, np.random.Generator):
        return int(value.integers(2**63))
    if isinstance(value, np.random.RandomState):
        return int(value.randint(2**63 - 1, dtype=np.int64))
    return value
