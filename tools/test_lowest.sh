#!/usr/bin/env bash
# The package's unit tests against the lowest versions of its dependencies
# that pyproject.toml declares (make test-lowest).
#
# A fresh virtual environment (.venv-lowest; LOWEST_VENV overrides) gets
# exactly numpy==<floor>, scipy==<floor> and threadpoolctl==<floor>, read
# from [project] dependencies, plus the `test` extra, and runs the package
# tests (tests/package; LOWEST_TESTS overrides) with the Python that runs
# this script (PYTHON overrides; use the lowest one requires-python allows).
# It fails if pip installed anything but the floors, so a floor that no
# longer installs, or that the tests reject, is caught here.
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${LOWEST_VENV:-.venv-lowest}
TESTS=${LOWEST_TESTS:-tests/package}
start=$(date +%s)

# "name>=version" of every core dependency, as "name==version" lines.
mapfile -t PINS < <("$PYTHON" - <<'PY'
import re
import tomllib

with open("pyproject.toml", "rb") as f:
    deps = tomllib.load(f)["project"]["dependencies"]
for dep in deps:
    match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][^,;\s]*)\s*", dep)
    if match is None:
        raise SystemExit(f"no plain lower bound in dependency {dep!r}")
    print(f"{match[1]}=={match[2]}")
PY
)
echo "lowest declared versions: ${PINS[*]}"

"$PYTHON" -m venv --clear "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# The package with its `test` extra, and the floors pinned: the extra's tools
# (pytest, hypothesis, scikit-learn, pandas) take whatever release fits them,
# so this also checks that `pip install "kpca[test]"` works at the floors.
"$VENV/bin/python" -m pip install --quiet "${PINS[@]}" -e ".[test]"

# pip must not have moved a floor to satisfy the test tools.
"$VENV/bin/python" - "${PINS[@]}" <<'PY'
import sys
from importlib.metadata import version

for pin in sys.argv[1:]:
    name, wanted = pin.split("==")
    got = version(name)
    print(f"  {name} {got}")
    # "1.24" means 1.24.0: compare release numbers padded with zeros.
    padded = [tuple(map(int, v.split("."))) + (0,) * 3 for v in (got, wanted)]
    if padded[0][:3] != padded[1][:3]:
        raise SystemExit(f"{name} {got} installed, but the floor is {wanted}")
for tool in ("scikit-learn", "pandas", "pytest"):
    print(f"  {tool} {version(tool)} (test extra)")
PY

"$VENV/bin/python" -m pytest $TESTS -p no:cacheprovider -q "$@"
echo "test-lowest took $(( $(date +%s) - start )) s"
