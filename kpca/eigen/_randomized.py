"""Randomised block subspace iteration with Rayleigh--Ritz."""

from __future__ import annotations

import numpy as np

from .._spectrum import symmetrize
from ._checks import Operator

__all__ = ["subspace"]


def subspace(
    A: np.ndarray | Operator,
    k: int,
    tol: float,
    max_iter: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray] | None:
    n = A.shape[0]
    p = min(n, max(2 * k, k + 20))
    Q, _ = np.linalg.qr(rng.standard_normal((n, p)))
    for _ in range(max_iter):
        Y = A @ Q
        T = symmetrize(Q.T @ Y, inplace=True)
        theta, S = np.linalg.eigh(T)
        order = np.argsort(theta)[::-1]
        theta, S = theta[order], S[:, order]
        w, V = theta[:k], Q @ S[:, :k]
        residual = np.linalg.norm(Y @ S[:, :k] - V * w, axis=0)
        if np.all(residual <= tol * max(abs(theta[0]), np.finfo(float).tiny)):
            return w, V
        # The next block spans A Q; rotating by S first keeps the Ritz order.
        Q, _ = np.linalg.qr(Y @ S)
    return None
