#!/usr/bin/env bash
# Install and run the Windows build in a fresh Wine prefix, as a user would:
#
#   packaging/check_windows.sh [dist/Parley-<version>-windows-x64-setup.exe]
#
# Silent install into a folder with a space and a non-ASCII letter, Parley.exe --self-test,
# parley-cli devices / transcribe / chat on the CPU, a refused install over a running Parley and
# over a truncated installer, an upgrade that keeps the user's data, and the uninstall
# (packaging/windows/check.py says each step). Figures: build/windows/check-report.json.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in wine wineserver wineboot; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (Debian: apt-get install wine wine64)" >&2; exit 1; }
done
[ -x .venv/bin/python ] || { echo "no .venv: run ./setup.sh first" >&2; exit 1; }
exec .venv/bin/python packaging/windows/check.py "$@"
