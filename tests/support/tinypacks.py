"""Tiny model packs made by tests: real installed chunk packages and a packs file describing them.

``TinyPacks(root, contents)`` splits each pack's bytes into three slices, installs each slice as a
package folder (``<module>/data/partNN.bin``) under ``root/site`` (put it on ``sys.path``), and
writes ``root/packs.json`` (point ``PARLEY_MODEL_PACKS`` at it), ranked in the order given.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class TinyPacks:
    def __init__(self, root: Path, contents: dict[str, bytes]) -> None:
        self.site = root / "site"
        self.site.mkdir()
        self.slices: dict[str, list[bytes]] = {}
        entries = []
        for rank, (pack_id, data) in enumerate(contents.items(), 1):
            third = len(data) // 3
            slices = [data[:third], data[third : 2 * third], data[2 * third :]]
            self.slices[pack_id] = slices
            parts = []
            for number, piece in enumerate(slices, 1):
                package = f"{pack_id}-part{number}"
                folder = self.site / package.replace("-", "_") / "data"
                folder.mkdir(parents=True)
                (folder.parent / "__init__.py").write_text("raise ImportError('never imported')\n")
                (folder / f"part{number:02d}.bin").write_bytes(piece)
                parts.append(
                    {
                        "package": package,
                        "version": "1.0.0",
                        "wheel_sha256": sha256(package.encode()),
                        "file": f"data/part{number:02d}.bin",
                        "size": len(piece),
                        "sha256": sha256(piece),
                    }
                )
            entries.append(
                {
                    "id": pack_id,
                    "name": f"Tiny {pack_id[-1].upper()}",
                    "file": f"{pack_id}.gguf",
                    "size": len(data),
                    "sha256": sha256(data),
                    "licence": "Apache-2.0",
                    "upstream": "example/tiny",
                    "revision": None,
                    "parameters": "1M",
                    "quantisation": "none",
                    "rank": rank,
                    "note": "A test pack.",
                    "parts": parts,
                }
            )
        self.file = root / "packs.json"
        self.write({"format": 1, "packs": entries})

    def write(self, doc: dict[str, object]) -> None:
        self.file.write_text(json.dumps(doc))

    def read(self) -> dict[str, list[dict[str, object]]]:
        doc: dict[str, list[dict[str, object]]] = json.loads(self.file.read_text())
        return doc

    def part(self, pack_id: str, number: int) -> Path:
        return self.site / f"{pack_id}_part{number}".replace("-", "_") / "data" / f"part{number:02d}.bin"

    def joined(self, pack_id: str) -> bytes:
        return b"".join(self.slices[pack_id])

    def remove(self, pack_id: str) -> None:
        """Uninstall every chunk package of ``pack_id``."""
        for number in (1, 2, 3):
            self.part(pack_id, number).unlink()
