#!/usr/bin/env bash
# Build every Linux artifact of Parley, in one command, from a set-up checkout:
#
#   packaging/build.sh
#
#   dist/Parley-<version>-linux-x86_64.tar.gz   the frozen one-folder app; top folder Parley/,
#                                               executable Parley/parley (the `parley` command)
#   dist/parley-assistant_<version>_amd64.deb   the same app in /opt/parley, /usr/bin/parley,
#                                               desktop entry and icon, Depends from linux/depends.txt
#                                               (the package name: see linux/deb.env)
#
# "Set up" means ./setup.sh has run (it is run here when .venv is missing). PyInstaller and the
# other packaging tools are installed into .venv from the `packaging` extra when missing.
# PYTHON=/path/to/python uses another environment than .venv. Work files go to build/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
say() { printf '\033[1m[build]\033[0m %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }
now() { echo "$EPOCHREALTIME"; }
took() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }     # 10^6 bytes

started=$(now)
if [ -z "${PYTHON:-}" ]; then
  [ -x .venv/bin/python ] || { say "no .venv: running ./setup.sh first"; ./setup.sh; }
  PYTHON=.venv/bin/python
fi
PY=$PYTHON
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"    # this checkout's parley, whatever is installed
for tool in dpkg-deb tar gzip awk; do command -v "$tool" >/dev/null || die "$tool is missing (Debian: apt-get install dpkg tar gzip mawk)"; done

# ---------------------------------------------------------------- tools, native build, models
if ! "$PY" -c 'import PyInstaller' 2>/dev/null; then
  say "installing the packaging tools (pyproject.toml's packaging extra) into $PY's environment"
  "$PY" -m pip install -q -e ".[packaging]"
fi
VERSION=$("$PY" -c 'import parley; print(parley.__version__)')
PYI_VERSION=$("$PY" -c 'import PyInstaller; print(PyInstaller.__version__)')
case "$PYI_VERSION" in 6.22.*) ;; *) die "PyInstaller $PYI_VERSION found; the spec is written for 6.22.x (pip install -e '.[packaging]')";; esac
say "Parley $VERSION, PyInstaller $PYI_VERSION, $("$PY" -V)"
# The Vulkan backend ships in the x86-64 Linux installers (PARLEY_VULKAN=0 leaves it out): it runs
# on every GPU vendor's driver with no vendor runtime. glslc compiles its shaders at build time;
# the headers are pinned (native/pins.json); the module links the system's loader, libvulkan.so.1
# (the .deb's Depends), and without a usable driver Parley stays on the CPU and says why.
if [ "$(uname -m)" = x86_64 ]; then export PARLEY_VULKAN=${PARLEY_VULKAN:-1}; fi
if [ "${PARLEY_VULKAN:-0}" != 0 ]; then
  packaging/vulkan_build_deps.sh || die "the Vulkan backend cannot be built here (PARLEY_VULKAN=0 packaging/build.sh builds without it)"
fi
t=$(now)
"$PY" packaging/translations.py   # the .qm files the bundle carries
"$PY" native/build.py --dest parley/engine/_native
say "native folder ready ($(took "$t") s)"
if [ "${PARLEY_VULKAN:-0}" != 0 ]; then
  [ -f parley/engine/_native/libggml-vulkan.so ] || die "PARLEY_VULKAN is set but parley/engine/_native has no libggml-vulkan.so"
  say "Vulkan backend: libggml-vulkan.so, $(mb parley/engine/_native/libggml-vulkan.so)"
fi

# ---------------------------------------------------------------- the frozen app
BUNDLE=build/pyinstaller/dist/Parley
t=$(now)
say "freezing with PyInstaller (log: build/pyinstaller.log)"
mkdir -p build
if ! nice -n 10 "$PY" -m PyInstaller --noconfirm --log-level WARN \
      --distpath build/pyinstaller/dist --workpath build/pyinstaller/work packaging/parley.spec \
      > build/pyinstaller.log 2>&1; then
  tail -30 build/pyinstaller.log >&2
  die "PyInstaller failed; see build/pyinstaller.log"
fi
PYI_SECONDS=$(took "$t")
say "frozen app in $BUNDLE ($PYI_SECONDS s)"
"$PY" packaging/bundle_check.py "$BUNDLE"      # one real file per native library; newest GLIBC_
GLIBC=$("$PY" packaging/bundle_check.py "$BUNDLE" --glibc)
say "the bundle needs glibc >= $GLIBC (declared in the .deb's Depends; README: which systems that is)"

# The C++ runtime is the system's (bundle_layout.SYSTEM_LIBRARIES): at least the version built against.
CXXRT=$(dpkg-query -W -f '${Version}' libstdc++6 2>/dev/null | sed 's/-.*//')
[ -n "$CXXRT" ] || die "no libstdc++6 package found (the .deb's Depends names the version built against)"

mkdir -p dist
# ---------------------------------------------------------------- tarball
# Compressed while the .deb is staged and compressed (one core each), both at gzip's fastest
# level: the models, half of the bytes, hardly compress at any level (2-core machine: level 1
# took 11.4 s for 412 MB, level 6 20.0 s for 399 MB).
t=$(now)
TARBALL=dist/Parley-$VERSION-linux-x86_64.tar.gz
rm -f "$TARBALL.failed"
{ tar --sort=name --owner=0 --group=0 --numeric-owner -C "$(dirname "$BUNDLE")" -cf - Parley || touch "$TARBALL.failed"; } \
  | gzip -1 > "$TARBALL.tmp" &
GZIP_JOB=$!   # stopped if this script stops first (tar then ends on its closed pipe)
trap 'kill "$GZIP_JOB" 2>/dev/null || true' EXIT

# ---------------------------------------------------------------- .deb
t=$(now)
join_field() {   # the package lines of a depends/recommends/suggests file, comma-separated
  sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' -e 's/[[:space:]]\{2,\}/ /g' "$1" | paste -sd, - | sed 's/,/, /g'
}
. packaging/linux/deb.env
STAGE=build/deb/$DEB_PACKAGE
rm -rf build/deb
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
         "$STAGE/usr/share/icons/hicolor/scalable/apps" "$STAGE/usr/share/doc/parley"
cp -a "$BUNDLE" "$STAGE/opt/parley"
ln -s ../../opt/parley/parley "$STAGE/usr/bin/parley"
install -m 644 parley/resources/desktop/parley.desktop "$STAGE/usr/share/applications/parley.desktop"
install -m 644 parley/resources/icons/parley.svg "$STAGE/usr/share/icons/hicolor/scalable/apps/parley.svg"
install -m 644 packaging/linux/copyright "$STAGE/usr/share/doc/parley/copyright"
chmod -R u=rwX,go=rX "$STAGE"
INSTALLED_KB=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
cat > "$STAGE/DEBIAN/control" <<EOF
Package: $DEB_PACKAGE
Version: $VERSION
Architecture: amd64
Maintainer: ${PARLEY_DEB_MAINTAINER:-Parley maintainers <parley@localhost>}
Installed-Size: $INSTALLED_KB
Depends: libc6 (>= $GLIBC), libstdc++6 (>= $CXXRT), $(join_field packaging/linux/depends.txt)
Recommends: $(join_field packaging/linux/recommends.txt)
Suggests: $(join_field packaging/linux/suggests.txt)
Conflicts: parley
Section: sound
Priority: optional
Description: local, private voice and chat assistant
 Hold a key, speak, let go: Parley transcribes your speech on this machine with
 whisper.cpp, and a local language model (llama.cpp) answers, token by token.
 Typed chat works too. Nothing leaves the machine; the default speech and chat
 models are included.
EOF
DEB=dist/${DEB_PACKAGE}_${VERSION}_amd64.deb
# gzip at its fastest level rather than dpkg's default xz: xz ran past 10 minutes on this 2-core
# build machine, and the models, half of the package, hardly compress either way.
dpkg-deb --root-owner-group -Zgzip -z1 --build "$STAGE" "$DEB.tmp" >/dev/null
mv "$DEB.tmp" "$DEB"
say "$DEB: $(mb "$DEB"), installs $(du -s -B MB --exclude=DEBIAN "$STAGE" | cut -f1) ($(took "$t") s)"
wait "$GZIP_JOB" && [ ! -e "$TARBALL.failed" ] || die "the tarball could not be written"
trap - EXIT
mv "$TARBALL.tmp" "$TARBALL"
say "$TARBALL: $(mb "$TARBALL") (with the .deb)"

say "done in $(took "$started") s: $TARBALL, $DEB"
