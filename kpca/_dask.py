r"""Fitting and transforming dask arrays: a map-reduce over the row blocks.

A dask array is never slurped into the client.  A fit is one dask graph per
pass over the data:

* *map*: for each row block, where the block lives, the partial moments
  (count, mean, centred scatter) of its raw features
  :math:`g(X_b)` (:class:`kpca.streaming.StreamingMoments`);
* *reduce*: a binary tree of :meth:`StreamingMoments.merge` calls, in block
  order, so the result does not depend on which worker finished first;
* only the root, :math:`O(p^2)` numbers, reaches the client, which solves
  the small eigenproblem.

Sampled Nyström landmarks take one more pass before it: each block offers
its rows with the smallest keys of the keyed uniform sampler
(:mod:`kpca.landmarks`; the keys depend on the global row index only), a
tree keeps the smallest ``size`` of them, and for ``landmarks="kmeans"``
k-means runs on that sample in a task of the same graph.

Whatever dask scheduler is active (threads, processes or a
``distributed.Client``) runs the graphs; nothing here starts one.  dask is
imported only when a dask array is given, so ``import kpca`` does not need
it.

Examples
--------
A dask array of 4 blocks, fitted with the threaded scheduler; the scores are
a lazy dask array with the same row blocks:

>>> import dask
>>> import dask.array as da
>>> import numpy as np
>>> from kpca import NystroemKernelPCA
>>> X = np.random.default_rng(0).normal(size=(2000, 3))
>>> Xd = da.from_array(X, chunks=(500, 3))
>>> with dask.config.set(scheduler="threads"):
...     model = NystroemKernelPCA(2, n_landmarks=50).fit(Xd)
...     scores = model.transform(Xd)
>>> reference = NystroemKernelPCA(2, n_landmarks=50).fit(X)
>>> bool(np.allclose(model.eigenvalues_, reference.eigenvalues_, rtol=1e-10))
True
>>> type(scores).__name__, scores.chunks[0]
('Array', (500, 500, 500, 500))
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from .streaming import StreamingMoments, _check_chunk

__all__: list[str] = []


def is_dask_array(X: Any) -> bool:
    """Whether ``X`` is a ``dask.array.Array``, without importing dask."""
    module = sys.modules.get("dask.array")
    if module is None:  # dask.array never imported: X cannot be one
        return False
    return isinstance(X, module.Array)


def row_blocks(X: Any, name: str = "X") -> Any:
    """``X`` with one block across its columns, after checking it is 2-D."""
    if X.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features), "
            f"got a dask array of shape {X.shape}"
        )
    if any(np.isnan(c) for c in X.chunks[0]):
        raise ValueError(
            f"{name} has unknown row block sizes: call "
            f"{name}.compute_chunk_sizes() first"
        )
    if X.shape[1] == 0:
        raise ValueError(
            f"{name} has 0 feature(s) (shape={X.shape}) while a minimum of 1 "
            "is required."
        )
    if X.shape[0] == 0:
        raise ValueError(f"{name} has no rows: it is empty")
    if len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    return X


def _delayed_blocks(X: Any) -> list[Any]:
    return list(X.to_delayed().ravel())


def _tree(parts: Sequence[Any], combine: Callable[..., Any]) -> Any:
    """Reduce ``parts`` pairwise, level by level, in order (depth log2 n)."""
    import dask

    merge = dask.delayed(combine, pure=True)
    level = list(parts)
    while len(level) > 1:
        pairs = [
            merge(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)
        ]
        if len(level) % 2:
            pairs.append(level[-1])
        level = pairs
    return level[0]


def _block_moments(
    block: Any, feature_map: Any, n_features: int, rows: int
) -> StreamingMoments:
    """The moments of the raw features (or the rows) of one validated block.

    ``feature_map`` (None: the rows themselves) is a
    :class:`kpca._feature_pca.FeatureMap`.  The features are made ``rows``
    rows at a time: a block of the data may be far larger than its
    features' chunk (250,000 x 10 data, 20 MB, have 400 MB of kernel rows
    against 200 landmarks).
    """
    chunk = _check_chunk(block, "X (block)", n_features)
    if feature_map is None:
        moments = StreamingMoments()
        for start in range(0, chunk.shape[0], rows):
            moments.update(chunk[start : start + rows])
        return moments
    from ._feature_pca import _FeatureMoments, accumulate

    feature_moments = _FeatureMoments()
    for start in range(0, chunk.shape[0], rows):
        accumulate(feature_map, feature_moments, chunk[start : start + rows])
    return feature_moments


def _merge(a: StreamingMoments, b: StreamingMoments) -> StreamingMoments:
    return a.merge(b)


def moments(X: Any, feature_map: Any, rows: int) -> StreamingMoments:
    """One pass: the moments of the features (or of the rows) over ``X``.

    One graph: a task per row block, a tree of merges, one ``compute``.
    ``rows``: how many rows of a block are turned into features at once.
    """
    import dask

    task = dask.delayed(_block_moments, pure=True)
    # One task holds the feature map (the landmarks, say): it is sent to
    # each worker once, not embedded in every block's task.
    shared = (
        None if feature_map is None else dask.delayed(feature_map, pure=True)
    )
    parts = [task(b, shared, X.shape[1], rows) for b in _delayed_blocks(X)]
    (result,) = dask.compute(_tree(parts, _merge))
    return result


def _block_sample(
    block: Any, offset: int, size: int, seed: int | None, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """The block's rows with the ``size`` smallest keys, and their keys."""
    from .landmarks import _keyed_sample

    chunk = _check_chunk(block, "X (block)", n_features)
    return _keyed_sample(chunk, offset, size, seed)


def _merge_samples(
    a: tuple[np.ndarray, np.ndarray],
    b: tuple[np.ndarray, np.ndarray],
    size: int,
) -> tuple[np.ndarray, np.ndarray]:
    keys = np.concatenate([a[0], b[0]])
    rows = np.concatenate([a[1], b[1]])
    if keys.size > size:
        keep = np.argpartition(keys, size - 1)[:size]
        keys, rows = keys[keep], rows[keep]
    return keys, rows


def _sorted_rows(sample: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    keys, rows = sample
    return rows[np.argsort(keys, kind="stable")]


def sample_landmarks(
    X: Any,
    size: int,
    seed: int | None,
    finish: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """One pass: the keyed uniform sample of ``size`` rows, in key order.

    The same rows as :func:`kpca.landmarks.uniform_landmarks` on the
    NumPy array, whatever the blocks.  ``finish`` (k-means, say) runs on
    the sample in a task of the same graph, on a worker.
    """
    import dask

    offsets = np.concatenate([[0], np.cumsum(X.chunks[0])[:-1]])
    task = dask.delayed(_block_sample, pure=True)
    parts = [
        task(b, int(o), size, seed, X.shape[1])
        for b, o in zip(_delayed_blocks(X), offsets, strict=True)
    ]
    root = _tree(parts, partial(_merge_samples, size=size))
    sample = dask.delayed(_sorted_rows, pure=True)(root)
    if finish is not None:
        sample = dask.delayed(finish, pure=True)(sample)
    (result,) = dask.compute(sample)
    return result


def map_rows(
    X: Any, function: Callable[[np.ndarray], np.ndarray], width: int, dtype
) -> Any:
    """``function`` on every row block, lazily: a dask array (n, width)."""
    X = row_blocks(X)
    return X.map_blocks(
        function,
        dtype=dtype,
        chunks=(X.chunks[0], (width,)),
        meta=np.empty((0, width), dtype=dtype),
    )
