"""The peer benchmark keeps working: tiny sizes, valid JSON; no timing is asserted."""

import json
import pathlib
import runpy

import pytest

SCRIPT = (
    pathlib.Path(__file__).resolve().parents[2]
    / "benchmarks"
    / "bench_peer.py"
)
STORED = SCRIPT.parents[1] / "kpca" / "book" / "data" / "peer.json"


def _has_classical_mds() -> bool:
    # scikit-learn 1.8 brought ClassicalMDS; the lowest versions the package
    # tests run with may install an older scikit-learn.
    import sklearn.manifold

    return hasattr(sklearn.manifold, "ClassicalMDS")


def _cases(script):
    names = list(script["CASES"])
    if not _has_classical_mds():
        names = [n for n in names if not n.startswith("mds-")]
    return names


def test_quick_in_process_run_covers_every_case(tmp_path, capsys):
    script = runpy.run_path(str(SCRIPT))
    out = tmp_path / "peer.json"
    names = _cases(script)
    args = ["--quick", "--mode", "inprocess", "--out", str(out), "--case"]
    assert script["main"](args + names) == 0
    results = json.loads(out.read_text())
    assert {"generated_by", "parameters", "kernels"} <= results.keys()
    (kernel,) = results["kernels"].values()
    assert {"machine", "versions", "blas", "openblas_coretype"} <= set(kernel)
    assert all("architecture" in lib for lib in kernel["blas"])
    assert list(kernel["cases"]) == names
    for name, modes in kernel["cases"].items():
        summary = modes["inprocess"]["summary"]
        assert set(summary["time_s"]) == {"kpca", "sklearn", "floor"}
        assert summary["sklearn_over_kpca"]["median"] > 0
        assert summary["kpca_over_floor"]["median"] > 0
        assert set(summary["tracemalloc_peak_mib"]) == {
            "kpca",
            "sklearn",
            "floor",
        }
        accuracy = summary["accuracy"]
        if script["CASES"][name]["family"] in ("pca", "mds", "kpca"):
            # Exact methods: kpca agrees with the exact reference.
            assert accuracy["ok"], (name, accuracy)
    assert "sklearn/kpca" in capsys.readouterr().out
    text = script["table"](results)
    assert all(f"| {name} |" in text for name in names)


def test_fresh_processes_pair_the_methods(tmp_path):
    script = runpy.run_path(str(SCRIPT))
    out = tmp_path / "peer.json"
    args = ["--quick", "--mode", "fresh", "--case", "pca-wide"]
    assert script["main"](args + ["--out", str(out)]) == 0
    (kernel,) = json.loads(out.read_text())["kernels"].values()
    entry = kernel["cases"]["pca-wide"]["fresh"]
    for method in ("kpca", "sklearn", "floor"):
        (run,) = entry["runs"][method]
        assert run["time_s"] > 0 and run["rss_before_mib"] > 0
    accuracy = entry["summary"]["accuracy"]
    assert accuracy["ok"] and "sklearn_max_rel_difference" in accuracy


def test_runs_merge_by_kernel_and_case(tmp_path, monkeypatch):
    main = runpy.run_path(str(SCRIPT))["main"]
    out = tmp_path / "peer.json"
    args = ["--quick", "--mode", "inprocess", "--out", str(out)]
    assert main(args + ["--case", "kpca-2000"]) == 0
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Prescott")
    assert main(args + ["--case", "kpca-2000"]) == 0
    assert main(args + ["--case", "rff-20000"]) == 0
    kernels = json.loads(out.read_text())["kernels"]
    assert len(kernels) == 2 and "Prescott" in kernels
    assert list(kernels["Prescott"]["cases"]) == ["kpca-2000", "rff-20000"]
    (other,) = set(kernels) - {"Prescott"}
    assert list(kernels[other]["cases"]) == ["kpca-2000"]
    # Another file's kernels and cases merge in; its entries win.
    second = tmp_path / "second.json"
    assert main(args[:-1] + [str(second), "--case", "pca-tall"]) == 0
    assert main(["--merge", str(second), "--out", str(out)]) == 0
    merged = json.loads(out.read_text())["kernels"]["Prescott"]["cases"]
    assert list(merged) == ["kpca-2000", "rff-20000", "pca-tall"]


def test_a_case_name_or_family_is_checked():
    script = runpy.run_path(str(SCRIPT))
    assert script["selected"](["kpca", "pca-tall"]) == [
        "kpca-2000",
        "kpca-4000",
        "kpca-8000",
        "pca-tall",
    ]
    with pytest.raises(SystemExit, match="unknown case"):
        script["selected"](["pca-tal"])


def test_readme_tables_are_the_stored_results():
    # The README quotes the results file, not a pasted copy that could drift.
    table = runpy.run_path(str(SCRIPT))["table"]
    readme = (SCRIPT.parent / "README.md").read_text()
    start, end = "<!-- peer-results:start -->\n", "<!-- peer-results:end -->"
    quoted = readme[readme.index(start) + len(start) : readme.index(end)]
    assert quoted == table(json.loads(STORED.read_text())), (
        "benchmarks/README.md does not show the stored peer results: paste "
        "the output of `python benchmarks/bench_peer.py --table`"
    )


def test_the_table_names_the_commit_of_every_case():
    script = runpy.run_path(str(SCRIPT))
    commits_measured = script["commits_measured"]
    body = {"versions": {"kpca_commit": "bbb"}, "cases": {}}
    assert commits_measured(body) == "commit bbb"
    body["cases"] = {
        "pca-tall": {"fresh": {"kpca_commit": "aaa"}},
        "kpca-2000": {
            "fresh": {"kpca_commit": "aaa"},
            "inprocess": {"kpca_commit": "bbb"},
        },
    }
    # A part re-run at another commit is named with its cases, in case order.
    assert commits_measured(body) == (
        "commits aaa for pca-tall, kpca-2000; bbb for kpca-2000"
    )
    del body["cases"]["kpca-2000"]["inprocess"]
    assert commits_measured(body) == "commit aaa"
