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

Work that kpca splits itself is shared a chunk at a time between the
calling thread and kpca's pool (:func:`map_chunks`, and :func:`on_cores`
for a list of calls), with the pool's threads kept off the caller's core:
a thread that starts late or runs slowly leaves its share to the others,
and the results come back in order, so sums are the same on any number of
cores.

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
import ctypes
import functools
import itertools
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

# The native ids of the pool's threads (see _keep_off_callers_core).
_pool_threads: list[int] = []


def _mark_pool_thread(started: threading.Barrier) -> None:
    _worker.in_pool = True
    _pool_threads.append(threading.get_native_id())
    started.wait()


@functools.cache
def _pool() -> ThreadPoolExecutor:
    # One thread fewer than the cores: the caller takes a share of every
    # split (map_chunks).  A thread more would take turns with the others
    # and touch its own BLAS work space: a Nystroem fit of 20,000 rows
    # peaked at 102 MiB with a pool of two on two cores, 62 with one.  Every thread
    # starts now, so that their ids are known: the pool makes a thread per
    # task submitted while none is idle.
    workers = max(1, (os.cpu_count() or 1) - 1)
    started = threading.Barrier(workers + 1)
    pool = ThreadPoolExecutor(
        max_workers=workers,
        initializer=_mark_pool_thread,
        initargs=(started,),
    )
    for _ in range(workers):
        pool.submit(int)
    started.wait()
    return pool


@functools.cache
def _sched_getcpu() -> Any:
    """The C library's ``sched_getcpu`` (None where there is none)."""
    try:
        return ctypes.CDLL(None, use_errno=True).sched_getcpu
    except (OSError, AttributeError, TypeError):
        return None


def _keep_off_callers_core() -> None:
    """Let the pool's threads run on any core the caller may use but its own.

    Linux places a thread it wakes on the waker's core when it can; with
    the other core idle in a virtual machine's deep sleep, the two then
    shared one core until the next scheduler tick (4 ms), on the 2-core
    benchmark machine in about half of all splits that followed a pause.
    The affinity is a hint: where it cannot be set, nothing changes.
    """
    getcpu = _sched_getcpu()
    if getcpu is None or not hasattr(os, "sched_setaffinity"):
        return
    try:
        allowed = os.sched_getaffinity(0)
        cpu = getcpu()
    except OSError:
        return
    others = allowed - {cpu}
    if cpu < 0 or not others:
        return
    for thread in _pool_threads:
        try:
            os.sched_setaffinity(thread, others)
        except OSError:  # the thread has gone, or the set is not allowed
            pass


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
    """Run each ``(function, *arguments)`` of ``calls``, split between the cores; their results in order.

    The calls are shared between the calling thread and kpca's pool as the
    chunks of :func:`map_chunks` are: each on one BLAS thread, in the
    caller's context (the pool's threads in a copy of it, with its
    ``np.errstate``), and all of them have finished when this returns or
    raises (the exception of the first call that failed, in order): no
    task is left running on state the caller then discards.  Called from
    a task of the pool itself, the calls run in that task's thread, in
    order.

    Examples
    --------
    >>> on_cores([(sum, [1, 2]), (max, 3, 4)])
    [3, 4]
    """
    return map_chunks(lambda i: calls[i][0](*calls[i][1:]), len(calls))


def map_chunks(function: Any, count: int) -> list[Any]:
    """``[function(i) for i in range(count)]``, shared between the calling thread and kpca's pool.

    Each thread takes the next index not yet taken, so a thread that
    wakes late (an idle core of a virtual machine took 2 to 10 ms to start
    a task on the 2-core benchmark machine) or is slowed by other work
    leaves its share to the others instead of making every one wait for
    it.  The results come back in the order of the indices, whichever
    thread computed them: a caller that sums them in that order gets the
    same sum on any number of cores.  Every call runs on one BLAS thread;
    when all have finished, the first failed index's exception is raised.
    Called with one core (or from the pool itself), it is the plain loop.

    Examples
    --------
    >>> map_chunks(lambda i: i * i, 4)
    [0, 1, 4, 9]
    """
    helpers = min(available_cores(), count) - 1
    if helpers <= 0:
        return [function(i) for i in range(count)]
    results: list[Any] = [None] * count
    errors: dict[int, BaseException] = {}
    taken = itertools.count()
    lock = threading.Lock()

    def work() -> None:
        while not errors:
            with lock:
                i = next(taken)
            if i >= count:
                return
            try:
                results[i] = function(i)
            except BaseException as error:  # re-raised below, in order
                errors[i] = error

    with one_blas_thread():
        pool = _pool()
        _keep_off_callers_core()
        futures = [
            pool.submit(_run_call, contextvars.copy_context(), (work,))
            for _ in range(helpers)
        ]
        # The caller takes chunks like a thread of the pool: a nested split
        # inside ``function`` runs in place here too.
        was_in_pool = getattr(_worker, "in_pool", False)
        _worker.in_pool = True
        try:
            work()
        finally:
            _worker.in_pool = was_in_pool
            concurrent.futures.wait(futures)
    if errors:
        raise errors[min(errors)]
    return results


def _after_fork_in_child() -> None:
    # A forked child inherits the pool but not its threads: it needs its own.
    _pool.cache_clear()
    _pool_threads.clear()
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
    # One product touches a packing buffer of OpenBLAS's that grows with the
    # number of M's columns it covers (8 MiB for 4000 columns, 16 MiB for
    # 8000, in resident memory).  Panels of M's columns bound it at about
    # 2 MiB, for 1-2 % of the product's time at n = 4000 and 8000 and up to
    # 3.5 % at 2000 (paired, 10 rows, both BLAS kernel families).
    n = M.shape[1]
    if Xt.dtype != M.dtype or n <= _ROWS_TIMES_PANEL:
        return (M.T @ Xt.T).T
    out = np.empty((n, Xt.shape[0]), dtype=M.dtype)
    parts = -(-n // _ROWS_TIMES_PANEL)
    # M's columns and out's rows have the same length: they are cut alike.
    for panel, rows in zip(
        slices(M, parts, axis=1), slices(out, parts), strict=True
    ):
        np.matmul(panel.T, Xt.T, out=rows)
    return out.T


# Columns of M per product in rows_times, at most.
_ROWS_TIMES_PANEL = 1024


def gram_of_blocks(X: np.ndarray, rows: bool) -> np.ndarray:
    """``X.T @ X`` (``rows``) or ``X @ X.T``, split between the cores.

    A tall X with few columns (small squares) is cut into chunks of
    about a core's L2 cache (:data:`_CHUNK_BYTES`), each chunk a task of
    :func:`map_chunks`, and their squares are summed in order; otherwise
    each core multiplies one slice of X, whole.  Every product runs on one
    BLAS thread.  Measured on the 2-core benchmark machine (AMD, 1 MiB of
    L2 per core, quiet), ``X.T @ X`` of a 100,000 x 50 matrix took 4 ms
    in chunks, against 6-10 ms on OpenBLAS's threads (up to seconds on a
    busy machine, where they wait for each other) and 8 ms as two whole
    halves, whose rank updates ran one after the other.  A compute-bound
    product (20,000 x 1000) took 180 ms as two halves, 200 ms on
    OpenBLAS's threads, and 250 ms in chunks of 4096 rows.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(6.0).reshape(3, 2)
    >>> bool(np.array_equal(gram_of_blocks(X, True), X.T @ X))
    True
    """
    axis = 0 if rows else 1
    short = X.shape[1 - axis]

    def square(part: np.ndarray) -> np.ndarray:
        return part.T @ part if rows else part @ part.T

    if X.shape[axis] == 0:
        return np.zeros((short, short), dtype=np.result_type(X, 1.0))
    parts = _chunks(X, _MIN_CHUNK, axis)
    if len(parts) * short * short * 8 <= _SQUARES_BYTES:
        return _sum_in_order(
            map_chunks(lambda i: square(parts[i]), len(parts))
        )
    halves = slices(X, available_cores(), axis)
    return _sum_in_order(on_cores([(square, part) for part in halves]))


# Chunks of a product's long side: about a core's L2 cache, and never so
# few rows that each BLAS call's set-up shows.  The squares of all chunks
# are kept (and summed in order) only while they take less than 4 MiB.
_CHUNK_BYTES = 2**20
_MIN_CHUNK = 4096
_SQUARES_BYTES = 2**22


def _chunks(X: np.ndarray, min_length: int, axis: int = 0) -> list[np.ndarray]:
    """X cut along ``axis`` into chunks of about a core's L2 cache, of at least ``min_length``.

    Many chunks for many rows, so that a pass shared by :func:`map_chunks`
    ends evenly (five chunks of 4096 rows of 1000 columns split 3 + 2).
    """
    across = X.itemsize * max(X.shape[1 - axis], 1)
    length = max(min_length, _CHUNK_BYTES // across)
    return slices(X, max(1, -(-X.shape[axis] // length)), axis)


def _sum_in_order(parts: list[np.ndarray]) -> np.ndarray:
    """The sum of ``parts``, added in their order (into the first)."""
    total = parts[0]
    for more in parts[1:]:
        total += more
    return total


def column_sums(X: np.ndarray) -> np.ndarray:
    """The column sums of a 2-D X in float64, split between the cores.

    Each chunk of rows is summed on its own, and the chunks' sums are
    added in order: the same sum on any number of cores.

    Examples
    --------
    >>> column_sums(np.arange(6.0).reshape(3, 2))
    array([6., 9.])
    """
    if X.size < _SPLIT_FROM:
        return np.add.reduce(X, axis=0, dtype=np.float64)
    # Sums gain from long chunks: 1.7 ms for 100,000 x 50 in chunks of
    # 4096 rows, 2.3-2.9 ms in chunks of 256 to 2621.
    parts = _chunks(X, _MIN_CHUNK)
    return _sum_in_order(
        map_chunks(
            lambda i: np.add.reduce(parts[i], axis=0, dtype=np.float64),
            len(parts),
        )
    )


def product_by_rows(
    X: np.ndarray, M: np.ndarray, out: np.ndarray
) -> np.ndarray:
    """``X @ M`` written into ``out``, chunks of rows split between the cores.

    For a tall X and a thin M: the product streams X once, and each core
    streams its own chunks.

    Examples
    --------
    >>> X = np.arange(6.0).reshape(3, 2)
    >>> product_by_rows(X, np.ones((2, 1)), np.empty((3, 1)))
    array([[1.],
           [5.],
           [9.]])
    """
    if X.size < _SPLIT_FROM:
        return np.matmul(X, M, out=out)
    # Products of a thin M gain from short ones: 10 ms for 20,000 x 1000
    # times 1000 x 10 in chunks of 256 rows, 13 ms in chunks of 4096.
    parts = _chunks(X, 256)
    # X and out have as many rows: they are cut alike.
    outs = slices(out, len(parts))
    map_chunks(lambda i: np.matmul(parts[i], M, out=outs[i]), len(parts))
    return out


# Below this many entries a pass over X takes under about 0.5 ms: not
# worth waking another thread for.
_SPLIT_FROM = 2**17
