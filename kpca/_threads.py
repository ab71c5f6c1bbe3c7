"""Run a block of linear algebra on one BLAS thread.

Two kinds of step need it.  Steps that are long runs of small BLAS calls
(the tridiagonal reduction inside a dense symmetric eigensolver, the distance
blocks of k-means on a sample): each call synchronises the BLAS threads, and
on a machine whose cores are busy a thread that waits for a descheduled
sibling wastes its time slice; on the 2-core benchmark machine such steps ran
2 to 30 times slower with two threads than with one.  And steps that run
their own threads (the panels of a kernel matrix): a multi-threaded BLAS call
inside each of them oversubscribes the cores, which made forming a Gaussian
kernel matrix of 2000 points twice as slow.

``threadpoolctl`` (a dependency of the package, and of scikit-learn) sets the
thread count; its inspection of the loaded libraries is done once.
"""

from __future__ import annotations

import contextlib
import functools

from threadpoolctl import ThreadpoolController


@functools.cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()


def one_blas_thread() -> contextlib.AbstractContextManager:
    """A context in which BLAS and LAPACK calls use one thread.

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float(np.ones((2, 2)) @ np.ones(2) @ np.ones(2))
    4.0
    """
    return _controller().limit(limits=1, user_api="blas")
