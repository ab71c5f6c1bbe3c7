"""The checks every eigensolver's answer passes before it is accepted."""

from __future__ import annotations

from typing import Protocol

import numpy as np
import scipy.sparse.linalg

__all__ = ["Operator", "missed_above", "pairs_check_out"]

# An accepted pair has ||A v - mu v|| below this many units of round-off of
# ||A||_F, and vectors orthonormal to the same order.
_CHECK_ROUNDOFF_UNITS = 1e3


class Operator(Protocol):
    """A symmetric matrix known through its products (``A @ X``, ``Xt @ A``).

    ``materialize()`` returns the matrix itself, for the dense solver; after
    it the operator may not be used again.
    """

    shape: tuple[int, int]

    def __matmul__(self, X: np.ndarray) -> np.ndarray: ...

    def __rmatmul__(self, Xt: np.ndarray) -> np.ndarray: ...

    def materialize(self) -> np.ndarray: ...


def pairs_check_out(
    A: np.ndarray | Operator, w: np.ndarray, V: np.ndarray, k: int, tol: float
) -> bool:
    """Whether ``(w, V)`` are ``k`` orthonormal eigenpairs of ``A`` to ``tol``."""
    if (
        w.shape != (k,)
        or V.shape != (A.shape[0], k)
        or not np.all(np.isfinite(w))
    ):
        return False
    if isinstance(A, np.ndarray):
        scale = float(np.linalg.norm(A))
    else:  # an operator: the largest eigenvalue found bounds its scale
        scale = float(np.max(np.abs(w))) if w.size else 0.0
    scale = max(scale, np.finfo(float).tiny)
    roundoff = _CHECK_ROUNDOFF_UNITS * np.finfo(float).eps
    residual = np.linalg.norm(A @ V - V * w, axis=0)
    if np.any(residual > max(tol, roundoff) * scale):
        return False
    gram = V.T @ V
    np.fill_diagonal(gram, np.diag(gram) - 1.0)
    return bool(np.max(np.abs(gram)) <= max(tol, roundoff) * max(1, k))


def missed_above(
    A: np.ndarray | Operator,
    w: np.ndarray,
    V: np.ndarray,
    rng: np.random.Generator,
) -> bool:
    """Whether ``A`` has an eigenvalue above ``w[-1]`` outside ``span(V)``.

    Lanczos on the operator deflated by the pairs found: its top eigenvalue is
    the largest eigenvalue of ``A`` that was not found.
    """
    n = A.shape[0]

    def deflated(x):
        x = x - V @ (V.T @ x)
        y = A @ x
        return y - V @ (V.T @ y)

    operator = scipy.sparse.linalg.LinearOperator(
        (n, n), matvec=deflated, dtype=float
    )
    try:
        top = scipy.sparse.linalg.eigsh(
            operator,
            k=1,
            which="LA",
            tol=1e-8,
            v0=rng.uniform(-1.0, 1.0, n),
            return_eigenvectors=False,
        )[0]
    except scipy.sparse.linalg.ArpackError:
        return True
    margin = 1e-8 * max(abs(w[0]), np.finfo(float).tiny)
    return bool(top > w[-1] + margin)
