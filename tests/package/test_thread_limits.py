"""The BLAS thread limit of kpca under concurrency (issue 25).

kpca runs steps made of many small BLAS calls on one BLAS thread
(``kpca._threads.one_blas_thread``).  The limit is process-wide, so two
threads inside it at once must not leave BLAS on one thread afterwards.
"""

import os
import threading

import numpy as np
import pytest

import kpca
from kpca import _threads


def blas_threads() -> int:
    return _threads._blas_threads()


@pytest.fixture(autouse=True)
def blas_count_unchanged():
    """Every test here leaves the BLAS thread count as it found it."""
    before = blas_threads()
    yield
    assert blas_threads() == before
    assert _threads._limit.depth == 0


def run_in_threads(functions):
    """Run the functions at once, one thread each; re-raise their errors."""
    errors = []
    start = threading.Barrier(len(functions))

    def body(function):
        try:
            start.wait()
            function()
        except BaseException as exc:  # reported in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(f,)) for f in functions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


X = np.random.default_rng(0).normal(size=(620, 5))

ESTIMATORS = {
    # More than one tile of 512 rows: the kernel's panels run on kpca's
    # pool under the limit; k-means holds it too, and the eigensolvers.
    "KernelPCA": lambda: kpca.KernelPCA(5, sigma=2.0).fit(X),
    "NystroemKernelPCA": lambda: kpca.NystroemKernelPCA(
        3, n_landmarks=60, landmarks="kmeans"
    ).fit(X),
    "RandomFourierKernelPCA": lambda: kpca.RandomFourierKernelPCA(
        3, n_random_features=200
    ).fit(X),
    "PCA": lambda: kpca.PCA(3).fit(X),
    "ClassicalMDS": lambda: kpca.ClassicalMDS(2).fit(X[:120]),
}


@pytest.mark.parametrize("n_threads", [2, 4])
@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_concurrent_fits_restore_the_blas_thread_count(name, n_threads):
    # Reported: two fits in two threads left BLAS on one thread for the
    # rest of the process, for all five estimators.
    fit = ESTIMATORS[name]
    reference = fit()
    models = []
    run_in_threads([lambda: models.append(fit())] * n_threads)
    for model in models:  # and the concurrent fits are the same fit
        np.testing.assert_allclose(
            model.explained_variance_
            if name != "ClassicalMDS"
            else model.eigenvalues_,
            reference.explained_variance_
            if name != "ClassicalMDS"
            else reference.eigenvalues_,
            rtol=1e-8,
        )


def test_all_five_estimators_at_once():
    run_in_threads(list(ESTIMATORS.values()) * 2)


@pytest.mark.parametrize("n_threads", [2, 4])
@pytest.mark.parametrize(
    "order", ["first in, first out", "last in, first out"]
)
def test_interleaved_limits_restore_exactly(n_threads, order):
    """Threads enter one after the other and leave in either order."""
    before = blas_threads()
    entered = [threading.Event() for _ in range(n_threads)]
    release = [threading.Event() for _ in range(n_threads)]
    seen_inside = []

    def body(i):
        if i:
            entered[i - 1].wait()
        with _threads.one_blas_thread():
            entered[i].set()
            release[i].wait()
            seen_inside.append((blas_threads(), _threads.available_cores()))

    threads = [
        threading.Thread(target=body, args=(i,)) for i in range(n_threads)
    ]
    for thread in threads:
        thread.start()
    entered[-1].wait()
    assert blas_threads() == 1  # while any thread is inside
    leaving = range(n_threads)
    if order == "last in, first out":
        leaving = reversed(leaving)
    for i in leaving:
        release[i].set()
        threads[i].join()
    # Inside, BLAS ran on one thread, and kpca's own split work could still
    # use the cores allowed before.
    expected_cores = max(1, min(before, os.cpu_count() or 1))
    assert seen_inside == [(1, expected_cores)] * n_threads
    assert blas_threads() == before


def test_an_error_inside_the_limit_restores_it():
    before = blas_threads()
    with pytest.raises(ZeroDivisionError):
        with _threads.one_blas_thread():
            raise ZeroDivisionError
    assert blas_threads() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_while_a_thread_holds_the_limit_gets_it_back():
    before = blas_threads()
    inside, release = threading.Event(), threading.Event()

    def hold():
        with _threads.one_blas_thread():
            inside.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    inside.wait()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report its count and depth, then leave
        try:
            message = f"{blas_threads()} {_threads._limit.depth}"
            os.write(write, message.encode())
        finally:
            os._exit(0)
    os.close(write)
    report = os.read(read, 100).decode()
    os.close(read)
    os.waitpid(pid, 0)
    release.set()
    holder.join()
    assert report == f"{before} 0"


def test_work_on_the_pool_is_not_split_again():
    # Inside kpca's pool a task sees one core, so a helper that would split
    # its work between the cores runs it serially instead of queueing tasks
    # behind itself on the same pool (which could wait forever).
    def inner() -> int:
        cores = _threads.available_cores()
        # A nested call runs its calls; it does not deadlock.
        nested = _threads.on_cores([(sum, [1, 2]), (sum, [3])])
        return cores * 100 + sum(nested)

    results = _threads.on_cores([(inner,) for _ in range(4)])
    assert results == [106] * 4


def test_on_cores_leaves_no_call_running_when_it_raises():
    started, finished = [], []

    def slow() -> None:
        import time

        started.append(True)
        time.sleep(0.05)
        finished.append(True)

    def fail() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        _threads.on_cores([(slow,), (fail,), (slow,), (slow,)])
    # The first call is always taken; after the failure no new call starts,
    # and every call that started has finished.
    assert finished and finished == started


def test_map_chunks_gives_results_in_order_and_the_first_error():
    import time

    def square(i: int) -> int:
        time.sleep(0.001 * (i % 3))  # finish out of order
        return i * i

    assert _threads.map_chunks(square, 20) == [i * i for i in range(20)]

    def fail_from_three(i: int) -> int:
        if i >= 3:
            raise ValueError(f"chunk {i}")
        return i

    # Chunk 3 is taken before any later one, so its error is the one raised.
    with pytest.raises(ValueError, match="chunk 3"):
        _threads.map_chunks(fail_from_three, 8)


@pytest.mark.parametrize(
    "shape",
    [(20_000, 8), (9000, 600)],
    ids=["squares-per-chunk", "squares-per-core"],
)
@pytest.mark.parametrize("rows", [True, False])
def test_gram_of_blocks_is_the_product_of_the_matrix_with_itself(shape, rows):
    # Several chunks in both branches: the squares of every chunk summed in
    # order, and one sum of chunks per core.
    X = np.random.default_rng(3).standard_normal(shape)
    if not rows:
        X = np.ascontiguousarray(X.T)
    expected = X.T @ X if rows else X @ X.T
    product = _threads.gram_of_blocks(X, rows)
    scale = np.max(np.abs(expected))
    assert np.max(np.abs(product - expected)) <= 1e-12 * scale


def test_column_sums_and_row_products_of_a_tall_matrix_in_chunks():
    # Large enough for several chunks split between the cores.
    X = np.random.default_rng(4).standard_normal((70_000, 12))
    M = np.random.default_rng(5).standard_normal((12, 3))
    sums = _threads.column_sums(X)
    assert np.max(np.abs(sums - X.sum(axis=0))) <= 1e-10
    product = _threads.product_by_rows(X, M, np.empty((len(X), 3)))
    assert np.max(np.abs(product - X @ M)) <= 1e-12 * np.max(np.abs(X @ M))
    # The same sums on one core: the chunks are summed in the same order.
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):
        assert _threads.available_cores() == 1
        assert np.array_equal(_threads.column_sums(X), sums)
