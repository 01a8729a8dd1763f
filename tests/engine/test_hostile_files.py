"""Files Parley did not make, as hostile as a file system allows: FIFOs, ``/dev/zero``, loops of
symbolic links, folders where a file is expected, JSON nested thousands deep, integers of
thousands of digits, sparse files whose headers claim gigabytes, folders of thousands of files.

Each case must end in a one-line message for that file (or the defaults, for settings) and never
hang, exhaust memory, raise for a whole list or reach native code.  Whatever could hang (a
FIFO opened for reading blocks until a writer comes) or read without end runs in a subprocess
under a timeout and a memory limit, so a regression fails instead of blocking the suite.
"""

from __future__ import annotations

import json
import os
import resource
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine import library
from parley.engine.errors import ModelFileError
from parley.engine.library import local_models
from parley.engine.modelfiles.gguf_file import check_gguf
from parley.engine.modelfiles.whisper_convert import CACHE_FORMAT, ensure_converted, read_vocabulary
from tests.support.ct2_fixtures import write_ct2_whisper
from tests.support.tinymodels import write_tiny_llama_gguf

REPO = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 120.0  # only reached when something hangs
MEMORY_LIMIT = 3 << 30  # a child that reads without end fails instead of filling the machine


def environment(**extra: str) -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **extra}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(
    args: list[str], *, env: dict[str, str] | None = None, timeout: float = HANG_GUARD_S, limit_memory: bool = True
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with this tree first on the path, bounded in time (and memory, unless it
    loads the models: their mappings alone take more address space)."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(**(env or {})),
        preexec_fn=_limit_memory if limit_memory else None,
    )


def in_child(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` (sys.argv[1:] are ``args``) in a child Python that must finish on its own."""
    return run(["-c", code, *args], env=env)


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def loop(path: Path) -> Path:
    """``path`` and a sibling that are links to each other."""
    path.parent.mkdir(parents=True, exist_ok=True)
    other = path.with_name(path.name + ".other")
    os.symlink(other.name, path)
    os.symlink(path.name, other)
    return path


def link(path: Path, target: str | Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def put(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def deep_json(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


# ------------------------------------------------------------------ other tools' folders


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PARLEY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARLEY_CONFIG_DIR", str(tmp_path / "config"))
    for key in (
        "HF_HOME",
        "HF_HUB_CACHE",
        "HUGGINGFACE_HUB_CACHE",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "OLLAMA_MODELS",
        "PARLEY_MODEL_CATALOG",
    ):
        monkeypatch.delenv(key, raising=False)
    return home


@pytest.fixture(scope="module")
def gguf_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("gguf") / "m.gguf"
    write_tiny_llama_gguf(path, n_vocab=1000, n_embd=32)
    return path.read_bytes()


def ollama_manifest(root: Path, model: str) -> Path:
    return root / "manifests" / "registry.ollama.ai" / "library" / model / "latest"


def list_in_child(home: Path, *folders: Path) -> dict[str, dict[str, object]]:
    """``library.list_models`` in a child process (HOME is ``home``), by path."""
    code = (
        "import json, sys\nfrom parley.engine import library\n"
        "print(json.dumps([{'path': str(m.path), 'name': m.name, 'problem': m.problem, 'kind': m.kind}"
        " for m in library.list_models(sys.argv[1:])]))"
    )
    result = in_child(code, *map(str, folders), env={"HOME": str(home)})
    assert result.returncode == 0, result.stderr[-3000:]
    return {entry["path"]: entry for entry in json.loads(result.stdout)}


def test_fifos_and_devices_in_other_tools_folders_are_listed_not_read(
    home: Path, gguf_bytes: bytes, tmp_path: Path
) -> None:
    """A FIFO as a manifest, a .gguf or a .bin, and a manifest linked to /dev/zero, each listed
    with what it is; without the checks the search blocks on the FIFO or reads /dev/zero until
    memory runs out."""
    ollama = home / ".ollama" / "models"
    fifo_manifest = fifo(ollama_manifest(ollama, "fifo"))
    zero_manifest = link(ollama_manifest(ollama, "zero"), "/dev/zero")
    fifo_gguf = fifo(home / ".lmstudio" / "models" / "a" / "b" / "fifo.gguf")
    null_gguf = link(home / ".lmstudio" / "models" / "a" / "b" / "null.gguf", "/dev/null")
    hf_fifo = fifo(home / ".cache" / "huggingface" / "hub" / "models--a--b" / "snapshots" / "c" / "x.gguf")
    mine = tmp_path / "mine"
    fifo(mine / "fifo.bin")  # not known to be a model: left out
    fifo_model = fifo(mine / "model.gguf")
    good = put(mine / "good.gguf", gguf_bytes)

    listed = list_in_child(home, mine)

    for path, words in (
        (fifo_manifest, "FIFO"),
        (zero_manifest, "character device"),
        (fifo_gguf, "pipe"),
        (null_gguf, "device"),
        (hf_fifo, "pipe"),
        (fifo_model, "pipe"),
    ):
        entry = listed[str(path)]
        assert entry["kind"] is None and words in entry["problem"], entry
    assert listed[str(fifo_manifest)]["name"] == "fifo:latest"
    assert "Ollama manifest" in listed[str(zero_manifest)]["problem"]
    assert listed[str(good)]["kind"] == "chat" and listed[str(good)]["problem"] is None
    assert str(mine / "fifo.bin") not in listed
    assert len(listed) == 7


def test_a_loop_of_links_is_listed_with_its_reason(home: Path, gguf_bytes: bytes, tmp_path: Path) -> None:
    """A link loop named *.gguf made Path.resolve raise RuntimeError for the whole list."""
    looped = loop(home / ".lmstudio" / "models" / "x" / "loop.gguf")
    mine = tmp_path / "mine"
    my_loop = loop(mine / "m.gguf")
    good = put(mine / "good.gguf", gguf_bytes)
    ollama = home / ".ollama" / "models"
    manifest_loop = loop(ollama_manifest(ollama, "looped"))

    models = {m.path: m for m in library.list_models([mine])}

    for path in (looped, my_loop, manifest_loop):
        assert not models[path].usable and "loop of symbolic links" in models[path].problem, models[path]
    assert models[good].usable


def test_the_models_command_lists_a_loop_instead_of_failing(home: Path, tmp_path: Path) -> None:
    looped = loop(tmp_path / "mine" / "m.gguf")
    result = run(["-m", "parley", "models", "--all", "--folder", str(looped.parent)], env={"HOME": str(home)})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "loop of symbolic links" in result.stdout


def test_deep_and_huge_manifests_are_listed_with_the_reason(home: Path) -> None:
    ollama = home / ".ollama" / "models"
    deep = put(ollama_manifest(ollama, "deep"), b'{"layers": ' + deep_json(10_000) + b"}")
    huge = put(ollama_manifest(ollama, "huge"), b'{"layers": [], "pad": "' + b"x" * (1 << 20) + b'"}')
    digits = put(ollama_manifest(ollama, "digits"), b'{"schemaVersion": ' + b"9" * 5000 + b"}")
    bad_text = put(ollama_manifest(ollama, "latin1"), b'{"layers": "\xff"}')

    models = {m.path: m for m in library.list_models()}

    for path, words in (
        (deep, "nested more than"),
        (huge, "bytes, more than"),
        (digits, "digits"),
        (bad_text, "not UTF-8"),
    ):
        assert not models[path].usable and words in models[path].problem, models[path]
        assert models[path].problem.startswith("its Ollama manifest cannot be used")


def test_the_search_reads_a_bounded_number_of_entries(
    home: Path, gguf_bytes: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of more entries than the limit is searched up to the limit and listed with why;
    so is the folder where the limit for the whole search runs out."""
    monkeypatch.setattr(local_models, "MAX_FOLDER_ENTRIES", 50)
    crowded = tmp_path / "crowded"
    for i in range(80):
        put(crowded / f"junk-{i:03}.txt", b"")
    models = {m.path: m for m in library.list_models([crowded])}
    assert list(models) == [crowded]
    assert "only the first 50 entries" in models[crowded].problem

    monkeypatch.setattr(local_models, "MAX_ENTRIES", 30)
    first, second = tmp_path / "first", tmp_path / "second"
    for i in range(20):
        put(first / f"{i:02}.gguf", gguf_bytes)
        put(second / f"{i:02}.gguf", gguf_bytes)
    models = {m.path: m for m in library.list_models([first, second])}
    assert sum(m.usable for m in models.values()) == 30
    assert "stopped here, after 30 entries" in models[second].problem


def test_folder_link_loops_and_deep_trees_end(home: Path, gguf_bytes: bytes, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    link(mine / "a" / "up", "..")  # a/up/up/up/... for ever if followed
    link(mine / "self", ".")
    deep = mine.joinpath(*[f"d{i}" for i in range(40)])
    put(deep / "too-deep.gguf", gguf_bytes)
    near = put(mine / "d0" / "near.gguf", gguf_bytes)
    models = library.list_models([mine])
    assert [m.path for m in models] == [near]


def test_names_from_other_tools_folders_are_one_printable_line(home: Path, gguf_bytes: bytes, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    odd = put(Path(os.fsdecode(bytes(mine) + b"/bad\xff\nname.gguf")), gguf_bytes)
    models = library.list_models([mine])
    assert [m.path for m in models] == [odd]
    assert models[0].name == "bad??name.gguf" and models[0].usable


def test_the_models_command_prints_a_name_that_is_not_utf8(home: Path, gguf_bytes: bytes, tmp_path: Path) -> None:
    """A strict UTF-8 stdout (any desktop locale) could not print such a path: the whole list failed."""
    mine = tmp_path / "mine"
    put(Path(os.fsdecode(bytes(mine) + b"/bad\xffname.gguf")), gguf_bytes)
    result = run(
        ["-m", "parley", "models", "--folder", str(mine)], env={"HOME": str(home), "PYTHONIOENCODING": "utf-8:strict"}
    )
    assert result.returncode == 0, result.stderr
    assert "bad?name.gguf" in result.stdout


# ------------------------------------------------------------------ settings


def test_the_app_starts_with_a_hostile_settings_file(tmp_path: Path) -> None:
    """JSON nested 100,000 deep raised RecursionError and the app did not start; now the
    defaults are used, the file is kept as settings.json.bad and the self-test passes."""
    config = tmp_path / "config"
    hostile = put(config / "settings.json", deep_json(100_000))
    result = run(
        ["-m", "parley", "--self-test"],
        timeout=300,
        limit_memory=False,
        env={
            "PARLEY_CONFIG_DIR": str(config),
            "PARLEY_DATA_DIR": str(tmp_path / "data"),
            "QT_QPA_PLATFORM": "offscreen",
        },
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert "self-test passed" in result.stdout
    assert "note: The settings file" in result.stdout and "using the defaults" in result.stdout
    assert (config / "settings.json.bad").read_bytes() == deep_json(100_000) and not hostile.exists()


# ------------------------------------------------------------------ files named on the command line


@pytest.fixture
def not_files(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, /dev/zero, a folder and a loop of links, each where a file is expected."""
    folder = tmp_path / "folder.bin"
    folder.mkdir()
    return {
        "fifo": fifo(tmp_path / "fifo.bin"),
        "dev-zero": link(tmp_path / "zero.bin", "/dev/zero"),
        "folder": folder,
        "loop": loop(tmp_path / "loop.bin"),
    }


REASONS = {
    "fifo": "not a regular file",
    "dev-zero": "not a regular file",
    "folder": "directory",
    "loop": "loop of symbolic links",
}


def test_transcribe_refuses_what_is_not_an_audio_file(not_files: dict[str, Path]) -> None:
    """A FIFO made `parley transcribe` wait for ever; each is now one line, and exit status 1."""
    result = run(["-m", "parley", "transcribe", "--threads", "1", *map(str, not_files.values())])
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == len(not_files) and result.stdout == ""
    for line, (kind, path) in zip(lines, not_files.items(), strict=True):
        assert line.startswith(f"parley: {path}: ") and REASONS[kind] in line, line


def test_transcribe_says_what_is_wrong_with_the_files_before_it_touches_a_model(
    not_files: dict[str, Path], tmp_path: Path
) -> None:
    """The files are checked first: with nothing to transcribe, the default model is not prepared
    (a first use converts it, which takes seconds) nor loaded, so the answer does not wait."""
    cache = tmp_path / "cache"
    result = run(["-m", "parley", "transcribe", *map(str, not_files.values())], env={"PARLEY_CACHE_DIR": str(cache)})
    assert result.returncode == 1 and result.stdout == ""
    assert len(result.stderr.splitlines()) == len(not_files) and "preparing" not in result.stderr
    assert not (cache / "models").exists()  # nothing was converted


@pytest.mark.parametrize("command", [["transcribe", "--threads", "1", "speech.wav"], ["chat", "--prompt", "hi"]])
@pytest.mark.parametrize("kind", list(REASONS))
def test_a_model_that_is_not_a_file_is_one_line_and_status_2(
    not_files: dict[str, Path], command: list[str], kind: str
) -> None:
    """`parley chat --model FIFO` blocked reading the FIFO's first bytes; each is now refused
    before anything is read."""
    model = not_files[kind]
    result = run(["-m", "parley", command[0], "--model", str(model), *command[1:]])
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"parley: error: {model}: ") and REASONS[kind] in result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


# ------------------------------------------------------------------ headers that claim too much


def sparse_gguf(path: Path, kv: bytes, size: int) -> Path:
    """A GGUF file of one metadata entry ``kv``, padded with a hole to ``size`` bytes (a sparse
    file: the claims of its header cost no disk space)."""
    with open(path, "wb") as out:
        out.write(b"GGUF" + struct.pack("<Iqq", 3, 0, 1) + kv)
        out.truncate(size)
    return path


@pytest.mark.parametrize(
    ("kv", "size", "problem"),
    [
        (struct.pack("<Q", 1 << 20), 2 << 20, "a metadata key claims 1048576 bytes, more than the 65535 allowed"),
        (
            struct.pack("<Q", 4) + b"name" + struct.pack("<IQ", 8, 17 << 20),
            18 << 20,
            "the value of 'name' claims 17825792 bytes, more than the 16777216 allowed",
        ),
        (
            struct.pack("<Q", 4) + b"toks" + struct.pack("<IIQ", 9, 8, (1 << 24) + 1),
            8 << 24 | 1 << 20,
            "key 'toks' claims 16777217 items, more than the 16777216 allowed",
        ),
    ],
    ids=["key", "string", "string-array"],
)
def test_lengths_and_counts_in_a_gguf_header_are_bounded(tmp_path: Path, kv: bytes, size: int, problem: str) -> None:
    """A length or count the file could hold (with a hole in it) but no model has is refused
    before it is decoded or walked: a sparse file of terabytes would otherwise be copied into
    memory or looped over item by item."""
    path = sparse_gguf(tmp_path / "claims.gguf", kv, size)
    with pytest.raises(ModelFileError) as caught:
        check_gguf(path)
    assert caught.value.problem.endswith(problem)


# ------------------------------------------------------------------ the speech model converter's input


def test_a_fifo_among_the_speech_model_parts_is_refused(tmp_path: Path) -> None:
    """The converter fingerprints and reads every part of a CTranslate2 model (the files of a
    PyPI package): a FIFO among them blocked it for ever."""
    source = tmp_path / "data"
    put(source / "model.bin.part1", b"\0" * 64)
    fifo(source / "model.bin.part2")
    put(source / "vocabulary.txt", b"a\nb\n")
    code = (
        "import sys\nfrom pathlib import Path\nfrom parley.engine.errors import ModelFileError\n"
        "from parley.engine.modelfiles.whisper_convert import ensure_converted\n"
        "try:\n    ensure_converted(Path(sys.argv[1]), Path(sys.argv[2]), 'x')\n"
        "except ModelFileError as e:\n    print(e)\n"
    )
    result = in_child(code, str(source), str(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == f"{source / 'model.bin.part2'}: not a regular file, so not a model part\n"


def test_a_deeply_nested_vocabulary_is_refused(tmp_path: Path) -> None:
    vocabulary = put(tmp_path / "vocabulary.json", deep_json(100_000))
    with pytest.raises(ModelFileError, match="cannot be read: nested more than 1 levels"):
        read_vocabulary(vocabulary)
    big = put(tmp_path / "big" / "vocabulary.txt", b"x\n" * (9 << 20))
    with pytest.raises(ModelFileError, match="bytes, more than the"):
        read_vocabulary(big)


def test_a_deeply_nested_cache_sidecar_means_converting_again(tmp_path: Path) -> None:
    source = write_ct2_whisper(tmp_path / "ct2", size="tiny")["source"]
    cache = tmp_path / "cache"
    converted = ensure_converted(source, cache, "tiny-test")
    sidecar = cache / "tiny-test.bin.json"
    sidecar.write_bytes(deep_json(100_000))
    assert ensure_converted(source, cache, "tiny-test") == converted
    assert json.loads(sidecar.read_text())["format"] == CACHE_FORMAT


def test_a_legacy_gpt2_header_claiming_a_billion_layers_is_refused(tmp_path: Path) -> None:
    """The expected tensor table was built from the header's layer count: 2^30 layers meant
    tens of billions of entries (memory until the process died).  In a child, bounded."""
    legacy = put(
        tmp_path / "ggml-model.bin",
        b"lmgg" + struct.pack("<6i", 1, 1, 1, 1, 1 << 30, 0) + struct.pack("<ii", 1, 1) + b"a",
    )
    code = (
        "import sys\nfrom parley.engine.errors import ModelFileError\n"
        "from parley.engine.modelfiles.defaults import check_chat_model\n"
        "try:\n    check_chat_model(sys.argv[1])\nexcept ModelFileError as e:\n    print(e.problem)\n"
    )
    result = in_child(code, str(legacy))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == f"the header is corrupt: n_layer={1 << 30}; llama.cpp accepts 1 to 512\n"
