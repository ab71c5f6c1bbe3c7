"""Run a block of linear algebra on one BLAS thread, or split it between the cores.

Two kinds of step need it.  Steps that are long runs of small BLAS calls
(the tridiagonal reduction inside a dense symmetric eigensolver, the distance
blocks of k-means on a sample): each call synchronises the BLAS threads, and
on a machine whose cores are busy a thread that waits for a descheduled
sibling wastes its time slice; on the 2-core benchmark machine such steps ran
2 to 30 times slower with two threads than with one.  And steps that run
their own threads (the panels of a kernel matrix): a multi-threaded BLAS call
inside each of them oversubscribes the cores, which made forming a Gaussian
kernel matrix of 2000 points twice as slow.

Thin products (a few rows times a large matrix, the step of the Krylov
eigensolvers) run faster as one slice of columns per core, each on one BLAS
thread, than on the BLAS library's own threads (:func:`rows_times`).

``threadpoolctl`` (a dependency of the package, and of scikit-learn) sets the
thread count; its inspection of the loaded libraries is done once.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import threadpoolctl
from threadpoolctl import ThreadpoolController


@functools.cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()


class _OneThreadLimit:
    """The process-wide limit of BLAS to one thread, shared by every caller.

    ``threadpoolctl`` sets a count for the whole process (OpenBLAS has one
    thread pool), so the limits of two threads inside :func:`one_blas_thread`
    at once cannot be two stacked contexts: the inner one would record the
    outer one's 1 as the count to restore, and whichever left last would
    leave BLAS on one thread for the rest of the process.  Here the entries
    are counted under a lock: the first one records the count in force and
    lowers it, the last one restores what the first recorded.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        # The BLAS thread count before the first entry: the cores kpca may
        # use for work it splits itself while the limit holds.
        self.allowed = 1
        self.limiter: Any = None

    def enter(self) -> None:
        with self.lock:
            if self.depth == 0:
                self.allowed = _blas_threads()
                with _any_thread_may_set():
                    self.limiter = _controller().limit(
                        limits=1, user_api="blas"
                    )
            self.depth += 1

    def leave(self) -> None:
        with self.lock:
            if self.depth == 0:  # entered before a fork, left in the child
                return
            self.depth -= 1
            if self.depth == 0:
                self._restore()

    def _restore(self) -> None:
        limiter, self.limiter = self.limiter, None
        if limiter is not None:
            with _any_thread_may_set():
                limiter.restore_original_limits()

    def reset_in_child(self) -> None:
        # After a fork only the forking thread exists: nothing holds the
        # limit any more, and the lock may have been copied while held.
        self.lock = threading.Lock()
        if self.depth:
            self.depth = 0
            self._restore()


@contextlib.contextmanager
def _any_thread_may_set() -> Iterator[None]:
    """Let the calling thread set OpenBLAS's thread count.

    ``threadpoolctl`` (3.6 and later) lets only the first thread that set
    the count of a shared OpenBLAS pool set it again, and silently ignores
    the others; the first entry into the limit and the last exit from it
    may be in different threads.
    """
    # Looked up by name: releases down to the declared floor (3.1) may
    # have neither the class nor the method, and let any thread set it.
    controller = getattr(threadpoolctl, "OpenBLASController", None)
    clear = getattr(controller, "clear_controlling_thread", None)
    if clear is not None:
        clear(force=True)
    try:
        yield
    finally:
        if clear is not None:
            clear(force=True)


_limit = _OneThreadLimit()


def _blas_threads() -> int:
    counts = [
        lib.num_threads
        for lib in _controller().select(user_api="blas").lib_controllers
    ]
    return max(1, min(counts, default=1))


def available_cores() -> int:
    """How many threads kpca may run its own split work on.

    As many as BLAS may use (inside :func:`one_blas_thread`, as many as it
    might before), at most the number of cores: so a limit such as
    ``OPENBLAS_NUM_THREADS=1``, or ``threadpoolctl``'s in a parallel job,
    holds for kpca's threads too.
    """
    allowed = _limit.allowed if _limit.depth else _blas_threads()
    return max(1, min(allowed, os.cpu_count() or 1))


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """A context in which BLAS and LAPACK calls use one thread.

    The limit is process-wide (BLAS has one thread pool): while any thread
    is inside this context, every BLAS call runs on one thread, and when
    the last one leaves, the count in force before the first entered is
    restored exactly, whatever the order in which threads enter and leave.

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float(np.ones((2, 2)) @ np.ones(2) @ np.ones(2))
    4.0
    """
    _limit.enter()
    try:
        yield
    finally:
        _limit.leave()


# Below this many columns a product is too short for two threads to pay
# for themselves (measured on the 2-core benchmark machine: a 10 x 1400 by
# 1400 x 1400 product took 1.3 ms on OpenBLAS's threads and 2.2 ms split;
# at 1600 columns the split took 1.5 ms against 1.7 ms).
_SPLIT_FROM = 1600


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=os.cpu_count() or 1)


def _after_fork_in_child() -> None:
    # A forked child inherits the pool but not its threads: it needs its own.
    _pool.cache_clear()
    _limit.reset_in_child()


os.register_at_fork(after_in_child=_after_fork_in_child)


def rows_times(Xt: np.ndarray, M: np.ndarray) -> np.ndarray:
    """``Xt @ M`` for a few rows ``Xt`` and a large matrix ``M``, on every core.

    The columns of ``M`` are split into one slice per core and each slice's
    product runs on one BLAS thread; "every core" means
    :func:`available_cores`.  For a thin product (a block of Krylov
    vectors times a kernel matrix) this beats OpenBLAS's own threading:
    measured on the 2-core benchmark machine, 10 rows times a matrix of
    order 2000, 8000 and 16000 took 2.4, 36.6 and 143 ms split against 2.8,
    44.8 and 177 ms.

    Examples
    --------
    >>> import numpy as np
    >>> M = np.arange(4.0).reshape(2, 2)
    >>> rows_times(np.ones((1, 2)), M)
    array([[2., 4.]])
    """
    n = M.shape[1]
    workers = min(available_cores(), max(1, n // (_SPLIT_FROM // 2)))
    if workers < 2 or n < _SPLIT_FROM:
        return Xt @ M
    out = np.empty((Xt.shape[0], n), dtype=np.result_type(Xt, M))
    edges = np.linspace(0, n, workers + 1).astype(int)

    def part(start: int, stop: int) -> None:
        np.matmul(Xt, M[:, start:stop], out=out[:, start:stop])

    with one_blas_thread():
        futures = [
            _pool().submit(part, int(a), int(b))
            for a, b in zip(edges[:-1], edges[1:], strict=True)
        ]
        for future in futures:
            future.result()
    return out


def gram_of_blocks(blocks: list[np.ndarray], rows: bool) -> np.ndarray:
    """The sum of ``B.T @ B`` (``rows``) or ``B @ B.T`` over the blocks, one core each.

    The blocks are slices of one matrix (of its rows, or of its columns),
    so the sum is that matrix's product with itself.  Each block's product
    runs on one BLAS thread: a product with a short side (a tall matrix
    times itself) leaves OpenBLAS's own threads little to share, and on a
    busy machine they waited for each other: measured on the 2-core
    benchmark machine, ``X.T @ X`` of a 100,000 x 50 matrix took a median
    of 22 ms (up to seconds) on OpenBLAS's threads and 8 ms as two halves.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(6.0).reshape(3, 2)
    >>> bool(np.array_equal(gram_of_blocks([X[:2], X[2:]], True), X.T @ X))
    True
    """

    def product(block: np.ndarray) -> np.ndarray:
        return block.T @ block if rows else block @ block.T

    if len(blocks) == 1:
        return product(blocks[0])
    with one_blas_thread():
        # Each block in a copy of the caller's context: its np.errstate.
        futures = [
            _pool().submit(contextvars.copy_context().run, product, block)
            for block in blocks
        ]
        parts = [future.result() for future in futures]
    total = parts[0]
    for part in parts[1:]:
        total += part
    return total
