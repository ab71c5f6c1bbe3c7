r"""Data that arrive in chunks, and the mean and covariance accumulated over them.

Approximate kernel PCA (:mod:`kpca.nystroem`, :mod:`kpca.random_features`)
never holds more than one chunk of rows at a time.  This module provides the
two pieces that make that possible:

* :func:`iter_chunks` reads data given as an array, as an array-like that
  can be sliced by rows without loading it (``numpy.memmap``, and the
  ``shape`` + slicing protocol of zarr, h5py or dask arrays), as a list of
  2-D chunks, or as any iterable of 2-D chunks (a generator, for instance).
  Every chunk is validated and cut to at most ``chunk_size`` rows.
* :class:`StreamingMoments` accumulates the number of rows, the mean and the
  centred cross-product (scatter) matrix

  .. math::

      S = \sum_i (f_i - \bar f)(f_i - \bar f)^\top

  chunk by chunk.  Each chunk is centred on its own mean first, and chunks
  are combined with the pairwise update of Chan, Golub and LeVeque: for two
  parts with counts :math:`n_a, n_b`, means :math:`\bar f_a, \bar f_b`
  and scatters :math:`S_a, S_b`,

  .. math::

      \bar f = \bar f_a + \tfrac{n_b}{n}\,\delta,\qquad
      S = S_a + S_b + \tfrac{n_a n_b}{n}\,\delta\delta^\top,\qquad
      \delta = \bar f_b - \bar f_a,\quad n = n_a + n_b .

  The update never forms :math:`\sum_i f_i f_i^\top - n\bar f\bar f^\top`,
  whose two terms cancel when the mean is large compared with the spread.
  :meth:`StreamingMoments.merge` is the reduce step of a map-reduce: moments
  computed on separate workers combine exactly into those of the union.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ._validation import check_array

__all__ = ["StreamingMoments", "is_one_shot", "iter_chunks"]


def _is_sparse(X: Any) -> bool:
    try:
        import scipy.sparse
    except ImportError:  # pragma: no cover - scipy is a dependency
        return False
    return scipy.sparse.issparse(X)


def is_one_shot(X: Any) -> bool:
    """Whether ``X`` is an iterator that can be read only once (a generator, say).

    Arrays, lists of chunks and other iterables give a fresh iterator each
    time and can be read as often as needed.

    Examples
    --------
    >>> import numpy as np
    >>> is_one_shot(np.zeros((4, 2))), is_one_shot(c for c in [np.zeros((4, 2))])
    (False, True)
    """
    return isinstance(X, Iterator)


def _shape(x: Any) -> tuple:
    """``np.shape(x)``, or ``()`` for what numpy cannot shape (check_array says why)."""
    try:
        return tuple(np.shape(x))
    except (TypeError, ValueError):  # ragged nested lists and the like
        return ()


def _rows_sliceable(X: Any) -> bool:
    shape = getattr(X, "shape", None)
    return (
        shape is not None
        and hasattr(X, "__getitem__")
        and len(shape) == 2
        and not _is_sparse(X)
    )


def _check_shape(shape: tuple, name: str) -> None:
    """Messages for the two shape errors users meet most, worded as scikit-learn's."""
    if len(shape) == 1:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features), got a 1-D "
            f"array of shape {shape}. Reshape your data either using X.reshape(-1, 1) "
            "if it has a single feature or X.reshape(1, -1) if it is a single sample"
        )
    if len(shape) == 2 and shape[1] == 0:
        raise ValueError(
            f"{name} has 0 feature(s) (shape={shape}) while a minimum of 1 is required."
        )


def _check_chunk(chunk: Any, name: str, n_features: int | None) -> np.ndarray:
    _check_shape(_shape(chunk), name)
    chunk = check_array(chunk, name, min_rows=0)
    if n_features is not None and chunk.shape[1] != n_features:
        raise ValueError(
            f"{name} has {chunk.shape[1]} features, but the chunks before it "
            f"have {n_features}: every chunk must have the same columns"
        )
    return chunk


def _check_chunk_size(chunk_size: Any) -> int:
    if isinstance(chunk_size, bool) or not isinstance(
        chunk_size, numbers.Integral
    ):
        raise TypeError(
            f"chunk_size must be None or a positive integer, got {chunk_size!r}"
        )
    if chunk_size < 1:
        raise ValueError(
            f"chunk_size must be a positive integer, got {chunk_size!r}"
        )
    return int(chunk_size)


def iter_chunks(
    X: Any, chunk_size: int, name: str = "X"
) -> Iterator[np.ndarray]:
    """Yield the rows of ``X`` as validated float64 chunks of at most ``chunk_size`` rows.

    Parameters
    ----------
    X : array-like, list of 2-D chunks, or iterable of 2-D chunks
        * a NumPy array, or any object with a 2-D ``shape`` that can be
          sliced by rows (``X[i:j]``), read one slice at a time: a
          ``numpy.memmap`` or a zarr, h5py or dask array is never loaded
          whole; the slices follow the stored blocks (``X.chunks``), so
          each block is read (or computed) once;
        * a list or tuple: of 2-D chunks if its first element is 2-D,
          otherwise the rows of one array;
        * any other iterable of 2-D chunks, e.g. a generator reading files.
    chunk_size : int
        Largest number of rows yielded at once; larger chunks are split.
    name : str
        How error messages call ``X``.

    Yields
    ------
    ndarray, shape (rows, n_features)
        Finite float64 chunks, all with the same number of columns; chunks
        without rows are skipped.

    Raises
    ------
    TypeError
        Non-numeric data, or something that is neither an array nor an
        iterable of arrays.  (A scipy.sparse matrix is read in dense chunks
        of at most :math:`2^{21}` entries.)
    ValueError
        NaN or infinity, a chunk that is not 2-D, or chunks whose numbers of
        columns differ.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(10.0).reshape(5, 2)
    >>> [c.shape for c in iter_chunks(X, chunk_size=2)]
    [(2, 2), (2, 2), (1, 2)]
    >>> [c.shape for c in iter_chunks([X[:3], X[3:]], chunk_size=2)]
    [(2, 2), (1, 2), (2, 2)]
    """
    chunk_size = _check_chunk_size(chunk_size)
    if _is_sparse(X):
        return _iter_sparse(X, chunk_size, name)
    if isinstance(X, (str, bytes)) or X is None:
        check_array(X, name)  # raises the package's TypeError
    if isinstance(X, (list, tuple)) and not len(X):
        raise ValueError(f"{name} has no rows: it is empty")
    if isinstance(X, (list, tuple)) and len(_shape(X[0])) == 2:
        chunks: Iterable[Any] = X
    elif isinstance(X, np.ndarray) or _rows_sliceable(X):
        _check_shape(tuple(X.shape), name)
        if len(X.shape) != 2:
            check_array(X, name)  # raises: not 2-D
        return _iter_sliceable(X, chunk_size, name)
    elif isinstance(X, (list, tuple)) or not isinstance(X, Iterable):
        # One array in memory: rows as nested lists, or an object with __array__.
        _check_shape(_shape(X), name)
        return _iter_sliceable(check_array(X, name), chunk_size, name)
    else:
        chunks = X
    return _iter_chunk_list(chunks, chunk_size, name)


def _stored_blocks(X: Any, chunk_size: int) -> list[int]:
    """Where the stored blocks of ``X`` start and end, as row indices.

    A dask array's row blocks (``X.chunks[0]``) and the row chunks of zarr
    or h5py (``X.chunks``, a tuple of ints; read in whole multiples close
    to ``chunk_size``) are each read by one slice, so no block is read (or,
    for dask, computed) twice; other arrays are cut every ``chunk_size``
    rows.
    """
    n_rows = X.shape[0]
    chunks = getattr(X, "chunks", None)
    if isinstance(chunks, tuple) and chunks and isinstance(chunks[0], tuple):
        return [0, *np.cumsum(chunks[0]).astype(int).tolist()]  # dask
    step = chunk_size
    if (
        isinstance(chunks, tuple)
        and chunks
        and isinstance(chunks[0], numbers.Integral)
        and int(chunks[0]) > 0
    ):
        rows = int(chunks[0])  # zarr or h5py: blocks of this many rows
        step = max(rows, chunk_size // rows * rows)
    return [*range(0, n_rows, step), n_rows]


def _iter_sliceable(
    X: Any, chunk_size: int, name: str
) -> Iterator[np.ndarray]:
    n_rows, n_features = X.shape
    if n_rows == 0:
        check_array(np.empty((0, n_features)), name)  # raises: no rows
    cuts = _stored_blocks(X, chunk_size)
    for start, stop in zip(cuts[:-1], cuts[1:], strict=True):
        if stop > start:
            block = _check_chunk(np.asarray(X[start:stop]), name, n_features)
            # A block larger than chunk_size (a dask block) is split in memory.
            for i in range(0, block.shape[0], chunk_size):
                yield block[i : i + chunk_size]


# A sparse matrix is read in dense chunks of at most this many entries.
_SPARSE_CHUNK_ENTRIES = 2**21


def _iter_sparse(X: Any, chunk_size: int, name: str) -> Iterator[np.ndarray]:
    """Dense chunks of the rows of a scipy.sparse matrix (validated)."""
    X = check_array(X, name, accept_sparse=True)
    n_rows, n_features = X.shape
    step = min(chunk_size, max(1, _SPARSE_CHUNK_ENTRIES // n_features))
    for start in range(0, n_rows, step):
        yield X[start : start + step].toarray()


def _iter_chunk_list(
    chunks: Iterable[Any], chunk_size: int, name: str
) -> Iterator[np.ndarray]:
    n_features = None
    any_rows = False
    for i, raw in enumerate(chunks):
        chunk = _check_chunk(raw, f"{name} (chunk {i})", n_features)
        n_features = chunk.shape[1]
        for start in range(0, chunk.shape[0], chunk_size):
            any_rows = True
            yield chunk[start : start + chunk_size]
    if not any_rows:
        raise ValueError(f"{name} has no rows: no chunk holds a sample")


def _peek(
    chunks: Iterator[np.ndarray],
) -> tuple[np.ndarray, Iterator[np.ndarray]]:
    """The first chunk, and an iterator that still yields it first."""
    first = next(chunks)
    return first, itertools.chain([first], chunks)


class StreamingMoments:
    r"""Count, mean and centred scatter matrix of rows seen chunk by chunk.

    After :meth:`update` has been called on chunks :math:`F_1, F_2, \dots`
    (each of shape ``(rows, p)``), :attr:`n_samples`, :attr:`mean` and
    :attr:`scatter` equal those of the stacked rows, up to round-off:
    :math:`n`, :math:`\bar f = \frac1n\sum_i f_i` and
    :math:`S = \sum_i (f_i - \bar f)(f_i - \bar f)^\top`.  Memory is
    :math:`O(p^2)` whatever the number of rows.

    Two precautions keep the digits that a large mean would cost.  Every row
    is first shifted by a fixed reference row :math:`s` (the first row seen):
    the shifted values are of the size of the spread, so their means are
    accurate, and the subtraction is exact for rows close to :math:`s`.  Each
    chunk is then centred on its own (shifted) mean, its scatter taken with
    one symmetric rank-``rows`` update (BLAS ``syrk``,
    :math:`O(\text{rows}\cdot p^2)`), and the parts are combined with the
    pairwise formula of Chan, Golub and LeVeque (module docstring).  The
    textbook :math:`\sum_i f_if_i^\top - n\bar f\bar f^\top` is never formed.

    Parameters
    ----------
    n_columns : int, optional
        :math:`p`; taken from the first chunk when None.

    Attributes
    ----------
    n_samples : int
        Rows seen so far.
    mean : ndarray, shape (p,)
    scatter : ndarray, shape (p, p)
        Exactly symmetric.

    References
    ----------
    T. F. Chan, G. H. Golub and R. J. LeVeque, "Algorithms for computing the
    sample variance: analysis and recommendations", *The American
    Statistician* 37(3), 242-247, 1983.

    Examples
    --------
    Two workers each summarise their part; merging gives the moments of the
    whole data, as one pass over all rows would.

    >>> import numpy as np
    >>> F = np.array([[1.0, 2.0], [3.0, 0.0], [5.0, 4.0], [7.0, 6.0]])
    >>> a = StreamingMoments().update(F[:1])
    >>> b = StreamingMoments().update(F[1:])
    >>> both = a.merge(b)
    >>> both.n_samples, both.mean
    (4, array([4., 3.]))
    >>> both.scatter
    array([[20., 16.],
           [16., 20.]])
    >>> bool(np.allclose(both.scatter, (F - F.mean(0)).T @ (F - F.mean(0))))
    True
    """

    def __init__(self, n_columns: int | None = None) -> None:
        self.n_samples = 0
        self.n_columns = n_columns
        self.shift: np.ndarray | None = None
        self._shifted_mean: np.ndarray | None = None
        self.scatter: np.ndarray | None = None

    @property
    def mean(self) -> np.ndarray | None:
        r"""The mean of the rows seen, :math:`s + \overline{(f - s)}`."""
        if self.n_samples == 0:
            return None
        shift, shifted_mean = self.shift, self._shifted_mean
        assert shift is not None and shifted_mean is not None
        return shift + shifted_mean

    def update(self, F: np.ndarray) -> StreamingMoments:
        """Add the rows of ``F`` (shape ``(rows, p)``); returns ``self``."""
        F = np.asarray(F, dtype=float)
        if F.ndim != 2:
            raise ValueError(f"F must be a 2-D array, got shape {F.shape}")
        if F.shape[0] == 0:
            return self
        self._check_columns(F.shape[1])
        if self.shift is None:
            self.shift = F[0].copy()
        centred = F - self.shift
        chunk_mean = centred.mean(axis=0)
        centred -= chunk_mean
        # numpy runs A.T @ A as one BLAS syrk: half the work of a general product.
        chunk_scatter = centred.T @ centred
        del centred
        return self._combine(F.shape[0], chunk_mean, chunk_scatter)

    def merge(self, other: StreamingMoments) -> StreamingMoments:
        """The moments of the rows of ``self`` and ``other`` together (a new object)."""
        if not isinstance(other, StreamingMoments):
            raise TypeError(
                f"other must be a StreamingMoments, got {type(other).__name__}"
            )
        out = StreamingMoments(self.n_columns)
        for part in (self, other):
            if part.n_samples:
                # A part with rows has its columns, shift, mean and scatter.
                p, shift = part.n_columns, part.shift
                shifted_mean, scatter = part._shifted_mean, part.scatter
                assert p is not None and shift is not None
                assert shifted_mean is not None and scatter is not None
                out._check_columns(p)
                if out.shift is None:
                    out.shift = shift.copy()
                # The part's mean relative to out's shift: (s_part - s) + mean.
                mean = (shift - out.shift) + shifted_mean
                out._combine(part.n_samples, mean, scatter)
        return out

    def _check_columns(self, p: int) -> None:
        if self.n_columns is None:
            self.n_columns = p
        if p != self.n_columns:
            raise ValueError(
                f"F has {p} columns, but the rows before it have {self.n_columns}"
            )

    def _combine(
        self, count: int, shifted_mean: np.ndarray, scatter: np.ndarray
    ) -> StreamingMoments:
        if self.n_samples == 0:
            self.n_samples = count
            self._shifted_mean = shifted_mean.copy()
            self.scatter = scatter.copy()
            return self
        weighted, self._shifted_mean = self._pairwise(count, shifted_mean)
        self.scatter += scatter
        # outer(w, w) is exactly symmetric, as are syrk's results, so S stays so.
        self.scatter += np.multiply.outer(weighted, weighted)
        self.n_samples += count
        return self

    def _pairwise(
        self, count: int, shifted_mean: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        r"""The pairwise formula's step for a part of ``count`` rows.

        For these moments (some rows seen) and a part with that shifted
        mean: :math:`w = \sqrt{n_an_b/n}\,\delta`, whose :math:`ww^\top`
        the union's scatter adds to the parts' scatters, and the union's
        shifted mean.
        """
        total = self.n_samples + count
        delta = shifted_mean - self._shifted_mean
        weighted = delta * np.sqrt(self.n_samples * count / total)
        return weighted, self._shifted_mean + delta * (count / total)

    def covariance(self) -> np.ndarray:
        r"""The covariance :math:`S / n` (the book's :math:`1/n` convention)."""
        if self.n_samples == 0:
            raise ValueError("no rows have been seen: call update first")
        scatter = self.scatter
        assert scatter is not None
        return scatter / self.n_samples
