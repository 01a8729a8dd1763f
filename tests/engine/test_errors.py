"""The one error tree (parley.engine.errors): every public exception lives there, its docstring
draws the real hierarchy, a full disk is one type wherever it happens, a lost device is caught
where a reply or a load fails, and a cancelled job is a ``Cancelled``."""

from __future__ import annotations

import argparse
import builtins
import dataclasses
import importlib
import inspect
import json
import os
import pkgutil
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parley.engine import errors
from parley.engine.backend import devices
from parley.engine.errors import (
    Cancelled,
    ChatError,
    DeviceLostError,
    ModelLoadError,
    ParleyError,
    RemoteDeviceLost,
    TranscriptionError,
)
from tests.support import tinymodels as tm
from tests.support.privileges import run_on_small_tmpfs

REPO_ROOT = Path(__file__).resolve().parents[2]

# Exceptions with public names that are signals inside one package, never a failure its callers
# see: each is caught in its package and turned into an error of the tree (see errors.py).
INTERNAL_SIGNALS = {
    "parley.engine.modelfiles.bounded_reader.Truncated": "parley/engine/modelfiles/",
    "parley.engine.backend.rpc.wire.Refused": "parley/engine/backend/",
    "parley.engine.chat.decoder.DecodeAborted": "parley/engine/chat/",
    "parley.engine.tools.builtin.calculator.CalculationError": "parley/engine/tools/builtin/",
    "parley.engine.tools.builtin.clock.PlaceError": "parley/engine/tools/builtin/",
    "parley.engine.tools.builtin.units.UnitError": "parley/engine/tools/builtin/",
    "parley.engine.tools.builtin.timers.TimerError": "parley/engine/tools/builtin/",
    "parley.engine.tools.builtin.history.SearchError": "parley/engine/tools/builtin/",
    "parley.engine.tools.mcp.streamable_http.ResponseTooLarge": "parley/engine/tools/mcp/",
}


def _modules(package: str) -> list[Any]:
    root = importlib.import_module(package)
    names = [package] + [
        info.name
        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}.")
        if not info.name.startswith("parley.engine._native")
    ]
    return [importlib.import_module(name) for name in names]


def _exceptions_defined_in(module: Any) -> list[type[BaseException]]:
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.__name__
    ]


def test_every_public_exception_of_the_engines_and_the_cli_is_defined_in_errors() -> None:
    outside: set[str] = set()
    for module in _modules("parley.engine") + _modules("parley.cli"):
        if module is errors:
            continue
        for cls in _exceptions_defined_in(module):
            if not cls.__name__.startswith("_"):
                outside.add(f"{module.__name__}.{cls.__name__}")
    assert outside == set(INTERNAL_SIGNALS), "define public exceptions in parley/engine/errors.py"


@pytest.mark.parametrize("qualified", sorted(INTERNAL_SIGNALS))
def test_an_internal_signal_stays_in_its_package(qualified: str) -> None:
    """Nothing outside the package names it (errors.py's docstring aside), so no caller can be
    handed it to catch."""
    name = qualified.rpartition(".")[2]
    package = INTERNAL_SIGNALS[qualified]
    naming = {
        str(path.relative_to(REPO_ROOT))
        for path in (REPO_ROOT / "parley").rglob("*.py")
        if path != Path(errors.__file__) and re.search(rf"\b{name}\b", path.read_text(encoding="utf-8"))
    }
    assert naming and all(path.startswith(package) for path in naming), naming


def _drawn_tree() -> dict[str, str]:
    """Each class the errors module docstring draws, with the parent it is drawn under."""
    parents: dict[str, str] = {}
    stack = ["ParleyError"]
    for line in (errors.__doc__ or "").splitlines():
        match = re.match(r"^\s*((?:[│ ] {3})*)[├└]── (\w+)", line)
        if match is None:
            continue
        depth = len(match.group(1)) // 4
        del stack[depth + 1 :]
        parents[match.group(2)] = stack[depth]
        stack.append(match.group(2))
    return parents


def test_the_docstring_draws_the_real_tree() -> None:
    defined = {
        cls.__name__: cls.__bases__[0].__name__
        for cls in _exceptions_defined_in(errors)
        if issubclass(cls, ParleyError) and cls is not ParleyError
    }
    assert _drawn_tree() == defined


def test_the_cli_reports_every_error_of_the_tree() -> None:
    """``parley`` prints a ParleyError as one line: every class of the tree is one, and the
    app's job cancellation is a Cancelled like the engines'."""
    from parley.app.tasks import JobCancelled

    assert all(issubclass(cls, ParleyError) for cls in _exceptions_defined_in(errors))
    assert issubclass(JobCancelled, Cancelled)
    with pytest.raises(Cancelled):
        raise JobCancelled("reply was cancelled")


# ------------------------------------------------------------------------------ a full disk


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_a_full_disk_is_a_disk_full_error_for_the_converters_and_downloads(tmp_path: Path) -> None:
    """A real ENOSPC: a GPT-2 conversion (a ModelFileError before) and a download's space check
    on a tmpfs smaller than the model; nothing is left behind on the disk."""
    source = tm.write_gpt2_legacy_ggml(
        tmp_path / "ggml-model.bin",
        tm.tiny_gpt2_legacy_tensors(n_vocab=tm.GPT2_N_VOCAB, n_layer=2),
        tm.gpt2_legacy_vocab(),
        n_head=4,
        ftype=0,
    )
    disk = tmp_path / "disk"
    disk.mkdir()
    script = textwrap.dedent(f"""
        import json, os
        from pathlib import Path
        from parley.engine.errors import DiskFullError
        from parley.engine.library.download import check_disk_space
        from parley.engine.modelfiles.gpt2_convert import convert_gpt2_ggml_to_gguf
        disk = Path({str(disk)!r})
        outcomes = []
        for attempt in (
            lambda: convert_gpt2_ggml_to_gguf({str(source)!r}, disk / "model.gguf", vocab={str(tm.vocab_source())!r}),
            lambda: check_disk_space(disk, 1 << 30, "model.gguf"),
        ):
            try:
                attempt()
                outcomes.append("done")
            except DiskFullError as e:
                outcomes.append("disk full: " + str(e))
            except Exception as e:
                outcomes.append(type(e).__name__ + ": " + str(e))
        print(json.dumps({{"outcomes": outcomes, "left": os.listdir(disk)}}))
    """)
    size_kib = source.stat().st_size // 2 // 1024  # the GGUF is larger than the legacy file
    result = run_on_small_tmpfs(disk, f"{size_kib}k", script, dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    converted, checked = report["outcomes"]
    assert converted.startswith(f"disk full: Not enough disk space in {disk} to write model.gguf"), report
    assert checked.startswith("disk full: Not enough disk space for model.gguf"), report
    assert report["left"] == []


def test_is_disk_full_tells_a_full_disk_from_other_write_failures(tmp_path: Path) -> None:
    with pytest.raises(OSError) as full:
        with open("/dev/full", "wb") as out:
            out.write(b"x")
    with pytest.raises(OSError) as missing:
        (tmp_path / "no" / "file").write_bytes(b"x")
    assert errors.is_disk_full(full.value) and not errors.is_disk_full(missing.value)


# ------------------------------------------------------------------------------ a lost device


def _gpu_choice() -> devices.DeviceChoice:
    gpu = devices.Device(index=-1, name="GPU9", description="", kind="gpu", memory_free=0, memory_total=0, backend="X")
    return devices.DeviceChoice(gpu, "GPU9")


@pytest.mark.parametrize(
    "failure", [RemoteDeviceLost("the remote device GPU9 was lost: gone"), ModelLoadError("out of memory")]
)
def test_a_load_that_fails_on_a_gpu_is_done_again_on_the_cpu(failure: ParleyError) -> None:
    tried: list[str] = []

    def load(choice: devices.DeviceChoice) -> None:
        tried.append(choice.device.kind)
        if choice.device.is_gpu:
            raise failure

    used = devices.load_with_fallback(_gpu_choice(), load)
    assert tried == ["gpu", "cpu"] and used.device.kind == "cpu"
    assert used.fallback_reason == f"GPU9 failed: {failure}; using the CPU"


def test_a_load_that_fails_otherwise_or_on_the_cpu_is_not_retried() -> None:
    tried: list[str] = []

    def load(failure: ParleyError) -> Callable[[devices.DeviceChoice], None]:
        def attempt(choice: devices.DeviceChoice) -> None:
            tried.append(choice.device.kind)
            raise failure

        return attempt

    with pytest.raises(ModelLoadError):
        devices.load_with_fallback(devices.select_device("cpu"), load(ModelLoadError("out of memory")))
    with pytest.raises(TranscriptionError):  # not a device's failure: no second load
        devices.load_with_fallback(_gpu_choice(), load(TranscriptionError("bad", 1)))
    assert tried == ["cpu", "gpu"]


def test_a_device_lost_mid_reply_is_no_chat_error_and_the_cli_goes_on_on_the_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server of a remote device goes away after a few tokens of a reply: what reaches the
    caller is a DeviceLostError, not a ChatError (which would only say "this reply failed"), and
    ``parley chat`` says the reply was cut short and carries the conversation on with the CPU."""
    from parley.cli import chat as cli_chat
    from parley.engine.chat import model as chat_model

    path = tm.write_tiny_llama_gguf(tmp_path / "tiny.gguf", n_ctx=256)
    model = chat_model.ChatModel(path, device="cpu", n_ctx=256, threads=1)
    on_cpu = model.device
    server = "127.0.0.1:50052"
    model.device = dataclasses.replace(on_cpu, device=dataclasses.replace(on_cpu.device, name="RPC0", remote=server))
    samples = 0

    def check(device: devices.Device) -> None:  # remote.check on a server that dies at the 21st token
        nonlocal samples
        samples += device.remote is not None
        if device.remote is not None and samples > 20:
            raise RemoteDeviceLost(f"the remote device {device.name} ({server}) was lost: killed")

    monkeypatch.setattr(chat_model.remote, "check", check)
    lines = iter(["Tell me a story."])

    def typed(prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", typed)
    session = chat_model.ChatSession(model)
    args = argparse.Namespace(system="", stats=False, ctx=256, threads=1)
    params = chat_model.SamplingParams(temperature=0, max_tokens=40, ignore_eos=True)
    try:
        with pytest.raises(DeviceLostError) as lost:
            session.reply("Tell me a story.", params)
        assert not isinstance(lost.value, (ChatError, ModelLoadError))
        samples = 0
        assert cli_chat._interactive(model, session, params, args, None) == 0
    finally:
        session.model.close()
        model.close()
    err = capsys.readouterr().err
    assert "[cut short]" in err and "going on with this machine's CPU" in err, err
    assert session.model is not model and session.model.device.device.remote is None
    assert "RPC0 failed: the remote device RPC0 (127.0.0.1:50052) was lost" in (
        session.model.device.fallback_reason or ""
    )
    assert [m.content for m in session.messages if m.role == "user"] == ["Tell me a story."]  # carried over
