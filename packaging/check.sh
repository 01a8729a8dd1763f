#!/usr/bin/env bash
# Check the Linux artifacts on clean Debian 11 and Debian 12 systems, not on the machine that
# built them:
#
#   sudo packaging/check.sh            (from a fresh clone: builds what is missing first)
#   sudo packaging/check.sh --release bullseye     (or bookworm: one release only)
#
# The steps below run once per release, each in a fresh root: Debian 11 (bullseye, glibc 2.31,
# the oldest system the installers are built for) and Debian 12 (bookworm).
# 1. Builds dist/parley-assistant_<v>_amd64.deb (name: linux/deb.env) and dist/Parley-<v>-linux-x86_64.tar.gz with
#    packaging/build_debian11.sh if they are missing (--rebuild: always).
# 2. Makes a minimal root of the release (`debootstrap --variant=minbase bullseye|bookworm`,
#    cached as a tarball; proc, sys and dev mounted). Nothing of the build goes inside: no compiler, no
#    Python, no checkout; only the two artifacts are copied into its /tmp. Xvfb (for the xcb
#    run), weston (a headless Wayland compositor) and desktop-file-utils are installed before the
#    snapshot that the purge is compared to.
# 3. `apt-get install --no-install-recommends ./parley-assistant_<v>_amd64.deb` (Depends only;
#    apt must not then offer another package in its place), then as a
#    non-root user with an empty HOME: `parley --self-test --json` offscreen, on xcb against an
#    Xvfb display and on Wayland against headless weston (on Debian 11, whose libwayland-client
#    Qt 6.9 cannot use: a Wayland session with an X server beside it, QT_QPA_PLATFORM unset, where
#    Parley must come up on X11 by itself); the same for the tarball extracted in that HOME.
# 4. ldd on every ELF of the installed bundle (its own library folders on the search path):
#    nothing "not found" beyond ALLOWED_MISSING; desktop-file-validate on the desktop entry;
#    exactly one real file per ggml library; the models' checksums (sha256sum -c).
# 5. Each report (packaging/check_report.py): window shown, clip transcribed, reply streamed,
#    one ggml mapped, PortAudio from inside the bundle.
# 5b. The Vulkan backend: with no driver, `parley devices` says why there is no GPU; with Mesa's
#    lavapipe installed (GGML_VK_VISIBLE_DEVICES=0) Vulkan0 is listed and the self-test runs
#    both engines on it (Debian 12); Debian 11's lavapipe (Mesa 20.3: Vulkan 1.0, no 16-bit
#    storage) is a device ggml registers but cannot use: `parley devices` says why Vulkan0 is not
#    used and the self-test asked for Vulkan0 passes on the CPU, saying why; lavapipe is purged again.
# 6. `apt-get purge` + `autoremove --purge`: the package list and every file name under
#    /opt, /usr, /etc are as before the install.
#
# Needs root (debootstrap, chroot, mounts) and the Debian mirror (PARLEY_DEBIAN_MIRROR).
# Roots live in PARLEY_CHECK_DIR (default /tmp/parley-check); --keep keeps this run's root(s).
# Each release's log and reports go to $PARLEY_CHECK_DIR/<release>/ (check.log there).
# Exit status 0 when everything passed in every release checked.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
WORK=${PARLEY_CHECK_DIR:-/tmp/parley-check}
MIRROR=${PARLEY_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Libraries a bundled file may lack after installing the .deb: the speech-dispatcher client, which
# only Qt's speech-dispatcher plugin links ("read replies aloud"; the .deb suggests it).
ALLOWED_MISSING="libspeechd.so.2"
KEEP=0 REBUILD=0 RELEASES=()
usage() { echo "usage: packaging/check.sh [--release bullseye|bookworm]... [--keep] [--rebuild]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) KEEP=1 ;;
    --rebuild) REBUILD=1 ;;
    --release) [ $# -ge 2 ] || usage; RELEASES+=("$2"); shift ;;
    --release=*) RELEASES+=("${1#--release=}") ;;
    *) usage ;;
  esac
  shift
done
[ ${#RELEASES[@]} -gt 0 ] || RELEASES=(bullseye bookworm)
for rel in "${RELEASES[@]}"; do
  case "$rel" in bullseye|bookworm) ;; *) echo "packaging/check.sh: unknown release '$rel' (bullseye or bookworm)" >&2; exit 2 ;; esac
done
[ "$(id -u)" -eq 0 ] || { echo "packaging/check.sh needs root (debootstrap, chroot, mount): sudo packaging/check.sh" >&2; exit 2; }
say() { printf '\033[1m[check]\033[0m %s\n' "$*"; }
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }     # 10^6 bytes

# ---------------------------------------------------------------- the artifacts
VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' parley/__init__.py)
. packaging/linux/deb.env
DEB=dist/${DEB_PACKAGE}_${VERSION}_amd64.deb
TARBALL=dist/Parley-$VERSION-linux-x86_64.tar.gz
if [ "$REBUILD" = 1 ] || [ ! -f "$DEB" ] || [ ! -f "$TARBALL" ]; then
  say "building the artifacts with packaging/build_debian11.sh"
  packaging/build_debian11.sh
fi

# ---------------------------------------------------------------- one run per release
if [ ${#RELEASES[@]} -gt 1 ]; then
  failed=()
  for rel in "${RELEASES[@]}"; do
    t=$(date +%s)
    args=(--release "$rel"); [ "$KEEP" = 1 ] && args+=(--keep)
    if "$0" "${args[@]}"; then say "$rel: all checks passed ($(( $(date +%s) - t )) s)"
    else failed+=("$rel"); say "$rel: FAILED ($(( $(date +%s) - t )) s; log: $WORK/$rel/check.log)"; fi
  done
  [ ${#failed[@]} -eq 0 ] || { say "failed in: ${failed[*]}"; exit 1; }
  say "all checks passed in: ${RELEASES[*]}"
  exit 0
fi
RELEASE=${RELEASES[0]}
case "$RELEASE" in bullseye) RELEASE_NAME="Debian 11" ;; bookworm) RELEASE_NAME="Debian 12" ;; esac
OUT=$WORK/$RELEASE
mkdir -p "$OUT"
LOG=$OUT/check.log
exec > >(tee "$LOG") 2>&1
FAILURES=()
fail() { say "FAILED: $*"; FAILURES+=("$*"); }
started=$(date +%s)

PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
say "checking $DEB ($(mb "$DEB")) and $TARBALL ($(mb "$TARBALL")) on $RELEASE_NAME ($RELEASE)"

# ---------------------------------------------------------------- a clean root of the release
command -v debootstrap >/dev/null || {
  say "installing debootstrap"; apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
BASE=$WORK/$RELEASE-minbase.tar
if [ ! -f "$BASE" ]; then
  say "debootstrap --variant=minbase $RELEASE (once; cached as $BASE)"
  rm -rf "$WORK/base.$RELEASE"
  nice -n 10 debootstrap --variant=minbase "$RELEASE" "$WORK/base.$RELEASE" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 \
    || { tail -20 "$OUT/debootstrap.log"; exit 1; }
  tar -C "$WORK/base.$RELEASE" -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE" && rm -rf "$WORK/base.$RELEASE"
fi
R=$WORK/root.$RELEASE.$$
mkdir -p "$R"
cleanup() {
  for m in dev/pts dev sys proc; do mountpoint -q "$R/$m" && umount -l "$R/$m"; done
  if [ "$KEEP" = 1 ]; then say "root kept at $R"; else rm -rf "$R"; fi
}
trap cleanup EXIT
tar -C "$R" -xf "$BASE"
mount -t proc proc "$R/proc"
mount -t sysfs sys "$R/sys"
mount --bind /dev "$R/dev"
mount --bind /dev/pts "$R/dev/pts"
cp /etc/resolv.conf "$R/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d" && chmod 755 "$R/usr/sbin/policy-rc.d"   # no services in a chroot
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
as_user() { chroot "$R" /usr/sbin/runuser -u tester -- /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/tester LANG=C.UTF-8 "$@"; }
apt_get() { in_root apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }

say "root: $R ($(in_root sh -c '. /etc/os-release; echo "$PRETTY_NAME"'))"
apt_get update >/dev/null
say "test tools into the root: xvfb, xauth, weston (headless Wayland), desktop-file-utils"
apt_get install --no-install-recommends xvfb xauth weston desktop-file-utils >/dev/null
for tool in python3 gcc cc; do
  if in_root sh -c "command -v $tool" >/dev/null; then fail "the clean root has $tool"; fi
done
say "no python3, no compiler in the root"
in_root useradd --no-create-home --home-dir /home/tester --shell /bin/sh tester
install -d -m 700 "$R/home/tester" && chroot "$R" chown tester:tester /home/tester
cp "$DEB" "$TARBALL" "$R/tmp/"
snapshot() {   # the installed packages and every file name under /opt, /usr, /etc
  in_root dpkg-query -W -f '${Package} ${Version} ${db:Status-Abbrev}\n' > "$1.packages"
  for dir in /opt /usr /etc; do [ -e "$R$dir" ] && in_root find "$dir" -xdev; done | sort > "$1.files"
}
snapshot "$OUT/before"

# ---------------------------------------------------------------- install the .deb
say "apt-get install --no-install-recommends ./$(basename "$DEB")"
t=$(date +%s)
apt_get install --no-install-recommends "/tmp/$(basename "$DEB")" > "$OUT/apt-install.log" 2>&1 \
  || { tail -30 "$OUT/apt-install.log"; fail "the .deb did not install"; exit 1; }
say "installed in $(( $(date +%s) - t )) s; $(grep -c '^Unpacking' "$OUT/apt-install.log") packages unpacked"
in_root dpkg-query -W -f '${Package} ${Version}: Installed-Size ${Installed-Size} KiB\n  Depends: ${Depends}\n' "$DEB_PACKAGE"
upgrade=$(in_root apt-get -s upgrade | sed -n 's/^Inst \([^ ]*\).*/\1/p' | tr '\n' ' ')
case " $upgrade " in *" $DEB_PACKAGE "*) fail "apt-get upgrade would replace $DEB_PACKAGE: $upgrade" ;; *) say "apt-get upgrade leaves $DEB_PACKAGE alone" ;; esac
say "installed size: $(du -s -B MB "$R/opt/parley" | cut -f1) in /opt/parley"

self_test() {   # self_test NAME EXECUTABLE PLATFORM PREFIX
  local name=$1 exe=$2 platform=$3 prefix=$4 report=/home/tester/report-$1.json
  say "self-test: $name ($exe, Qt platform $platform, empty HOME, user tester)"
  as_user rm -rf /home/tester/.cache /home/tester/.config /home/tester/.local
  if [ "$platform" = wayland ]; then
    as_user sh -c '
      export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg.XXXXXX); chmod 700 "$XDG_RUNTIME_DIR"
      weston --backend=headless-backend.so --socket=wayland-parley --idle-time=0 >/tmp/weston.log 2>&1 & weston=$!
      i=0; while [ ! -S "$XDG_RUNTIME_DIR/wayland-parley" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      [ -S "$XDG_RUNTIME_DIR/wayland-parley" ] || { echo "weston did not start"; cat /tmp/weston.log; kill $weston; exit 1; }
      echo "weston (headless) on wayland-parley"
      WAYLAND_DISPLAY=wayland-parley QT_QPA_PLATFORM=wayland "$1" --self-test --json "$2"; code=$?
      kill $weston; wait $weston 2>/dev/null; rm -rf "$XDG_RUNTIME_DIR"; exit $code' sh "$exe" "$report" \
      || fail "$name: parley --self-test exited with $?"
  elif [ "$platform" = wayland-session ]; then   # a Wayland session with XWayland, Qt left to choose
    as_user sh -c '
      export XDG_RUNTIME_DIR=$(mktemp -d /tmp/xdg.XXXXXX) XDG_SESSION_TYPE=wayland; chmod 700 "$XDG_RUNTIME_DIR"
      weston --backend=headless-backend.so --socket=wayland-parley --idle-time=0 >/tmp/weston.log 2>&1 & weston=$!
      Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>/tmp/display.$$ 2>/tmp/xvfb.log & xvfb=$!
      i=0; while { [ ! -S "$XDG_RUNTIME_DIR/wayland-parley" ] || [ ! -s /tmp/display.$$ ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      display=$(cat /tmp/display.$$); rm -f /tmp/display.$$
      [ -S "$XDG_RUNTIME_DIR/wayland-parley" ] && [ -n "$display" ] || { echo "weston or Xvfb did not start"; kill $weston $xvfb; exit 1; }
      echo "weston (headless) on wayland-parley and Xvfb on :$display (as XWayland), QT_QPA_PLATFORM unset"
      env -u QT_QPA_PLATFORM WAYLAND_DISPLAY=wayland-parley DISPLAY=:$display "$1" --self-test --json "$2"; code=$?
      kill $weston $xvfb; wait $weston $xvfb 2>/dev/null; rm -rf "$XDG_RUNTIME_DIR"; exit $code' sh "$exe" "$report" \
      || fail "$name: parley --self-test exited with $?"
  elif [ "$platform" = xcb ]; then
    as_user sh -c '
      Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>/tmp/display.$$ 2>/tmp/xvfb.log & xvfb=$!
      i=0; while [ ! -s /tmp/display.$$ ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      display=$(cat /tmp/display.$$); rm -f /tmp/display.$$
      [ -n "$display" ] || { echo "Xvfb did not start"; cat /tmp/xvfb.log; kill $xvfb; exit 1; }
      echo "Xvfb on :$display"
      DISPLAY=:$display QT_QPA_PLATFORM=xcb "$1" --self-test --json "$2"; code=$?
      kill $xvfb; wait $xvfb 2>/dev/null; exit $code' sh "$exe" "$report" \
      || fail "$name: parley --self-test exited with $?"
  else
    as_user env QT_QPA_PLATFORM="$platform" "$exe" --self-test --json "$report" || fail "$name: parley --self-test exited with $?"
  fi
  cp "$R$report" "$OUT/report-$name.json" 2>/dev/null || { fail "$name: no report written"; return; }
  local expect=$platform
  [ "$platform" = wayland-session ] && expect=xcb   # libwayland-client < 1.20: Parley asks Qt for XWayland
  "$PY" packaging/check_report.py "$OUT/report-$name.json" --platform "$expect" --bundle-prefix "$prefix" \
    || fail "$name: the report shows a problem"
}
self_test deb-offscreen parley offscreen /opt/parley
self_test deb-xcb parley xcb /opt/parley
# Debian 11's libwayland-client (1.18) is older than Qt 6.9's Wayland plugin needs: there a Wayland
# session must bring Parley up on XWayland by itself (parley/app/qt_platform.py).
WAYLAND=wayland; [ "$RELEASE" = bullseye ] && WAYLAND=wayland-session
self_test deb-wayland parley $WAYLAND /opt/parley

# ---------------------------------------------------------------- the installed files
say "ldd on every ELF of /opt/parley (bundle folders on LD_LIBRARY_PATH)"
BUNDLE_PATH=/opt/parley/_internal:/opt/parley/_internal/PySide6/Qt/lib:/opt/parley/_internal/numpy.libs:/opt/parley/_internal/parley/engine/_native
"$PY" packaging/bundle_check.py "$R/opt/parley" --elves | sed "s|^$R||" > "$R/tmp/elves"
say "$(wc -l < "$R/tmp/elves") ELF files"
in_root sh -c "while read -r f; do echo \"== \$f\"; LD_LIBRARY_PATH=$BUNDLE_PATH ldd \"\$f\"; done < /tmp/elves" > "$OUT/ldd.txt"
awk '/^== /{f=$2} / => not found/{print $1, f}' "$OUT/ldd.txt" > "$OUT/ldd-missing.txt"
missing=$(cut -d' ' -f1 "$OUT/ldd-missing.txt" | sort -u | tr '\n' ' ')
unexpected=$(for lib in $missing; do case " $ALLOWED_MISSING " in *" $lib "*) ;; *) echo "$lib";; esac; done)
if [ -n "$unexpected" ]; then
  fail "ldd: not found beyond the allowed set: $unexpected"; grep -F "$unexpected" "$OUT/ldd-missing.txt" | head
else
  say "ldd: nothing missing beyond the allowed set (missing: ${missing:-none}; allowed: $ALLOWED_MISSING)"
fi
# The test tools (Xvfb, weston) bring libraries too: each system library the bundle resolved must
# come from a package in the closure of the .deb's own Depends, or the list is incomplete.
awk '/ => \// && $3 !~ /^\/opt\/parley\// {print $3}' "$OUT/ldd.txt" | sort -u > "$R/tmp/system-libs"
in_root apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances "$DEB_PACKAGE" | sed -n 's/^\([^ <][^ ]*\)$/\1/p' | sort -u > "$OUT/depends-closure.txt"
in_root sh -c 'while read -r lib; do real=$(readlink -f "$lib"); for p in "$lib" "$real" "/usr$lib" "/usr$real" "${lib#/usr}" "${real#/usr}"; do
                 owner=$(dpkg-query -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && break; done
               echo "${owner:-?} $lib"; done < /tmp/system-libs' > "$OUT/system-libs.txt"
outside=$(while read -r pkg lib; do grep -qx "$pkg" "$OUT/depends-closure.txt" || echo "$lib ($pkg)"; done < "$OUT/system-libs.txt")
if [ -n "$outside" ]; then
  fail "system libraries from packages outside the .deb's Depends: $outside"
else
  say "the $(wc -l < "$OUT/system-libs.txt") system libraries the bundle resolves all come from its Depends ($(wc -l < "$OUT/depends-closure.txt") packages with their own dependencies)"
fi
in_root desktop-file-validate /usr/share/applications/parley.desktop && say "desktop-file-validate: passed" \
  || fail "desktop-file-validate"
[ -f "$R/usr/share/icons/hicolor/scalable/apps/parley.svg" ] && [ -L "$R/usr/bin/parley" ] || fail "icon or /usr/bin/parley missing"
"$PY" packaging/bundle_check.py "$R/opt/parley" || fail "native libraries of /opt/parley"
in_root sh -c 'cd /opt/parley/_internal && sha256sum -c MODELS.sha256' || fail "model checksums"

# ---------------------------------------------------------------- the GPU backend (Vulkan)
# The root has no GPU. Without any Vulkan driver the bundle's module loads (the loader comes from
# the .deb's Depends) and `parley devices` says why there is no GPU; with Mesa's lavapipe (a
# CPU-backed Vulkan driver, used by ggml only when GGML_VK_VISIBLE_DEVICES names it) Vulkan0 is
# listed and the frozen self-test runs both engines on it. Debian 11's lavapipe (Mesa 20.3) is a
# Vulkan 1.0 device without 16-bit storage, which ggml registers but cannot use (it used to crash
# the process: parley/engine/backend/vulkan_check.py): there Vulkan0 is listed as not used, with
# the reason, and the self-test that asks for it passes on the CPU. lavapipe is purged again afterwards.
VK_MODULE=/opt/parley/_internal/parley/engine/_native/libggml-vulkan.so
if [ -f "$R$VK_MODULE" ]; then
  say "Vulkan: the bundle's module with the system's loader and no driver"
  as_user rm -rf /home/tester/.cache /home/tester/.config /home/tester/.local
  as_user parley devices > "$OUT/devices-no-driver.txt" 2>&1 || fail "parley devices exited with $? (no Vulkan driver)"
  sed 's/^/  | /' "$OUT/devices-no-driver.txt"
  if grep -q 'Vulkan0' "$OUT/devices-no-driver.txt"; then fail "Vulkan0 listed without a Vulkan driver"
  elif ! grep -qi 'vulkan' "$OUT/devices-no-driver.txt"; then fail "parley devices does not say why there is no Vulkan device"
  else say "no Vulkan driver: the CPU, and parley devices says why"; fi
  say "installing Mesa's lavapipe (mesa-vulkan-drivers) into the root"
  apt_get install --no-install-recommends mesa-vulkan-drivers > "$OUT/apt-lavapipe.log" 2>&1 \
    || { tail -20 "$OUT/apt-lavapipe.log"; fail "mesa-vulkan-drivers did not install"; }
  as_user env GGML_VK_VISIBLE_DEVICES=0 parley devices > "$OUT/devices-lavapipe.txt" 2>&1 \
    || fail "parley devices exited with $? (lavapipe)"
  sed 's/^/  | /' "$OUT/devices-lavapipe.txt"
  grep -q 'Vulkan0' "$OUT/devices-lavapipe.txt" && say "lavapipe: Vulkan0 listed" || fail "Vulkan0 not listed with lavapipe"
  if [ "$RELEASE" = bullseye ]; then   # Mesa 20.3's lavapipe: a device ggml cannot use
    report_device=(--cpu-instead-of Vulkan0)
    if grep -q '^not used: Vulkan0 (llvmpipe.*) cannot be used: .*Vulkan 1\.0, ggml needs 1\.2' "$OUT/devices-lavapipe.txt" \
       && grep -q '^auto selects: CPU' "$OUT/devices-lavapipe.txt"; then
      say "lavapipe (Mesa 20.3): parley devices says why Vulkan0 is not used; auto selects the CPU"
    else
      fail "parley devices does not say why Debian 11's lavapipe (Vulkan0) is not used"
    fi
    say "self-test: deb-vulkan (Vulkan0 = lavapipe asked for: both engines on the CPU, saying why; offscreen, empty HOME, user tester)"
  else
    report_device=(--device Vulkan0)
    say "self-test: deb-vulkan (both engines on Vulkan0 = lavapipe, offscreen, empty HOME, user tester)"
  fi
  as_user sh -c 'mkdir -p /home/tester/.config/parley && echo "{\"device\": \"Vulkan0\"}" > /home/tester/.config/parley/settings.json'
  as_user env GGML_VK_VISIBLE_DEVICES=0 QT_QPA_PLATFORM=offscreen parley --self-test --json /home/tester/report-deb-vulkan.json \
    || fail "deb-vulkan: parley --self-test exited with $?"
  if cp "$R/home/tester/report-deb-vulkan.json" "$OUT/report-deb-vulkan.json" 2>/dev/null; then
    "$PY" packaging/check_report.py "$OUT/report-deb-vulkan.json" --platform offscreen --bundle-prefix /opt/parley \
      "${report_device[@]}" || fail "deb-vulkan: the report shows a problem"
  else
    fail "deb-vulkan: no report written"
  fi
  as_user rm -rf /home/tester/.config
  apt_get purge mesa-vulkan-drivers >> "$OUT/apt-lavapipe.log" 2>&1 && apt_get autoremove --purge >> "$OUT/apt-lavapipe.log" 2>&1 \
    || fail "purging mesa-vulkan-drivers"
else
  say "no Vulkan module in the bundle (built with PARLEY_VULKAN=0): the Vulkan checks are left out"
fi

# ---------------------------------------------------------------- the offline model pack
# The .deb Recommends parley-model-qwen2.5-coder-1.5b (packaging/build_model_pack.sh, run when
# dist/ holds it): installed beside the app, its file lands in /usr/share/parley/models, and the
# self-test (empty HOME) measures it for Parley's choice of chat model: it answers the question
# if it keeps up with speech here, else the report names it as too slow, with its figures.
PACK_DEB=$(ls dist/parley-model-qwen2.5-coder-1.5b_*_all.deb 2>/dev/null | head -1 || true)
if [ -n "$PACK_DEB" ]; then
  say "the model pack: apt-get install ./$(basename "$PACK_DEB") beside $DEB_PACKAGE"
  cp "$PACK_DEB" "$R/tmp/"
  apt_get install --no-install-recommends "/tmp/$(basename "$PACK_DEB")" > "$OUT/apt-pack.log" 2>&1 \
    || { tail -20 "$OUT/apt-pack.log"; fail "the model pack did not install"; }
  PACK_FILE=/usr/share/parley/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
  [ -f "$R$PACK_FILE" ] && say "installed: $PACK_FILE ($(mb "$R$PACK_FILE"))" || fail "the pack's file is not in /usr/share/parley/models"
  as_user rm -rf /home/tester/.cache /home/tester/.config /home/tester/.local
  as_user env QT_QPA_PLATFORM=offscreen parley --self-test --json /home/tester/report-deb-pack.json \
    || fail "deb-pack: parley --self-test exited with $?"
  if cp "$R/home/tester/report-deb-pack.json" "$OUT/report-deb-pack.json" 2>/dev/null; then
    "$PY" packaging/check_report.py "$OUT/report-deb-pack.json" --platform offscreen --bundle-prefix /opt/parley \
      --pack "Qwen2.5-Coder 1.5B Instruct=$PACK_FILE" || fail "deb-pack: the report shows a problem"
  else
    fail "deb-pack: no report written"
  fi
  apt_get purge "parley-model-qwen2.5-coder-1.5b" >> "$OUT/apt-pack.log" 2>&1 || fail "purging the model pack"
else
  say "no model pack in dist/ (packaging/build_model_pack.sh makes it): the pack check is left out"
fi

# ---------------------------------------------------------------- the tarball
say "tarball: extracted by the user into ~/Parley"
as_user tar -C /home/tester -xzf "/tmp/$(basename "$TARBALL")"
"$PY" packaging/bundle_check.py "$R/home/tester/Parley" || fail "native libraries of the tarball"
self_test tar-offscreen /home/tester/Parley/parley offscreen /home/tester/Parley
self_test tar-xcb /home/tester/Parley/parley xcb /home/tester/Parley
self_test tar-wayland /home/tester/Parley/parley $WAYLAND /home/tester/Parley
as_user rm -rf /home/tester/Parley

# ---------------------------------------------------------------- purge
say "apt-get purge $DEB_PACKAGE, autoremove --purge"
apt_get purge "$DEB_PACKAGE" > "$OUT/apt-purge.log" 2>&1 || fail "apt-get purge"
apt_get autoremove --purge >> "$OUT/apt-purge.log" 2>&1 || fail "apt-get autoremove"
snapshot "$OUT/after"
# dpkg takes over an empty /opt that no package owns (debootstrap makes it) and removes it with
# the last package that used it: the one difference expected, said rather than hidden.
if [ "$(in_root dpkg-query -S /opt 2>/dev/null)" = "" ] && grep -qx /opt "$OUT/before.files" \
   && [ "$(grep -c '^/opt/' "$OUT/before.files")" = 0 ] && [ ! -e "$R/opt" ]; then
  say "note: dpkg removed the empty, unowned /opt it had taken over (dpkg does this for any package in /opt)"
  grep -vx /opt "$OUT/before.files" > "$OUT/before.files.tmp" && mv "$OUT/before.files.tmp" "$OUT/before.files"
fi
if diff -u "$OUT/before.packages" "$OUT/after.packages" && diff -u "$OUT/before.files" "$OUT/after.files"; then
  say "after purge: the same packages and the same files under /opt, /usr, /etc as before the install"
else
  fail "something is left after the purge (diff above)"
fi
say "left in the user's HOME (per-user data, never removed by packages): $(cd "$R/home/tester" && find . -mindepth 1 -maxdepth 3 | sort | tr '\n' ' ')"

say "finished in $(( $(date +%s) - started )) s; log: $LOG"
if [ ${#FAILURES[@]} -gt 0 ]; then
  say "${#FAILURES[@]} problem(s):"; printf '  - %s\n' "${FAILURES[@]}"; exit 1
fi
say "all checks passed"
