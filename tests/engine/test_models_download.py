"""Downloads from a loopback Hub (tests/support/models_hub.py) into a temporary Hugging Face cache.

Real files (a tiny GGUF chat model), the real huggingface_hub client and cache layout, real
sockets: a full download, a cut connection resumed on the next try, a corrupt transfer, a
server that stops responding, no server at all, a full disk (a real small tmpfs), and the
``parley models`` command end to end.  No test reaches the internet.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from parley.engine import library
from parley.engine.errors import ChecksumError, DiskFullError, DownloadCancelled, DownloadError, NoNetworkError
from parley.engine.library import download as dl
from parley.engine.library.local_models import SOURCE_HF
from tests.support.models_hub import (  # noqa: F401 - fixtures
    CHAT_FILE,
    CHAT_REPO,
    HubServer,
    Recorder,
    cache,
    hub,
    model_bytes,
    write_catalog,
)
from tests.support.privileges import run_on_small_tmpfs

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_full_download_lands_in_the_hub_cache_and_is_listed(hub: HubServer, model_bytes: bytes) -> None:
    progress = Recorder()
    path = library.download_model("tiny-chat", progress=progress)
    commit = hub.commits[CHAT_REPO]
    storage = cache() / "models--tests--Tiny-Chat-GGUF"
    assert path == storage / "snapshots" / commit / CHAT_FILE
    assert path.is_symlink() and path.resolve() == storage / "blobs" / hub.sha  # type: ignore[attr-defined]
    assert path.read_bytes() == model_bytes
    assert (storage / "refs" / "main").read_text() == commit
    assert not list(storage.glob("blobs/*.incomplete"))
    # huggingface_hub itself (any other tool) finds the file offline in its cache.
    from huggingface_hub import try_to_load_from_cache

    assert try_to_load_from_cache(CHAT_REPO, CHAT_FILE, cache_dir=cache()) == str(path)
    last = progress.events[-1]
    assert (last.done, last.total, last.stage) == (len(model_bytes), len(model_bytes), "downloading")
    assert all(e.done <= e.total for e in progress.events)
    [model] = [m for m in library.list_models() if m.source == library.SOURCE_PARLEY]
    assert (model.name, model.kind, model.usable, model.path) == ("Tiny chat", "chat", True, path)
    assert "tiny-chat" in library.downloaded()
    # Parley asked the Hub for this file and for nothing else (no telemetry).
    assert {path.split("/resolve/")[0] for _, path, _ in hub.log} == {f"/{CHAT_REPO}"}
    # A second request finds the complete file, checks it and downloads nothing.
    gets = len(hub.gets())
    assert library.download_model("tiny-chat") == path
    assert len(hub.gets()) == gets


def test_remove_deletes_only_what_parley_downloaded(hub: HubServer) -> None:
    path = library.download_model("tiny-chat")
    blob = path.resolve()
    removed = library.remove_model("tiny-chat")
    assert set(removed) == {path, blob}
    assert not path.exists() and not blob.exists()
    assert "tiny-chat" not in library.downloaded()
    with pytest.raises(library.ParleyError, match="did not download"):
        library.remove_model("tiny-chat")


def test_a_file_another_tool_downloaded_is_used_but_never_removed(hub: HubServer, model_bytes: bytes) -> None:
    from huggingface_hub import hf_hub_download

    theirs = Path(hf_hub_download(CHAT_REPO, CHAT_FILE, cache_dir=cache(), endpoint=hub.url))
    path = library.download_model("tiny-chat")
    assert path == theirs and path.read_bytes() == model_bytes
    assert "tiny-chat" not in library.downloaded()
    assert [m.source for m in library.list_models()] == [SOURCE_HF]
    with pytest.raises(library.ParleyError, match="did not download"):
        library.remove_model("tiny-chat")
    assert path.exists()


def test_cut_download_is_kept_and_resumed_on_the_next_try(hub: HubServer, model_bytes: bytes) -> None:
    cut = 2 * 1024 * 1024 + 12345
    hub.behaviour.cut_after = cut
    with pytest.raises(NoNetworkError, match="kept and the next try continues"):
        library.download_model("tiny-chat", retries=0)
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"  # type: ignore[attr-defined]
    assert partial.stat().st_size == cut
    assert partial.read_bytes() == model_bytes[:cut]
    assert library.load_records()["tiny-chat"].status == "partial"
    assert [m for m in library.list_models() if m.usable] == []  # not selectable yet

    progress = Recorder()
    path = library.download_model("tiny-chat", progress=progress)
    assert path.read_bytes() == model_bytes
    assert hub.gets()[-1][2] == f"bytes={cut}-"  # resumed, not started over
    assert progress.events[0].stage == "checking"  # the kept part was re-hashed
    assert progress.events[-1].done == len(model_bytes)
    assert not partial.exists()


def test_a_dropped_connection_is_resumed_within_one_download(hub: HubServer, model_bytes: bytes) -> None:
    hub.behaviour.cut_after = 3 * 1024 * 1024
    path = library.download_model("tiny-chat", retries=2)
    assert path.read_bytes() == model_bytes
    assert [g[2] for g in hub.gets()] == [None, f"bytes={3 * 1024 * 1024}-"]


def test_corrupt_transfer_is_removed(hub: HubServer) -> None:
    hub.behaviour.corrupt = True
    with pytest.raises(ChecksumError, match="corrupt .*SHA-256.*removed"):
        library.download_model("tiny-chat-hub-sha")
    storage = cache() / "models--tests--Tiny-Chat-GGUF"
    assert list(storage.glob("blobs/*")) == []
    assert not (storage / "snapshots").exists()
    assert library.load_records() == {}


def test_catalog_checksum_that_differs_from_the_hub_stops_before_downloading(hub: HubServer) -> None:
    with pytest.raises(ChecksumError, match=r"not the one Parley expects \(SHA-256 .*\); nothing was downloaded"):
        library.download_model("tiny-chat-wrong-sha")
    assert hub.gets() == []


def test_server_that_stops_responding_times_out(hub: HubServer) -> None:
    hub.behaviour.stall_after = 1024 * 1024 + 7
    outcome: dict[str, BaseException] = {}

    def run() -> None:
        try:
            library.download_model("tiny-chat", timeout=1.0, retries=0)
        except BaseException as exc:  # noqa: BLE001 - checked below
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)  # a hang fails the test instead of blocking the suite
    assert not worker.is_alive(), "the download hung instead of timing out"
    error = outcome["error"]
    assert isinstance(error, NoNetworkError)
    assert "stopped responding (nothing for 1 s)" in str(error) and "kept" in str(error)


def test_head_that_never_answers_is_reported_as_unreachable(hub: HubServer) -> None:
    hub.behaviour.stall_head = True
    with pytest.raises(NoNetworkError, match="Cannot reach 127.0.0.1"):
        library.download_model("tiny-chat", timeout=1.0)


def test_no_network(hub: HubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port}")
    with pytest.raises(NoNetworkError, match="Cannot reach .*Check the network connection"):
        library.download_model("tiny-chat")
    assert library.load_records() == {}


def test_missing_file_is_a_clear_error(hub: HubServer) -> None:
    with pytest.raises(DownloadError, match="has no file 'nope.gguf'"):
        library.download_model("missing")


def test_a_download_that_is_not_a_model_is_removed(hub: HubServer, tmp_path: Path, monkeypatch) -> None:
    hub.add(CHAT_REPO, "fake.gguf", b"GGUF" + os.urandom(4000))
    write_catalog(tmp_path / "c2.json", [{"id": "fake", "repo": CHAT_REPO, "file": "fake.gguf", "size": 4004}])
    monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(tmp_path / "c2.json"))
    with pytest.raises(DownloadError, match="cannot be used: .*It was removed"):
        library.download_model("fake")
    assert list((cache() / "models--tests--Tiny-Chat-GGUF" / "blobs").iterdir()) == []
    assert library.load_records() == {}


def test_cancel_keeps_the_partial_file(hub: HubServer, model_bytes: bytes) -> None:
    class CancelAfterFirstReport:
        def __init__(self) -> None:
            self.seen: list[int] = []

        @property
        def cancelled(self) -> bool:
            return len(self.seen) >= 1  # after the first progress report

    flag = CancelAfterFirstReport()
    with pytest.raises(DownloadCancelled):
        library.download_model("tiny-chat", cancel=flag, progress=lambda p: flag.seen.append(p.done))
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"  # type: ignore[attr-defined]
    assert 0 < partial.stat().st_size < len(model_bytes)
    assert library.download_model("tiny-chat").read_bytes() == model_bytes


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_disk_space_is_checked_against_the_real_free_space(tmp_path: Path) -> None:
    free = shutil.disk_usage(tmp_path).free
    dl.check_disk_space(tmp_path / "not" / "yet", free // 2, "x.gguf")  # the nearest folder counts
    with pytest.raises(DiskFullError, match="Not enough disk space for x.gguf"):
        dl.check_disk_space(tmp_path, free + 10**9, "x.gguf")


# ------------------------------------------------------------------------------ a real full disk


def _download_on_tmpfs(hub: HubServer, disk: Path, size: str, *, fill_after_first_chunk: bool = False) -> dict:
    """Run a download in a child whose hub cache is a fresh tmpfs of ``size`` mounted on ``disk``.

    ``fill_after_first_chunk``: once the first chunk is written, another file takes all the
    space but 256 KiB (as another program would), so the download meets a real ENOSPC."""
    disk.mkdir()
    script = textwrap.dedent(f"""
        import json, os
        from pathlib import Path
        from parley.engine import library
        from parley.engine.errors import DiskFullError
        disk = Path({str(disk)!r})
        filled = False

        def progress(p):
            global filled
            if {fill_after_first_chunk!r} and not filled and p.done > 0:
                filled = True
                with open(disk / "filler", "wb") as out:
                    try:
                        while True:
                            out.write(bytes(65536))
                            out.flush()
                    except OSError:
                        pass
                os.truncate(disk / "filler", os.path.getsize(disk / "filler") - 256 * 1024)

        try:
            library.download_model("tiny-chat", cache_dir=disk, retries=0, progress=progress)
            outcome = "downloaded"
        except DiskFullError as e:
            outcome = "disk: " + str(e)
        files = {{str(p.relative_to(disk)): p.stat().st_size for p in disk.rglob("*") if p.is_file()}}
        print(json.dumps({{"outcome": outcome, "files": files}}))
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    result = run_on_small_tmpfs(disk, size, script, env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_too_small_disk_is_refused_before_downloading(hub: HubServer, tmp_path: Path) -> None:
    report = _download_on_tmpfs(hub, tmp_path / "disk", "1m")
    assert report["outcome"].startswith("disk: Not enough disk space for tiny-chat-Q8.gguf"), report
    assert hub.gets() == []
    assert not [name for name in report["files"] if "/blobs/" in name], report


def test_disk_filling_up_during_the_download_is_reported(hub: HubServer, model_bytes: bytes, tmp_path: Path) -> None:
    megabytes = len(model_bytes) // 2**20 + 2
    report = _download_on_tmpfs(hub, tmp_path / "disk", f"{megabytes}m", fill_after_first_chunk=True)
    assert report["outcome"].startswith("disk: The disk filled up while downloading tiny-chat-Q8.gguf"), report
    partials = [n for n in report["files"] if n.endswith(".incomplete")]
    assert len(partials) == 1 and 0 < report["files"][partials[0]] < len(model_bytes), report


# ------------------------------------------------------------------------------ parley models


def parley(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parley", "models", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)),
        timeout=120,
        **kwargs,
    )


def test_cli_download_list_catalog_remove(hub: HubServer, model_bytes: bytes) -> None:
    got = parley("download", "tiny-chat")
    assert got.returncode == 0, got.stderr
    path = Path(got.stdout.strip().removeprefix("Ready: "))
    assert path.read_bytes() == model_bytes
    assert "100%" in got.stderr and "MB/s" in got.stderr
    listed = parley()
    assert listed.returncode == 0 and "Downloaded by Parley" in listed.stdout and str(path) in listed.stdout
    catalog = parley("catalog")
    assert " * tiny-chat " in catalog.stdout and "   tiny-chat-hub-sha " in catalog.stdout
    as_json = [m for m in json.loads(parley("--json").stdout) if m["source"] != "Built in"]
    assert [(m["name"], m["kind"], m["usable"], m["fit"]) for m in as_json] == [("Tiny chat", "chat", True, "fits")]
    removed = parley("remove", "tiny-chat")
    assert removed.returncode == 0 and f"removed {path}" in removed.stdout
    assert not path.exists()
    again = parley("remove", "tiny-chat")
    assert again.returncode == 2 and "did not download 'tiny-chat'" in again.stderr


def test_cli_errors_are_one_line(hub: HubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    unknown = parley("download", "nope")
    assert unknown.returncode == 2 and "parley: error: no model 'nope' in the catalog" in unknown.stderr
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    offline = parley("download", "tiny-chat")
    assert offline.returncode == 2 and "parley: error: Cannot reach 127.0.0.1:9" in offline.stderr
    assert "Traceback" not in offline.stderr


def test_cli_ctrl_c_stops_and_keeps_the_partial_file(hub: HubServer, model_bytes: bytes) -> None:
    import signal
    import time

    hub.behaviour.delay_s = 0.05  # 64 KiB every 50 ms: the download takes seconds
    proc = subprocess.Popen(
        [sys.executable, "-m", "parley", "models", "download", "tiny-chat"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)),
        # As from a terminal: a suite started in the background (`cmd &`) ignores SIGINT, the child
        # would inherit that, and Python then installs no Ctrl-C handler at all.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"  # type: ignore[attr-defined]
    for _ in range(600):
        if partial.exists() and partial.stat().st_size > 0:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "partial download is kept; `parley models download tiny-chat` continues it" in err
    assert 0 < partial.stat().st_size < len(model_bytes)


def test_a_downloaded_model_talks_in_parley_chat(hub: HubServer) -> None:
    """The point of it all: a model fetched by `parley models download` answers in `parley chat`."""
    path = Path(parley("download", "tiny-chat").stdout.strip().removeprefix("Ready: "))
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "parley",
            "chat",
            "--model",
            str(path),
            "--prompt",
            "Hello",
            "--max-tokens",
            "4",
            "--temp",
            "0",
            "--device",
            "cpu",
            "--ctx",
            "256",
            "--stats",
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)),
        timeout=120,
    )
    assert got.returncode == 0, got.stderr
    assert "reply: 4 tokens" in got.stderr, got.stderr
    assert "warning" not in got.stderr  # it fits: no fit warning


def test_model_folders_setting_round_trips(tmp_path: Path) -> None:
    from parley.config.settings import Settings, load_settings, save_settings

    save_settings(Settings(model_folders=["/models", "~/more"]), tmp_path / "s.json")
    loaded = load_settings(tmp_path / "s.json")
    assert loaded.settings.model_folders == ["/models", "~/more"] and loaded.warnings == []
    (tmp_path / "bad.json").write_text('{"model_folders": "/not/a/list"}')
    bad = load_settings(tmp_path / "bad.json")
    assert bad.settings.model_folders == [] and "model_folders" in bad.warnings[0]


# ------------------------------------------------------------------------------ a hostile mirror


def _victim(tmp_path: Path) -> Path:
    """A file of the user's, outside the hub cache, that no answer of a server may touch."""
    victim = tmp_path / "home" / "victim" / "notes.txt"
    victim.parent.mkdir(parents=True)
    victim.write_text("my notes\n")
    return victim


def test_an_etag_that_is_a_path_never_reaches_the_disk(hub: HubServer, model_bytes: bytes, tmp_path: Path) -> None:
    """blobs/<etag> with ETag "../../../../../victim/notes.txt" is the user's ~/victim/notes.txt."""
    victim = _victim(tmp_path)
    hub.behaviour.headers = {
        "ETag": '"../../../../../victim/notes.txt"',
        "X-Linked-Etag": '"../../../../../victim/notes.txt"',
    }
    for model in ("tiny-chat", "tiny-chat", "tiny-chat-hub-sha"):  # twice: the 2nd try deleted it
        got = parley("download", model)
        assert got.returncode == 2, got.stderr
        assert (
            "parley: error:" in got.stderr
            and "ETag '../../../../../victim/notes.txt' is not a file hash" in got.stderr
            and "Traceback" not in got.stderr
        )
    assert hub.gets() == []
    removed = parley("remove", "tiny-chat")
    assert removed.returncode == 2 and "did not download" in removed.stderr
    assert victim.read_text() == "my notes\n"
    hub.behaviour.headers = {}  # the genuine mirror still works
    assert library.download_model("tiny-chat").read_bytes() == model_bytes


def test_a_commit_or_size_or_location_the_hub_cannot_send_is_refused(hub: HubServer, tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    for headers, status, message in (
        ({"X-Repo-Commit": "../../../../victim"}, None, "revision '../../../../victim' is not"),
        ({"X-Repo-Commit": "a/" + "0" * 38}, None, "is not a 40-character commit hash"),
        ({"X-Linked-Size": str(10**15)}, None, "size 1000000000000000 is not a number of bytes"),
        ({"X-Linked-Size": "-5"}, None, "size -5 is not"),
        ({"X-Linked-Size": "0"}, None, "size 0 is not"),  # found by bench/fuzz_hub.py
        ({"Location": "file:///etc/passwd"}, 302, "not an http(s) URL"),
    ):
        hub.behaviour.headers, hub.behaviour.head_status = headers, status
        with pytest.raises(DownloadError, match=re.escape(message)):
            library.download_model("tiny-chat")
    assert hub.gets() == [] and library.load_records() == {}
    assert victim.read_text() == "my notes\n" and list(victim.parent.iterdir()) == [victim]
    assert not (cache() / "models--tests--Tiny-Chat-GGUF" / "snapshots").exists()


def test_a_resumed_part_must_start_where_the_partial_file_stops(hub: HubServer, model_bytes: bytes) -> None:
    cut = 1024 * 1024 + 5
    hub.behaviour.cut_after = cut
    with pytest.raises(NoNetworkError):
        library.download_model("tiny-chat", retries=0)
    hub.behaviour.headers = {"Content-Range": f"bytes 0-{len(model_bytes) - 1}/{len(model_bytes)}"}
    with pytest.raises(DownloadError, match=r"other than the one asked for \(Content-Range 'bytes 0-"):
        library.download_model("tiny-chat", retries=0)
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"  # type: ignore[attr-defined]
    assert partial.read_bytes() == model_bytes[:cut]  # kept, not appended to
    hub.behaviour.headers = {}
    assert library.download_model("tiny-chat").read_bytes() == model_bytes


def test_a_symbolic_link_in_the_cache_that_leads_out_is_never_written_through(hub: HubServer, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    storage = cache() / "models--tests--Tiny-Chat-GGUF"
    storage.mkdir(parents=True)
    (storage / "blobs").symlink_to(outside)
    with pytest.raises(DownloadError, match="leads out of .*Remove that link"):
        library.download_model("tiny-chat")
    assert list(outside.iterdir()) == [] and hub.gets() == []


def test_another_tools_blob_under_the_same_name_is_left_alone(hub: HubServer, tmp_path: Path) -> None:
    """An ETag that is a git blob id (not the file's SHA-256) naming a file already in the cache."""
    theirs = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / ("ab" * 20)
    theirs.parent.mkdir(parents=True)
    theirs.write_bytes(b"another tool's file")
    hub.behaviour.headers = {"ETag": f'"{"ab" * 20}"', "X-Linked-Etag": None}
    with pytest.raises(ChecksumError, match="different file .* left alone"):
        library.download_model("tiny-chat")
    assert theirs.read_bytes() == b"another tool's file"


def test_an_edited_downloads_record_cannot_make_remove_delete_elsewhere(hub: HubServer, tmp_path: Path) -> None:
    path = library.download_model("tiny-chat")
    victim = _victim(tmp_path)
    records = Path(os.environ["PARLEY_DATA_DIR"]) / "downloads.json"
    doc = json.loads(records.read_text())
    good = doc["downloads"][0]
    doc["downloads"] = [
        {**good, "blob": str(victim), "pointer": str(victim), "partial": str(victim)},
        {**good, "id": "dotdot", "file": "../../../../../victim/notes.txt"},
        {
            **good,
            "id": "other-cache",
            "cache_dir": str(victim.parent.parent),
            "blob": str(victim.parent.parent / "models--tests--Tiny-Chat-GGUF" / "blobs" / good["sha256"]),
        },
        "not a record",
    ]
    records.write_text(json.dumps(doc))
    got = parley("remove", "tiny-chat")
    assert got.returncode == 2 and "did not download 'tiny-chat'" in got.stderr, got.stderr
    assert got.stderr.count("parley: warning: download record") == 4
    assert "'tiny-chat' in " in got.stderr and "its paths are not the hub cache's paths" in got.stderr
    assert victim.read_text() == "my notes\n" and path.exists()
    listed = parley("--all")  # the list still works
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    # The next download keeps the bad records as they were (nothing of the user's is lost).
    library.download_model("tiny-chat")
    assert "not a record" in json.loads(records.read_text())["downloads"]


def test_remove_checks_the_cache_again_when_it_deletes(hub: HubServer, tmp_path: Path) -> None:
    """A record that was right when written, but whose blobs folder is now a link to elsewhere."""
    path = library.download_model("tiny-chat")
    blobs = path.resolve().parent
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(blobs, elsewhere)
    shutil.rmtree(blobs)
    blobs.symlink_to(elsewhere)
    with pytest.raises(DownloadError, match="leads out of"):
        library.remove_model("tiny-chat")
    assert [p.name for p in elsewhere.iterdir()] == [hub.sha]  # type: ignore[attr-defined]
    assert "tiny-chat" in library.load_records()


def test_an_error_status_with_a_binary_body_is_a_clear_error(hub: HubServer, model_bytes: bytes) -> None:
    """Found by bench/fuzz_hub.py: huggingface_hub's error check parsed such a body as JSON and
    raised UnicodeDecodeError."""
    hub.behaviour.cut_after = 1024 * 1024
    with pytest.raises(NoNetworkError):
        library.download_model("tiny-chat", retries=0)
    hub.behaviour.get_status = 500
    with pytest.raises(
        DownloadError,
        match=r"answered 500 while sending tiny-chat-Q8.gguf; The 1.0 MB "
        r"received of .* are kept",
    ):
        library.download_model("tiny-chat")
    hub.behaviour.get_status = None
    assert library.download_model("tiny-chat").read_bytes() == model_bytes
