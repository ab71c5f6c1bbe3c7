"""Wall-clock timing for the chapters' cost illustrations.

Timings vary between machines and runs, so the book never asserts one: its
checks of cost claims count operations or fit scaling exponents, and a
chapter's timing cell only shows what one machine measured.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["best_time"]


def best_time(
    function: Callable, *args, repeat: int = 3, warmup: bool = True
) -> float:
    """Shortest wall-clock time of ``function(*args)`` over ``repeat`` runs.

    Parameters
    ----------
    function : callable
    *args
        Passed to ``function``.
    repeat : int, default 3
        Number of timed runs; the shortest is returned, as the least
        disturbed by other work on the machine.
    warmup : bool, default True
        Run once, untimed, first (caches, lazy imports, thread pools).

    Returns
    -------
    float
        Seconds.

    Examples
    --------
    >>> seconds = best_time(sum, range(1000), repeat=2)
    >>> 0 <= seconds < 1
    True
    """
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive int, got {repeat!r}")
    if warmup:
        function(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)
