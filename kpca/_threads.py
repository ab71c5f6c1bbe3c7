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
eigensolvers) run on the BLAS library's threads, in the layout it streams
best (:func:`rows_times`).

``threadpoolctl`` (a dependency of the package, and of scikit-learn) sets the
thread count; its inspection of the loaded libraries is done once.
"""

from __future__ import annotations

import concurrent.futures
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
    holds for kpca's threads too.  In a thread of kpca's own pool it is 1:
    work already split between the cores is not split again (and a task
    that waited for tasks queued behind it on the same pool could wait
    forever).
    """
    if getattr(_worker, "in_pool", False):
        return 1
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


_worker = threading.local()


def _mark_pool_thread() -> None:
    _worker.in_pool = True


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(
        max_workers=os.cpu_count() or 1, initializer=_mark_pool_thread
    )


def _run_call(context: contextvars.Context, call: tuple[Any, ...]) -> Any:
    function, *arguments = call
    return context.run(function, *arguments)


def slices(X: np.ndarray, parts: int, axis: int = 0) -> list[np.ndarray]:
    """X cut along ``axis`` into ``parts`` consecutive slices (empty ones dropped).

    The edges depend only on the length and ``parts``, so two arrays of
    the same length are cut alike.

    Examples
    --------
    >>> [len(s) for s in slices(np.zeros((10, 2)), 3)]
    [3, 3, 4]
    """
    edges = np.linspace(0, X.shape[axis], parts + 1).astype(int)
    return [
        X[a:b] if axis == 0 else X[:, a:b]
        for a, b in zip(edges[:-1], edges[1:], strict=True)
        if b > a
    ]


def on_cores(calls: list[tuple[Any, ...]]) -> list[Any]:
    """Run each ``(function, *arguments)`` of ``calls`` in kpca's pool; their results in order.

    Every call runs on one BLAS thread, in a copy of the caller's context
    (its ``np.errstate``), and all of them have finished when this returns
    or raises (the first call's exception that failed, in order): no task
    is left running on state the caller then discards.  Called from a task
    of the pool itself, the calls run in that task's thread, in order.

    Examples
    --------
    >>> on_cores([(sum, [1, 2]), (max, 3, 4)])
    [3, 4]
    """
    if getattr(_worker, "in_pool", False):
        # Already on the pool: queued behind the tasks now running, the
        # calls could wait for ever; they run here, one after the other.
        return [call[0](*call[1:]) for call in calls]
    with one_blas_thread():
        futures = [
            _pool().submit(_run_call, contextvars.copy_context(), call)
            for call in calls
        ]
        concurrent.futures.wait(futures)
    return [future.result() for future in futures]


def _after_fork_in_child() -> None:
    # A forked child inherits the pool but not its threads: it needs its own.
    _pool.cache_clear()
    _limit.reset_in_child()


os.register_at_fork(after_in_child=_after_fork_in_child)


def rows_times(Xt: np.ndarray, M: np.ndarray) -> np.ndarray:
    """``Xt @ M`` for a few rows ``Xt`` and a large matrix ``M``, as ``(M^T Xt^T)^T``.

    The step of the Krylov eigensolvers.  BLAS packs a product's operands
    into its own buffers; with the large matrix as the left operand of a
    thin product it streams ``M`` once on its own threads.  Measured on the
    2-core benchmark machine (AMD, 32 MiB L3, quiet), 10 rows times a
    matrix of order 2000, 4000 and 8000 took 1.9, 8.4 and 36 ms this way,
    against 2.4, 9.5 and 39 ms as ``Xt @ M`` and 4.7, 13 and 36 ms split
    into one slice of columns per core on one BLAS thread each (which an
    earlier, busy machine had favoured).

    Examples
    --------
    >>> import numpy as np
    >>> M = np.arange(4.0).reshape(2, 2)
    >>> rows_times(np.ones((1, 2)), M)
    array([[2., 4.]])
    """
    return (M.T @ Xt.T).T


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
    parts = on_cores([(product, block) for block in blocks])
    total = parts[0]
    for part in parts[1:]:
        total += part
    return total
