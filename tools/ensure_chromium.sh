#!/usr/bin/env bash
# The PDF print (make pdf) and the rendered-book tests drive Debian's Chromium.
# Install it when it is missing and we may (root, or sudo without a password);
# otherwise stop at once with the exact command to run.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
INSTALL="apt-get update && apt-get install -y chromium"

if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "error: $CHROMIUM not found and this is not a Debian-like system." >&2
  echo "Install Chromium so that $CHROMIUM runs it, then run make again." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  run=(bash -c)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  run=(sudo bash -c)
else
  echo "error: $CHROMIUM not found, and installing it needs root. Run:" >&2
  echo "  sudo bash -c '$INSTALL'" >&2
  echo "then run make again." >&2
  exit 1
fi
echo "==> installing Debian's Chromium (needed for the PDF and the browser tests)"
"${run[@]}" "export DEBIAN_FRONTEND=noninteractive; $INSTALL"
test -x "$CHROMIUM"
