"""The benchmark script keeps working (tiny sizes; its timings are not asserted)."""

import pathlib
import runpy

SCRIPT = (
    pathlib.Path(__file__).resolve().parents[1]
    / "benchmarks"
    / "bench_kernel_pca.py"
)


def test_benchmark_runs_and_prints_ratios(capsys):
    main = runpy.run_path(str(SCRIPT))["main"]
    assert main(["--sizes", "150", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "time ratio" in out and "sklearn randomized" in out
    assert "eigenvalues within 1e-08: yes" in out
