"""The conversation store: round trip, WAL, partial replies, search, export, and a full disk."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from parley.app.bootstrap import create_window, start_controller
from parley.app.conversations.conversation import Conversation, Message
from parley.app.conversations.store import Store, StoreError
from parley.config.paths import data_dir
from parley.config.settings import Settings
from tests.support.app_helpers import LOAD_TIMEOUT_MS, idle, tiny_chat_model, tiny_settings  # noqa: F401 - fixture
from tests.support.lines import LineReader
from tests.support.privileges import run_on_small_tmpfs, without_root

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "conversations.sqlite3")
    yield s
    s.close()


def test_data_dir_follows_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PARLEY_DATA_DIR", str(tmp_path / "data"))
    assert data_dir() == tmp_path / "data"
    s = Store.open_default()
    assert (tmp_path / "data" / "conversations.sqlite3").exists()
    s.close()


def test_wal_mode_is_on(store, tmp_path):
    assert store.journal_mode == "wal"
    store.create_conversation("x")
    assert (tmp_path / "conversations.sqlite3-wal").exists()


def test_round_trip(store, tmp_path):
    c = store.create_conversation("Trip planning")
    store.add_message(c.id, "user", "Where should I go?")
    stats = {"generated_tokens": 12, "gen_tps": 30.5, "finish": "eog"}
    store.add_message(c.id, "assistant", "Try **Lisbon**.", stats=stats)
    store.close()

    reopened = Store(tmp_path / "conversations.sqlite3")
    loaded = reopened.load_conversation(c.id)
    assert loaded.title == "Trip planning"
    assert [(m.role, m.content, m.complete) for m in loaded.messages] == [
        ("user", "Where should I go?", True),
        ("assistant", "Try **Lisbon**.", True),
    ]
    assert loaded.messages[1].stats == stats and loaded.messages[0].stats is None
    reopened.close()


def test_list_newest_first_rename_delete(store):
    a = store.create_conversation("a")
    b = store.create_conversation("b")
    store.add_message(a.id, "user", "bump a")
    assert [c.title for c in store.list_conversations()] == ["a", "b"]
    store.rename_conversation(b.id, "bee")
    assert {c.title for c in store.list_conversations()} == {"a", "bee"}
    store.delete_conversation(a.id)
    assert [c.title for c in store.list_conversations()] == ["bee"]
    with pytest.raises(StoreError, match="no longer exists"):
        store.load_conversation(a.id)
    assert store._conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0  # cascaded


def test_partial_reply_is_kept_incomplete_and_can_be_replaced(store):
    c = store.create_conversation("c")
    store.add_message(c.id, "user", "Tell me a story")
    partial = store.add_message(c.id, "assistant", "Once upon a", state="stopped")
    m = store.load_conversation(c.id).messages[-1]
    assert (m.id, m.role, m.content, m.complete, m.state) == (partial, "assistant", "Once upon a", False, "stopped")
    store.update_message(partial, "Once upon a time.", state="complete", stats={"finish": "eog"})
    m = store.load_conversation(c.id).messages[-1]
    assert (m.content, m.complete, m.stats) == ("Once upon a time.", True, {"finish": "eog"})


def test_a_reply_left_streaming_is_interrupted_when_the_store_opens_again(tmp_path):
    """The process that was writing it is gone (killed, crashed): the next start says so."""
    path = tmp_path / "conversations.sqlite3"
    first = Store(path)
    c = first.create_conversation("c")
    first.add_message(c.id, "user", "Tell me a story")
    streaming = first.add_message(c.id, "assistant", "Once upon", state="streaming")
    assert first.interrupted == 0
    first.close()
    second = Store(path)
    assert second.interrupted == 1
    m = second.load_conversation(c.id).messages[-1]
    assert (m.id, m.content, m.state, m.complete) == (streaming, "Once upon", "interrupted", False)
    second.close()


def test_a_version_1_database_is_migrated(tmp_path):
    """Version 1 had ``complete`` only: 0 was a stopped reply."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL,
                                    updated REAL NOT NULL);
        CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL
                               REFERENCES conversations(id) ON DELETE CASCADE,
                               role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
                               content TEXT NOT NULL, created REAL NOT NULL, complete INTEGER NOT NULL DEFAULT 1,
                               stats TEXT);
        INSERT INTO conversations VALUES (1, 'old', 1.0, 2.0);
        INSERT INTO messages VALUES (1, 1, 'user', 'hi', 1.0, 1, NULL);
        INSERT INTO messages VALUES (2, 1, 'assistant', 'hel', 1.5, 0, '{"finish": "cancelled"}');
        PRAGMA user_version = 1;
    """)
    db.close()
    store = Store(path)
    messages = store.load_conversation(1).messages
    assert [(m.role, m.content, m.state) for m in messages] == [
        ("user", "hi", "complete"),
        ("assistant", "hel", "stopped"),
    ]
    assert messages[1].stats == {"finish": "cancelled"}
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == 2
    store.close()


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]", '"text"'])
def test_unreadable_stats_do_not_keep_a_conversation_from_opening(store, bad):
    c = store.create_conversation("c")
    message_id = store.add_message(c.id, "assistant", "Fine.", stats={"finish": "eog"})
    with store._conn:
        store._conn.execute("UPDATE messages SET stats = ? WHERE id = ?", (bad, message_id))
    [m] = store.load_conversation(c.id).messages
    assert (m.content, m.stats) == ("Fine.", None)


def test_search_titles_and_contents(store):
    pasta = store.create_conversation("Dinner ideas")
    store.add_message(pasta.id, "user", "A recipe with 100% durum wheat?")
    code = store.create_conversation("Python help")
    store.add_message(code.id, "assistant", "Use snake_case names.")
    assert [c.id for c in store.search("dinner")] == [pasta.id]  # title, any case
    assert [c.id for c in store.search("RECIPE")] == [pasta.id]  # content
    assert [c.id for c in store.search("100%")] == [pasta.id]  # % is literal
    assert [c.id for c in store.search("e_c")] == [code.id]  # _ is literal
    assert store.search("nothing like this") == []
    assert len(store.search("  ")) == 2


def test_export_markdown_and_json(store, tmp_path):
    c = store.create_conversation("Code")
    store.add_message(c.id, "user", "Show a loop")
    store.add_message(c.id, "assistant", "```python\nfor i in range(3):\n```", state="stopped")
    store.export_markdown(c.id, tmp_path / "out.md")
    md = (tmp_path / "out.md").read_text()
    assert md.startswith("# Code\n")
    assert "### You" in md and "### Assistant" in md and "for i in range(3):" in md
    assert "stopped before the end" in md
    store.export_json(c.id, tmp_path / "out.json")
    doc = json.loads((tmp_path / "out.json").read_text())
    assert doc["title"] == "Code"
    assert [(m["role"], m["complete"]) for m in doc["messages"]] == [("user", True), ("assistant", False)]
    with pytest.raises(StoreError, match="Could not export"):
        store.export_json(c.id, tmp_path / "missing-folder" / "out.json")


def test_unopenable_database_is_a_store_error(tmp_path):
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(StoreError, match="Could not open"):
        Store(tmp_path / "dir.sqlite3")


def test_messages_taken_back_leave_the_store_with_the_next_write_or_the_one_after(store):
    """A hands-free turn taken back (``ConversationBook.take_back``): the messages go from the
    conversation and their ids wait in ``taken_back``; a write that fails keeps them for the next."""
    conversation = Conversation(None, "c", [Message("user", "Can you remind me to.")])
    store.write(conversation)
    conversation.messages.append(Message("assistant", "Of course, what", state="stopped"))
    store.write(conversation)
    conversation.taken_back = [m.id for m in conversation.messages]
    conversation.messages = [Message("user", "Can you remind me to call the dentist?")]
    store._conn.execute("PRAGMA query_only = ON")  # as a read-only file refuses
    with pytest.raises(StoreError, match="read-only"):
        store.write(conversation)
    assert len(conversation.taken_back) == 2
    store._conn.execute("PRAGMA query_only = OFF")
    store.write(conversation)
    assert conversation.taken_back == []
    loaded = store.load_conversation(conversation.id).messages
    assert [(m.role, m.content) for m in loaded] == [("user", "Can you remind me to call the dentist?")]


def test_read_only_database_is_explained(store):
    c = store.create_conversation("c")
    store._conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="read-only"):
        store.add_message(c.id, "user", "hi")


# A real 512 KiB file system, in a child of its own (``run_on_small_tmpfs``): the child runs
# the store there and prints a JSON report of what the store said and kept.
_TINY_DISK_PRELUDE = """
import json, os, uuid
from pathlib import Path
from parley.app.conversations.conversation import Conversation, Message
from parley.app.conversations.store import Store, StoreError

disk = Path(os.environ["PARLEY_TEST_DISK"])  # the tmpfs
report = {}


def fill():
    # Write until the file system refuses even one more byte.
    with open(disk / "filler", "wb", buffering=0) as f:
        for chunk in (65536, 4096, 512, 1):
            try:
                while True:
                    f.write(bytes(chunk))
            except OSError:
                pass


def contents(store, conversation_id):
    return [m.content for m in store.load_conversation(conversation_id).messages]
"""


def _on_a_tiny_disk(tmp_path: Path, body: str) -> tuple[Path, dict]:
    """Run ``body`` (after the prelude above) on a fresh 512 KiB tmpfs; its folder and report."""
    disk = tmp_path / "tiny"
    disk.mkdir()
    script = _TINY_DISK_PRELUDE + textwrap.dedent(body) + "\nprint(json.dumps(report))\n"
    env = dict(os.environ, PYTHONPATH=str(REPO), PARLEY_TEST_DISK=str(disk))
    result = run_on_small_tmpfs(disk, "512k", script, env)
    assert result.returncode == 0, result.stderr
    return disk, json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_disk_full_on_a_real_full_file_system(tmp_path):
    _, report = _on_a_tiny_disk(
        tmp_path,
        """
        store = Store(disk / "conversations.sqlite3")
        c = store.create_conversation("Kept")
        store.add_message(c.id, "user", "saved before the disk filled up")
        fill()
        big = uuid.uuid4().hex * 2000  # 64 KB that cannot compress away
        try:
            store.add_message(c.id, "assistant", big)
            report["full"] = None
        except StoreError as e:
            report["full"] = str(e)
        report["kept"] = contents(store, c.id)
        os.remove(disk / "filler")
        store.add_message(c.id, "assistant", big)
        report["after_freeing"] = [len(text) for text in contents(store, c.id)]
        store.close()
        """,
    )
    assert report["full"] is not None, "the store wrote 64 KB onto a full disk without an error"
    assert report["full"] == "Could not save the message: the disk is full.", report
    # Nothing half-written, and everything saved before is still there.
    assert report["kept"] == ["saved before the disk filled up"]
    assert report["after_freeing"] == [len("saved before the disk filled up"), 64_000]


def test_disk_full_when_the_database_reaches_its_page_limit(store):
    c = store.create_conversation("Kept")
    store.add_message(c.id, "user", "first")
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages + 1}")
    with pytest.raises(StoreError, match="disk is full") as info:
        store.add_message(c.id, "assistant", "x" * 200_000)
    assert isinstance(info.value.__cause__, sqlite3.OperationalError)
    assert [m.content for m in store.load_conversation(c.id).messages] == ["first"]


# ------------------------------------------------------------------ migrations and newer files

_VERSION_1 = """
    CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL,
                                updated REAL NOT NULL);
    CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL
                           REFERENCES conversations(id) ON DELETE CASCADE,
                           role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
                           content TEXT NOT NULL, created REAL NOT NULL, complete INTEGER NOT NULL DEFAULT 1,
                           stats TEXT);
    INSERT INTO conversations VALUES (1, 'old', 1.0, 2.0);
    INSERT INTO messages VALUES (1, 1, 'user', 'hi', 1.0, 1, NULL);
    INSERT INTO messages VALUES (2, 1, 'assistant', 'hel', 1.5, 0, NULL);
    PRAGMA user_version = 1;
"""


def _snapshot(path) -> tuple:
    """Everything a database holds that a migration could change: schema, version, rows."""
    db = sqlite3.connect(path)
    try:
        schema = db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        version = db.execute("PRAGMA user_version").fetchone()[0]
        rows = [
            db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() for table in ("conversations", "messages")
        ]
        return schema, version, rows
    finally:
        db.close()


def test_a_migration_that_fails_midway_leaves_the_database_as_it_was(tmp_path):
    """The first step of the migration works, the second fails (here a trigger of the user's
    refuses it): nothing of the first may stay, or every later start would fail on it."""
    path = tmp_path / "conversations.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        _VERSION_1
        + """
        CREATE TRIGGER no_updates BEFORE UPDATE ON messages BEGIN SELECT RAISE(ABORT, 'updates refused'); END;
    """
    )
    db.close()
    before = _snapshot(path)
    with pytest.raises(StoreError, match="updates refused"):
        Store(path)
    assert _snapshot(path) == before  # not half-migrated: exactly the old database

    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER no_updates")  # the problem is gone: the next start migrates
    db.close()
    store = Store(path)
    assert [(m.content, m.state) for m in store.load_conversation(1).messages] == [
        ("hi", "complete"),
        ("hel", "stopped"),
    ]
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == 2
    store.close()


def _newer_database(path, version: int = 3) -> None:
    """A database as a later Parley might leave it: a higher version, a column this one lacks."""
    store = Store(path)
    c = store.create_conversation("From the future")
    store.add_message(c.id, "user", "hello from a newer Parley")
    store.close()
    db = sqlite3.connect(path)
    db.executescript(f"ALTER TABLE messages ADD COLUMN language TEXT; PRAGMA user_version = {version};")
    db.close()


def test_a_database_from_a_newer_parley_is_shown_but_never_written(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    _newer_database(path)
    before, contents = _snapshot(path), path.read_bytes()
    store = Store(path)
    assert store.read_only
    assert "newer Parley (database version 3; this Parley knows up to version 2)" in store.problem
    assert "update Parley" in store.problem
    [c] = store.list_conversations()
    assert [m.content for m in store.load_conversation(c.id).messages] == ["hello from a newer Parley"]
    with pytest.raises(StoreError, match="Could not save the message: they were saved by a newer Parley"):
        store.add_message(c.id, "user", "not saved")
    with pytest.raises(StoreError, match="newer Parley"):
        store.create_conversation("not saved either")
    store.close()
    assert _snapshot(path) == before and path.read_bytes() == contents


# ------------------------------------------------------------------ two Parleys, one store

_HOLDER = """
import sys
from parley.app.conversations.store import Store
store = Store(sys.argv[1])
c = store.create_conversation("Held")
store.add_message(c.id, "user", "Tell me a story")
store.add_message(c.id, "assistant", "Once upon", state="streaming")
print("ready", flush=True)
sys.stdin.readline()
store.close()
print("closed", flush=True)
"""


@pytest.fixture
def holder(tmp_path):
    """Another process with the store open for writing, a reply streaming in it."""
    path = tmp_path / "conversations.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert _line(proc) == "ready"
        yield proc, path
    finally:
        proc.kill()
        proc.wait(timeout=60)


def _line(proc: subprocess.Popen, timeout: float = 60) -> str:
    """The process's next line of output; fails instead of hanging past ``timeout``."""
    if not hasattr(proc, "lines"):
        proc.lines = LineReader(proc.stdout)  # type: ignore[attr-defined]
    return proc.lines.next(timeout).strip()


def test_a_second_process_shows_the_store_read_only_and_writes_nothing(holder):
    proc, path = holder
    second = Store(path)
    assert second.read_only and second.interrupted == 0
    assert second.problem == (
        "Conversations are shown but not saved: another Parley is using them; close it and restart this Parley."
    )
    [c] = second.list_conversations()
    assert [(m.content, m.state) for m in second.load_conversation(c.id).messages] == [
        ("Tell me a story", "complete"),
        ("Once upon", "streaming"),
    ]  # the live reply is not "interrupted"
    with pytest.raises(StoreError, match="another Parley is using them"):
        second.add_message(c.id, "user", "from the second process")
    second.close()

    proc.stdin.write("\n")
    proc.stdin.flush()
    assert _line(proc) == "closed"
    third = Store(path)  # the first one is gone: writable again
    assert not third.read_only and third.problem is None and third.interrupted == 1
    third.add_message(c.id, "user", "saved now")
    third.close()


def test_a_killed_process_leaves_no_lock_behind(holder):
    proc, path = holder
    proc.kill()
    proc.wait(timeout=60)
    store = Store(path)
    assert not store.read_only and store.interrupted == 1
    store.close()


# ------------------------------------------------------------------ files that are not a database


def _saved_database(path) -> bytes:
    """A real store with one conversation, closed (checkpointed: all of it in the file); its bytes."""
    store = Store(path)
    c = store.create_conversation("Kept")
    for n in range(200):
        store.add_message(c.id, "user", f"message {n} " + "words " * 40)
    store.close()
    return path.read_bytes()


def _corrupt(path) -> None:
    """Overwrite the pages of the messages table's b-tree with garbage: the header still reads."""
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(2 * page, len(data) - page, 3 * page):
        data[start : start + 64] = os.urandom(64)
    path.write_bytes(bytes(data))


def _not_ours(path) -> None:
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'x');")
    db.close()


UNREADABLE = {
    "random bytes": lambda path: path.write_bytes(os.urandom(100_000)),
    "text": lambda path: path.write_text("these are my notes, not a database\n" * 100),
    "truncated header": lambda path: path.write_bytes(_saved_database(path)[:60]),
    "truncated": lambda path: path.write_bytes(_saved_database(path)[: len(path.read_bytes()) // 2]),
    "corrupt pages": lambda path: (_saved_database(path), _corrupt(path)),
    "another program's database": _not_ours,
}


@pytest.mark.parametrize("damage", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_an_unreadable_database_is_moved_aside_whole_and_a_new_one_started(tmp_path, damage):
    path = tmp_path / "conversations.sqlite3"
    damage(path)
    contents = path.read_bytes()
    store = Store(path)
    kept = tmp_path / store.problem.split(" it was moved to ")[1].split(" and a new one started")[0]
    assert store.problem.startswith("The conversation database could not be read (")
    assert kept.parent == tmp_path and kept.name.startswith("conversations.damaged-") and kept.suffix == ".sqlite3"
    assert kept.read_bytes() == contents  # nothing lost: the old file, untouched
    c = store.create_conversation("New")  # and a working store in its place
    store.add_message(c.id, "user", "saved")
    store.close()
    again = Store(path)
    assert again.problem is None and [s.title for s in again.list_conversations()] == ["New"]
    again.close()
    assert kept.read_bytes() == contents


def test_a_second_damaged_database_gets_its_own_name(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    names = set()
    for n in range(2):
        path.write_bytes(b"not a database %d" % n * 1000)
        store = Store(path)
        names.add(store.problem.split(" it was moved to ")[1].split(" and a new")[0])
        store.close()
        path.unlink()
    assert len(names) == 2 and all(Path(name).exists() for name in names)


def test_an_empty_file_is_a_new_database(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    path.touch()
    store = Store(path)
    assert store.problem is None and store.list_conversations() == []
    store.create_conversation("First")
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []


_OPEN = """
import sys
from parley.app.conversations.conversation import Conversation, Message
from parley.app.conversations.store import Store, StoreError
try:
    Store(sys.argv[1])
except StoreError as exc:
    print(exc)
"""


def _open_in_child(path) -> str:
    """Open the store in a child process (a hang fails the test instead of blocking it)."""
    proc = subprocess.run(
        [sys.executable, "-c", _OPEN, str(path)], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_a_fifo_in_place_of_the_database_is_refused_without_waiting(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    os.mkfifo(path)
    assert _open_in_child(path) == (
        f"Could not open the conversations: {path}: not a regular file (a FIFO); move it away and start Parley again."
    )
    assert stat.S_ISFIFO(os.lstat(path).st_mode)  # left where it is


@pytest.mark.parametrize("suffix", ["-wal", "-journal"])
def test_a_fifo_in_place_of_sqlites_own_files_is_refused_without_waiting(tmp_path, suffix):
    path = tmp_path / "conversations.sqlite3"
    _saved_database(path)
    os.mkfifo(f"{path}{suffix}")
    assert _open_in_child(path) == (
        f"Could not open the conversations: {path}{suffix} is not SQLite's own "
        "file (a FIFO); move it away and start Parley again."
    )


def test_a_link_in_place_of_sqlites_own_file_is_never_written_through(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    _saved_database(path)
    victim = tmp_path / "someone-elses-file.txt"
    victim.write_text("precious")
    os.symlink(victim, f"{path}-wal")
    with pytest.raises(StoreError, match="-wal is not SQLite's own file \\(a symbolic link\\)"):
        Store(path)
    assert victim.read_text() == "precious"


def test_a_loop_of_links_in_place_of_the_database_is_refused(tmp_path):
    path = tmp_path / "conversations.sqlite3"
    os.symlink(tmp_path / "other", path)
    os.symlink(path, tmp_path / "other")
    with pytest.raises(StoreError, match="a loop of symbolic links; move it away"):
        Store(path)


def test_a_link_to_a_database_elsewhere_is_followed(tmp_path):
    """A user may keep the database elsewhere (a synced folder) and link to it."""
    elsewhere = tmp_path / "synced" / "conversations.sqlite3"
    elsewhere.parent.mkdir()
    _saved_database(elsewhere)
    path = tmp_path / "data" / "conversations.sqlite3"
    path.parent.mkdir()
    os.symlink(elsewhere, path)
    store = Store(path)
    assert store.problem is None and [c.title for c in store.list_conversations()] == ["Kept"]
    store.close()


def test_a_read_only_database_file_is_shown_but_not_written(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="parley-read-only-"))  # one that ``nobody`` may write in
    try:
        folder.chmod(0o777)
        path = folder / "conversations.sqlite3"
        _saved_database(path)
        path.chmod(0o444)
        Path(f"{path}.lock").unlink()  # root's, from writing it: not nobody's
        contents = path.read_bytes()
        with without_root():
            store = Store(path)
            try:
                assert store.read_only
                assert store.problem == (
                    f"Conversations are shown but not saved: the database file is read-only "
                    f"({path}); make it writable and restart Parley."
                )
                [c] = store.list_conversations()
                assert len(store.load_conversation(c.id).messages) == 200
                with pytest.raises(StoreError, match="read-only"):
                    store.add_message(c.id, "user", "not saved")
            finally:
                store.close()
        assert path.read_bytes() == contents
    finally:
        shutil.rmtree(folder)


# ------------------------------------------------------------------ what the user sees


def _start_app(qtbot, monkeypatch, data, tiny_chat_model):
    """The app's own start-up (``start_controller`` opens the user's store), in a real window."""
    monkeypatch.setenv("PARLEY_DATA_DIR", str(data))
    window = create_window()
    qtbot.addWidget(window)
    controller = start_controller(window, settings=Settings(**tiny_settings(tiny_chat_model)))
    qtbot.waitUntil(lambda: controller.chat.model is not None and idle(controller), timeout=LOAD_TIMEOUT_MS)
    return window, controller


def test_the_app_shows_a_newer_database_and_says_why_nothing_is_saved(qtbot, monkeypatch, tmp_path, tiny_chat_model):
    path = tmp_path / "data" / "conversations.sqlite3"
    path.parent.mkdir()
    _newer_database(path)
    contents = path.read_bytes()
    window, controller = _start_app(qtbot, monkeypatch, tmp_path / "data", tiny_chat_model)
    assert window.notice.isVisible()
    assert window.notice.label.text().startswith(
        "Conversations are shown but not saved: they were saved by a newer Parley (database version 3"
    )
    assert window.conversation_list.item(0).text() == "From the future"
    assert [w.text for w in window.conversation_view.messages] == ["hello from a newer Parley"]
    window.close()
    assert path.read_bytes() == contents


def test_the_app_started_twice_shows_the_history_read_only_in_the_second(qtbot, monkeypatch, holder, tiny_chat_model):
    _proc, path = holder
    window, controller = _start_app(qtbot, monkeypatch, path.parent, tiny_chat_model)
    assert "another Parley is using them; close it and restart this Parley." in window.notice.label.text()
    assert window.conversation_list.item(0).text() == "Held"
    assert [w.text for w in window.conversation_view.messages][0] == "Tell me a story"
    window.close()


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_a_full_disk_at_start_shows_the_history_read_only(tmp_path):
    """SQLite cannot create its shared-memory file: the history is still shown, and the next
    start with space freed saves again."""
    disk, report = _on_a_tiny_disk(
        tmp_path,
        """
        path = disk / "conversations.sqlite3"
        store = Store(path)
        c = store.create_conversation("Kept")
        store.add_message(c.id, "user", "saved before the disk filled up")
        store.close()
        fill()
        store = Store(path)
        report["full"] = {"read_only": store.read_only, "problem": store.problem, "shown": contents(store, c.id)}
        store.close()
        os.remove(disk / "filler")
        store = Store(path)
        report["freed"] = {"read_only": store.read_only}
        store.add_message(c.id, "assistant", "saved again")
        report["freed"]["shown"] = contents(store, c.id)
        store.close()
        """,
    )
    assert report["full"] == {
        "read_only": True,
        "problem": (
            f"Conversations are shown but not saved: the disk is full ({disk}); free some space and restart Parley."
        ),
        "shown": ["saved before the disk filled up"],
    }
    assert report["freed"] == {"read_only": False, "shown": ["saved before the disk filled up", "saved again"]}
