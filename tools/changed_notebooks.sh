#!/usr/bin/env bash
# The chapter notebooks changed since the branch left BASE (default main):
# committed on this branch, staged, unstaged or new and untracked; deleted
# ones are left out. `make check` runs nbval on these.
#
#     bash tools/changed_notebooks.sh [BASE]
set -euo pipefail
base=${1:-main}
# In a clone the base may exist only as a remote branch.
if ! git rev-parse --verify --quiet "$base^{commit}" > /dev/null; then
    base=origin/$base
fi
fork=$(git merge-base HEAD "$base")
{
    git diff --name-only "$fork" -- 'chapters/*.ipynb'
    git ls-files --others --exclude-standard -- 'chapters/*.ipynb'
} | sort -u | while read -r path; do
    if [ -f "$path" ]; then echo "$path"; fi
done
