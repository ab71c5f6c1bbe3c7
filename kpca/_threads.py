"""Run a block of small linear algebra on one BLAS thread.

Some steps of the approximate kernel PCAs are long runs of small BLAS calls:
the tridiagonal reduction inside a dense symmetric eigensolver, and the
distance blocks of k-means on a sample.  Each call synchronises the BLAS
threads, and on a machine whose cores are busy with other work a thread that
waits for a descheduled sibling wastes its time slice: on the 2-core benchmark
machine such steps ran 2 to 30 times slower with two threads than with one.
The large products (the scatter's ``syrk``) keep every thread.

``threadpoolctl`` (a scikit-learn dependency) sets the thread count; without
it the block runs as it is.
"""

from __future__ import annotations

import contextlib


def one_blas_thread() -> contextlib.AbstractContextManager:
    """A context in which BLAS and LAPACK calls use one thread (when threadpoolctl is installed).

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float(np.ones((2, 2)) @ np.ones(2) @ np.ones(2))
    4.0
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")
