#!/usr/bin/env bash
# macOS: Parley.app and a .dmg, from a set-up checkout on a Mac (Apple silicon: Metal is built).
#
#   packaging/macos/build.sh
#
#   dist/Parley-<version>-macos-<arch>.dmg    Parley.app and a link to /Applications
#
# Steps: the native build (Metal on by default there) into parley/engine/_native, PyInstaller
# with packaging/parley.spec (which makes Parley.app with Info.plist's microphone text), then
# signing: with PARLEY_CODESIGN_IDENTITY ("Developer ID Application: ...") for distribution,
# else ad hoc ("-", runs on the machine that built it and in CI), always with the hardened
# runtime and entitlements.plist. Notarization needs an Apple account and is not done here.
# Then `hdiutil` makes the disk image. PYTHON=... picks the interpreter (default .venv/bin/python).
#
# Not run on the Linux machine the project is developed on: the CI workflow
# .github/workflows/installers.yml runs it on a hosted Apple-silicon runner.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { printf '\033[1m[macos]\033[0m %s\n' "$*" >&2; }
PY=${PYTHON:-.venv/bin/python}
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
VERSION=$("$PY" -c 'import parley; print(parley.__version__)')
ARCH=$(uname -m)
IDENTITY=${PARLEY_CODESIGN_IDENTITY:--}

"$PY" packaging/translations.py   # the .qm files the bundle carries
"$PY" native/build.py --dest parley/engine/_native
say "PyInstaller (log: build/pyinstaller.log)"
mkdir -p build dist
"$PY" -m PyInstaller --noconfirm --log-level WARN \
  --distpath build/pyinstaller/dist --workpath build/pyinstaller/work packaging/parley.spec \
  > build/pyinstaller.log 2>&1 || { tail -40 build/pyinstaller.log; exit 1; }
APP=build/pyinstaller/dist/Parley.app
[ -d "$APP" ] || { say "no $APP"; exit 1; }
/usr/libexec/PlistBuddy -c 'Print :NSMicrophoneUsageDescription' "$APP/Contents/Info.plist" >/dev/null

say "signing $APP (identity: $IDENTITY) with the hardened runtime and entitlements"
# Inside out: every Mach-O file first, then the app, so each carries a valid signature.
find "$APP/Contents" -type f \( -name '*.dylib' -o -name '*.so' -o -perm -u+x \) -print0 \
  | while IFS= read -r -d '' file; do
      if file "$file" | grep -q 'Mach-O'; then
        codesign --force --timestamp=none --options runtime --sign "$IDENTITY" "$file"
      fi
    done
codesign --force --timestamp=none --options runtime --entitlements packaging/macos/entitlements.plist \
  --sign "$IDENTITY" "$APP"
codesign --verify --deep --strict --verbose=2 "$APP"
codesign -d --entitlements - "$APP" 2>/dev/null | grep -q audio-input

say "disk image"
STAGE=build/dmg
rm -rf "$STAGE" && mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
DMG=dist/Parley-$VERSION-macos-$ARCH.dmg
rm -f "$DMG"
hdiutil create -volname "Parley $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG" >/dev/null
say "$DMG: $(du -m "$DMG" | cut -f1) MB; app $(du -sm "$APP" | cut -f1) MB"
