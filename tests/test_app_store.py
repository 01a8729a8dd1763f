"""The conversation store: round trip, WAL, partial replies, search, export, and a full disk."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import uuid

import pytest

from parley.app.store import Store, StoreError, data_dir
from tests.requirements import require


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
        ("user", "Where should I go?", True), ("assistant", "Try **Lisbon**.", True)]
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
    assert store._conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0   # cascaded


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
    assert [(m.role, m.content, m.state) for m in messages] == [("user", "hi", "complete"),
                                                                ("assistant", "hel", "stopped")]
    assert messages[1].stats == {"finish": "cancelled"}
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == 2
    store.close()


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]", "\"text\""])
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
    assert [c.id for c in store.search("dinner")] == [pasta.id]          # title, any case
    assert [c.id for c in store.search("RECIPE")] == [pasta.id]          # content
    assert [c.id for c in store.search("100%")] == [pasta.id]            # % is literal
    assert [c.id for c in store.search("e_c")] == [code.id]              # _ is literal
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


def test_read_only_database_is_explained(store):
    c = store.create_conversation("c")
    store._conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="read-only"):
        store.add_message(c.id, "user", "hi")


@pytest.fixture
def tiny_disk(tmp_path):
    """A real 512 KiB file system; skipped where mounting is not permitted."""
    mount_point = tmp_path / "tiny"
    mount_point.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount_point)],
                            capture_output=True, text=True)
    require(result.returncode == 0, f"cannot mount a tmpfs here: {result.stderr.strip()}")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


def _fill(folder) -> None:
    """Write until the file system refuses even one more byte."""
    with open(folder / "filler", "wb", buffering=0) as f:
        for chunk in (65536, 4096, 512, 1):
            try:
                while True:
                    f.write(b"\0" * chunk)
            except OSError:
                pass


def test_disk_full_on_a_real_full_file_system(tiny_disk):
    store = Store(tiny_disk / "conversations.sqlite3")
    c = store.create_conversation("Kept")
    store.add_message(c.id, "user", "saved before the disk filled up")
    _fill(tiny_disk)
    big = uuid.uuid4().hex * 2000     # 64 KB that cannot compress away
    with pytest.raises(StoreError, match="disk is full"):
        store.add_message(c.id, "assistant", big)
    # Nothing half-written, and everything saved before is still there.
    assert [m.content for m in store.load_conversation(c.id).messages] == ["saved before the disk filled up"]
    os.remove(tiny_disk / "filler")
    store.add_message(c.id, "assistant", big)
    assert len(store.load_conversation(c.id).messages) == 2
    store.close()


def test_disk_full_when_the_database_reaches_its_page_limit(store):
    c = store.create_conversation("Kept")
    store.add_message(c.id, "user", "first")
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages + 1}")
    with pytest.raises(StoreError, match="disk is full") as info:
        store.add_message(c.id, "assistant", "x" * 200_000)
    assert isinstance(info.value.__cause__, sqlite3.OperationalError)
    assert [m.content for m in store.load_conversation(c.id).messages] == ["first"]
