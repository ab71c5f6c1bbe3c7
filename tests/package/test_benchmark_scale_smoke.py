"""The scale benchmark keeps working: tiny sizes, valid JSON; no timing is asserted."""

import json
import pathlib
import runpy

SCRIPT = (
    pathlib.Path(__file__).resolve().parents[2]
    / "benchmarks"
    / "bench_kernel_pca_scale.py"
)


def test_every_part_runs_and_writes_valid_json(tmp_path, capsys):
    main = runpy.run_path(str(SCRIPT))["main"]
    out = tmp_path / "results.json"
    args = [
        "--sizes", "150",
        "--approx-sizes", "600",
        "--landmarks", "30",
        "--peer-max-n", "600",
        "--rounds", "1",
        "--accuracy-n", "300",
        "--accuracy-m", "20",
        "--seeds", "1",
        "--in-process",
        "--out", str(out),
    ]  # fmt: skip
    assert main(args) == 0
    results = json.loads(out.read_text())
    assert {"machine", "versions", "parameters", "parts"} <= results.keys()
    assert set(results["parts"]) == {"exact", "approx", "accuracy"}
    exact = results["parts"]["exact"]["sizes"][0]["summary"]
    assert exact["max_rel_eigenvalue_difference"] < 1e-8
    assert set(exact["time_ratio_peer_over_kpca"]) == {
        "sklearn arpack",
        "sklearn randomized",
        "sklearn dense",
    }
    approx = results["parts"]["approx"]["sizes"][0]["summary"]
    assert set(approx["time_ratio_peer_over_kpca"]) == {
        "kpca nystroem uniform",
        "kpca nystroem kmeans",
        "kpca random features",
    }
    rows = results["parts"]["accuracy"]["rows"]
    assert len(rows) == 5 and all(r["m"] == 20 for r in rows)
    assert "time ratio" in capsys.readouterr().out
    text = runpy.run_path(str(SCRIPT))["summary"](results)
    assert "| 150 |" in text and "| 600 |" in text
    # A second part run replaces its own entry and keeps the others.
    assert main(args[:-2] + ["--accuracy", "--out", str(out)]) == 0
    assert set(json.loads(out.read_text())["parts"]) == {
        "exact",
        "approx",
        "accuracy",
    }


def test_a_worker_process_reports_time_and_peak_rss():
    run_worker = runpy.run_path(str(SCRIPT))["run_worker"]
    result = run_worker(
        {"method": "kpca nystroem uniform", "n": 500, "m": 20, "seed": 0},
        in_process=False,
    )
    assert result["time_s"] > 0
    assert result["peak_mib"] >= result["rss_before_mib"] > 0
    assert len(result["eigenvalues"]) == 10


def test_readme_tables_are_the_stored_results():
    # The README quotes the results file, not a pasted copy that could drift.
    summary = runpy.run_path(str(SCRIPT))["summary"]
    stored = json.loads(
        (
            SCRIPT.parents[1]
            / "kpca"
            / "book"
            / "data"
            / "kernel_pca_scale.json"
        ).read_text()
    )
    readme = (SCRIPT.parent / "README.md").read_text()
    start, end = "<!-- results:start -->\n", "<!-- results:end -->"
    quoted = readme[readme.index(start) + len(start) : readme.index(end)]
    assert quoted == summary(stored), (
        "benchmarks/README.md does not show the stored results: paste the "
        "output of `python benchmarks/bench_kernel_pca_scale.py --summary`"
    )
