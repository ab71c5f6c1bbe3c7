"""kpca.book.timing: the chapters' best-of-n timer."""

import pytest

from kpca.book.timing import best_time


def test_best_time_runs_the_function_repeat_times_plus_a_warmup():
    calls = []
    seconds = best_time(calls.append, 1, repeat=4)
    assert len(calls) == 5 and seconds >= 0
    calls.clear()
    best_time(calls.append, 1, repeat=2, warmup=False)
    assert len(calls) == 2


@pytest.mark.parametrize("repeat", [0, -1, 1.5, True, "3"])
def test_best_time_rejects_a_bad_repeat(repeat):
    with pytest.raises(ValueError, match="repeat"):
        best_time(len, [], repeat=repeat)
