#!/usr/bin/env bash
# Build Parley for 64-bit Windows on this Linux machine, in one command:
#
#   packaging/build_windows.sh
#
#   dist/Parley-<version>-windows-x64-setup.exe     per-user installer (NSIS): Start menu entry,
#                                                   uninstaller, silent mode (/S, /D=folder)
#   dist/Parley-<version>-windows-x64-portable.zip  the same app to unpack and run (Parley/Parley.exe)
#
# 1. packaging/windows/build_native.py: ggml (every CPU variant, dynamic backends, RPC, Vulkan),
#    llama.cpp and whisper.cpp at the Linux build's pins, cross-built as DLLs by Debian's
#    MinGW-w64, and the cffi module for the Windows CPython 3.11 (cached in
#    ~/.cache/parley/windows/native/<key>).
# 2. packaging/windows/freeze.py: PyInstaller run by the pinned Windows CPython under Wine, with
#    the Windows wheels of packaging/windows/requirements-windows.txt (pinned by hash), then
#    makensis (packaging/windows/parley.nsi) and the zip.
#
# Installs what it needs with apt-get when missing (mingw-w64, nsis, wine64; glslc and the SPIR-V
# headers for Vulkan). PARLEY_VULKAN=0 leaves the Vulkan backend out. Work files: build/windows/.
# packaging/check_windows.sh then installs and runs the result in a fresh Wine prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '\033[1m[build-windows]\033[0m %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }
now() { echo "$EPOCHREALTIME"; }
took() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

started=$(now)
PACKAGES=(gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 mingw-w64-tools
          nsis wine wine64 cmake ninja-build)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || die "install the equivalents of: ${missing[*]}"
  say "installing: ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
export PARLEY_VULKAN=${PARLEY_VULKAN:-1}
if [ "$PARLEY_VULKAN" != 0 ]; then
  packaging/vulkan_build_deps.sh || die "the Vulkan backend cannot be built here (PARLEY_VULKAN=0 builds without it)"
fi
[ -x .venv/bin/python ] || { say "no .venv: running ./setup.sh first"; ./setup.sh; }
PY=.venv/bin/python

t=$(now)
native_args=(--dest build/windows/_native)
[ "$PARLEY_VULKAN" = 0 ] && native_args+=(--no-vulkan)
nice -n 10 "$PY" packaging/windows/build_native.py "${native_args[@]}"
say "Windows native folder ready ($(took "$t") s)"
"$PY" packaging/translations.py   # the .qm files the bundle carries (the stage copies parley/)
"$PY" packaging/windows/freeze.py --native build/windows/_native
say "done in $(took "$started") s: $(ls dist/Parley-*-windows-x64-setup.exe dist/Parley-*-windows-x64-portable.zip | tr '\n' ' ')"
