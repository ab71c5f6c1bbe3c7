#!/usr/bin/env bash
# Run every chapter as a reader on Colab or Binder would: alone in an empty
# directory, in a fresh virtual environment that has only the kpca package
# with its `book` extra (pinned to the tested versions by constraints.txt),
# and check its stored outputs with nbval.  Nothing of the repository is on
# the path, so a chapter that reads a file of the repository, or imports
# something kpca[book] does not install, fails here. `make standalone` runs it
# under another CPU's BLAS (OPENBLAS_CORETYPE), so the stored outputs are
# checked on a second summation order too. Two chapters run at a time
# (pytest-xdist), each in its own directory (nbval starts a notebook's kernel
# in the notebook's directory).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PYTHONPATH VIRTUAL_ENV

quietly() {  # run a command, showing its output only if it fails
    "$@" > "$work/step.log" 2>&1 || { cat "$work/step.log"; return 1; }
}

# Build from a copy of what the package is made of: an in-tree build would
# leave build/ and kpca.egg-info/ in the repository, and a stale build/lib
# could put modules deleted since into the wheel.
mkdir "$work/src"
cp -r "$root/pyproject.toml" "$root/README.md" "$root/LICENSE" "$root/kpca" \
    "$work/src/"
find "$work/src/kpca" -name __pycache__ -type d -prune -exec rm -rf {} +
quietly "$python" -m pip wheel --no-deps --wheel-dir "$work/wheel" "$work/src"
wheel=$(ls "$work"/wheel/kpca-*.whl)
quietly "$python" -m venv "$work/venv"
quietly "$work/venv/bin/python" -m pip install --upgrade pip
# The reader's environment: the package and its extra, plus the notebook
# tooling that Colab and Binder provide (a kernel) and the test runner.
quietly "$work/venv/bin/python" -m pip install -c "$root/constraints.txt" \
    "kpca[book] @ file://$wheel" ipykernel nbval pytest pytest-xdist
echo "installed kpca[book] from $(basename "$wheel") in a fresh environment"

for notebook in "$root"/chapters/*.ipynb; do
    name=$(basename "$notebook")
    mkdir -p "$work/run/${name%.ipynb}"
    cp "$notebook" "$work/run/${name%.ipynb}/"
done
cd "$work/run"
"$work/venv/bin/python" -m pytest --nbval --current-env -q -p no:cacheprovider \
    -n "${JOBS:-2}" --dist loadfile \
    --nbval-sanitize-with "$root/tests/book/nbval_sanitize.cfg" \
    ${JUNIT_DIR:+--junitxml "$JUNIT_DIR/standalone.xml"} .
