"""The package metadata agrees with itself and with the repository.

These read pyproject.toml (shipped in the sdist too); the checks that need
files of the repository alone (_config.yml, binder/) skip without them.
"""

import pathlib
import re
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]


def _floor(requirement):
    match = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement)
    assert match, requirement
    return match[1], tuple(int(p) for p in match[2].split("."))


def test_one_minimum_python_everywhere():
    minimum = re.fullmatch(r">=3\.(\d+)", PROJECT["requires-python"])[1]
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py3{minimum}"
    assert PYPROJECT["tool"]["mypy"]["python_version"] == f"3.{minimum}"
    versions = [
        c.rsplit(":: ", 1)[1]
        for c in PROJECT["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert min(versions, key=lambda v: int(v.split(".")[1])) == f"3.{minimum}"
    # scikit-learn 1.8, which the book extra needs, is for Python 3.11 and
    # later: the package cannot promise an older Python.
    book = PROJECT["optional-dependencies"]["book"]
    assert "scikit-learn>=1.8" in book and int(minimum) >= 11


def test_floors_are_plain_and_scipy_has_the_one_feature_fix():
    floors = dict(_floor(r) for r in PROJECT["dependencies"])
    assert set(floors) == {"numpy", "scipy", "threadpoolctl"}
    assert floors["scipy"] >= (1, 13, 1)


def test_extras_do_not_repeat_each_other_or_the_core():
    extras = PROJECT["optional-dependencies"]
    core = {_floor(r)[0] for r in PROJECT["dependencies"]}
    assert extras["book"][0] == "kpca[plot,data,symbolic]"
    for name, requirements in extras.items():
        names = [re.split(r"[<>=\[]", r)[0] for r in requirements]
        assert not core & set(names), name
        assert len(names) == len(set(names)), name


def test_the_wheel_describes_the_package_not_the_repository():
    readme = ROOT / PROJECT["readme"]
    assert readme.name != "README.md"
    text = readme.read_text()
    assert "kpca" in text and len(text.splitlines()) < 60
    assert "make " not in text and ".ci" not in text


def test_urls_are_the_repository_of_the_book():
    config = ROOT / "_config.yml"
    if not config.exists():
        pytest.skip("_config.yml is in the repository, not the sdist")
    repository = re.search(
        r"^repository:\s*\n\s+url:\s*(\S+)", config.read_text(), re.M
    )[1]
    urls = PROJECT["urls"]
    assert urls["Source"] == urls["Homepage"] == repository
    assert all(url.startswith(repository) for url in urls.values())


def test_binder_leaves_the_servers_kernel_alone():
    requirements = ROOT / "binder" / "requirements.txt"
    if not requirements.exists():
        pytest.skip("binder/ is in the repository, not the sdist")
    lines = [
        line.split("#")[0].strip()
        for line in requirements.read_text().splitlines()
    ]
    lines = [line for line in lines if line]
    assert "-c ../constraints.txt" in lines
    assert not any(
        re.match(r"(ipykernel|jupyter|notebook|tornado)", line)
        for line in lines
    )
    assert all("==" in line for line in lines if line[0].isalpha())
