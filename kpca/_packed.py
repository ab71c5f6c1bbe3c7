r"""A symmetric matrix stored once: its upper triangle, in panels of rows.

An iterative eigensolver needs a symmetric matrix :math:`K` only through its
products.  Storing the triangle on and above the diagonal, a panel of
``panel_rows`` rows at a time (each panel holds its rows from the diagonal
block rightwards, contiguously), takes :math:`n(n + r)/2` numbers for panels
of :math:`r` rows instead of :math:`n^2`: a kernel PCA of 8000 points keeps
256 MB instead of 512.  Every product reads each stored number once, and the
matrix is exactly symmetric by construction.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["PackedSymmetric"]


class PackedSymmetric:
    r"""The upper triangle of a symmetric matrix, as an operator.

    Panel :math:`p` holds rows :math:`e_p \le i < e_{p+1}` and columns
    :math:`j \ge e_p`: its square diagonal block, in full, and the part right
    of it.  The part left of it is the transpose of earlier panels' parts.
    Internal to kpca: the kernels write their tiles into :meth:`block`, and
    the eigensolvers take the result like a matrix (``Xt @ K`` for vectors
    as rows, ``K @ X`` for columns, ``K @ x`` for one vector, each in the
    matrix's precision), or ask for the dense matrix (:meth:`materialize`).
    """

    # NumPy must hand `Xt @ K` to __rmatmul__ instead of converting K.
    __array_ufunc__ = None
    ndim = 2

    def __init__(self, n: int, dtype: np.dtype, panel_rows: int) -> None:
        self.shape = (n, n)
        self.dtype = np.dtype(dtype)
        self.edges = list(range(0, n, panel_rows)) + [n]
        sizes = [
            (stop - start) * (n - start)
            for start, stop in zip(self.edges, self.edges[1:], strict=False)
        ]
        # One allocation; each panel is a contiguous view of it.
        buffer = np.empty(sum(sizes), dtype=self.dtype)
        offsets = np.cumsum([0, *sizes])
        self.panels: list[np.ndarray] | None = [
            buffer[offsets[p] : offsets[p + 1]].reshape(
                stop - start, n - start
            )
            for p, (start, stop) in enumerate(
                zip(self.edges, self.edges[1:], strict=False)
            )
        ]

    def _stored(self) -> list[np.ndarray]:
        if self.panels is None:
            raise RuntimeError(
                "the matrix was materialized: its packed form is gone"
            )
        return self.panels

    def _parts(self):
        """Each panel with its first row and its diagonal block's width."""
        for panel, start, stop in zip(
            self._stored(), self.edges, self.edges[1:], strict=False
        ):
            yield panel, start, stop - start

    def block(self, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
        """The view of ``K[r0:r1, c0:c1]``, rows within one panel, ``c0 >= r0``."""
        p = self.edges.index(r0)
        assert r1 == self.edges[p + 1] and c0 >= r0
        return self._stored()[p][:, c0 - r0 : c1 - r0]

    def diagonal(self) -> np.ndarray:
        return np.concatenate(
            [np.diag(panel[:, :width]) for panel, _, width in self._parts()]
        )

    def trace(self, dtype: type | None = None) -> Any:
        """The sum of the diagonal, as ``ndarray.trace`` gives it."""
        return self.diagonal().sum(dtype=dtype)

    def peak(self) -> float:
        """``max |K_ij|`` (NaN if an entry is NaN)."""
        return max(
            max(float(panel.max()), -float(panel.min()))
            for panel, _, _ in self._parts()
        )

    def frobenius_norm(self) -> float:
        """:math:`\\lVert K\\rVert_F`, each off-diagonal number counted twice."""
        total = 0.0
        with np.errstate(over="ignore", invalid="ignore"):
            for panel, _, width in self._parts():
                # The whole panel twice, less its diagonal block once; no
                # reduction copies (a dot of the raveled panel, and einsum
                # over the block's strided view).
                whole = panel.ravel()
                square = panel[:, :width]
                total += 2.0 * float(whole @ whole) - float(
                    np.einsum("ij,ij->", square, square)
                )
        # An overflow (inf - inf is NaN) is reported as an infinite norm.
        return float(np.sqrt(total)) if np.isfinite(total) else np.inf

    def _rows_product(self, Xt: np.ndarray) -> np.ndarray:
        """``Xt @ K`` for the rows of a 2-d ``Xt``, in ``K``'s precision."""
        out = np.zeros((Xt.shape[0], self.shape[1]), dtype=self.dtype)
        for panel, start, width in self._parts():
            stop = start + width
            # This panel's rows of K, and (by symmetry) the columns below it.
            out[:, start:] += (panel.T @ Xt[:, start:stop].T).T
            if stop < self.shape[0]:
                out[:, start:stop] += (panel[:, width:] @ Xt[:, stop:].T).T
        return out

    def _vector_product(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros(self.shape[0], dtype=self.dtype)
        for panel, start, width in self._parts():
            stop = start + width
            out[start:stop] += panel @ x[start:]
            if stop < self.shape[0]:
                out[stop:] += x[start:stop] @ panel[:, width:]
        return out

    def _operand(
        self, X: np.ndarray, axis: int
    ) -> tuple[np.ndarray, np.dtype]:
        X = np.asarray(X)
        if X.ndim not in (1, 2) or X.shape[axis] != self.shape[0]:
            raise ValueError(
                f"operand of shape {X.shape} does not match a matrix of "
                f"shape {self.shape}"
            )
        result = np.result_type(self.dtype, X.dtype)
        return X.astype(self.dtype, copy=False), result

    def __matmul__(self, X: np.ndarray) -> np.ndarray:
        X, result = self._operand(X, 0)
        if X.ndim == 1:
            return self._vector_product(X).astype(result, copy=False)
        # K is symmetric: its products with columns are the transposed
        # products with rows.
        Y = self._rows_product(np.ascontiguousarray(X.T))
        return Y.T.astype(result, copy=False)

    def __rmatmul__(self, Xt: np.ndarray) -> np.ndarray:
        Xt, result = self._operand(Xt, -1)
        if Xt.ndim == 1:
            return self._vector_product(Xt).astype(result, copy=False)
        return self._rows_product(Xt).astype(result, copy=False)

    def to_dense(self) -> np.ndarray:
        """The whole matrix, a new array."""
        n = self.shape[0]
        K = np.empty(self.shape, dtype=self.dtype)
        for panel, start, width in self._parts():
            stop = start + width
            K[start:stop, start:] = panel
            # The mirror, through a ufunc on the transposed view, which
            # walks both sides in cache-friendly blocks.
            if stop < n:
                np.positive(panel[:, width:], out=K[stop:, start:stop].T)
        return K

    def materialize(self) -> np.ndarray:
        """The dense matrix; the packed form is then released."""
        K = self.to_dense()
        self.panels = None
        return K
