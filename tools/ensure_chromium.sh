#!/usr/bin/env bash
# The PDF print (make pdf) and the rendered-book tests drive Debian's Chromium;
# the PDF tests read the printed pages with poppler's pdftotext and pdftoppm.
# Install what is missing when we may (root, or sudo without a password);
# otherwise stop at once with the exact command to run.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
PACKAGES=()
[ -x "$CHROMIUM" ] || PACKAGES+=(chromium)
{ command -v pdftotext && command -v pdftoppm; } >/dev/null || PACKAGES+=(poppler-utils)
if [ ${#PACKAGES[@]} -eq 0 ]; then
  exit 0
fi
INSTALL="apt-get update && apt-get install -y ${PACKAGES[*]}"
if ! command -v apt-get >/dev/null; then
  echo "error: ${PACKAGES[*]} missing and this is not a Debian-like system." >&2
  echo "Install them ($CHROMIUM, pdftotext, pdftoppm), then run make again." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  run=(bash -c)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  run=(sudo bash -c)
else
  echo "error: ${PACKAGES[*]} missing, and installing needs root. Run:" >&2
  echo "  sudo bash -c '$INSTALL'" >&2
  echo "then run make again." >&2
  exit 1
fi
echo "==> installing Debian's ${PACKAGES[*]} (the PDF and the browser tests)"
"${run[@]}" "export DEBIAN_FRONTEND=noninteractive; $INSTALL"
test -x "$CHROMIUM"
command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null
