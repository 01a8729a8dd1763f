"""``parley docs``: the collections of documents Parley answers from (``parley chat --docs NAME``).

``add PATH [--name NAME]`` adds a folder or a file to a collection (made when new) and indexes it;
``list`` names the collections (``list NAME`` their files, each file that could not be read with
its reason); ``update [NAME]`` reads what changed since; ``remove NAME`` forgets a collection (the
files themselves are never touched).  Indexing shows its progress on stderr; Ctrl-C stops it, and
the next ``update`` goes on from where it stopped.
"""

from __future__ import annotations

import argparse
import sys

from ..engine.documents.grounding import NOT_FROM_THEM, Grounding, cited, supported
from ..engine.documents.index import Collection
from ..engine.documents.indexing import Progress, UpdateSummary
from ..engine.documents.store import DocumentStore


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("docs", help="collections of your documents that chat answers from")
    docs = p.add_subparsers(dest="docs_command", metavar="ACTION", required=True)
    add = docs.add_parser("add", help="add a folder or file to a collection, and index it")
    add.add_argument("path", help="a folder (everything in it Parley can read) or one file")
    add.add_argument("--name", default=None, help="the collection (default: the folder's or file's name)")
    show = docs.add_parser("list", help="the collections, or one collection's files")
    show.add_argument("name", nargs="?", default=None, help="list this collection's files")
    update = docs.add_parser("update", help="read new and changed files, drop deleted ones")
    update.add_argument("name", nargs="?", default=None, help="only this collection (default: all)")
    remove = docs.add_parser("remove", help="forget a collection (your files are not touched)")
    remove.add_argument("name")


def run(args: argparse.Namespace) -> int:
    with DocumentStore(progress=_show_progress if sys.stderr.isatty() else None) as store:
        if args.docs_command == "add":
            name = store.add(args.path, args.name)
            print(f"added {args.path} to the collection {name!r}; indexing", file=sys.stderr)
            return _update(store, name)
        if args.docs_command == "update":
            return _update(store, args.name)
        if args.docs_command == "remove":
            store.remove(args.name)
            print(f"removed the collection {args.name!r} (your files were not touched)")
            return 0
        if args.name is None:
            collections = store.collections()
            for collection in collections:
                print(_collection_line(collection))
            if not collections:
                print("no collections yet: add one with `parley docs add FOLDER`", file=sys.stderr)
            return 0
        collection = store.collection(args.name)
        print(_collection_line(collection))
        for source in collection.sources:
            print(f"  source {source.path}" + (f": {source.note}" if source.note else ""))
        for record in store.files(args.name):
            what = f"{record.passages} passages" if record.state == "indexed" else f"not read: {record.note}"
            print(f"  {record.path}: {what}")
        return 0


def _update(store: DocumentStore, name: str | None) -> int:
    try:
        summaries = store.update(name)
    except KeyboardInterrupt:
        print("\nstopped: `parley docs update` goes on from here", file=sys.stderr)
        return 130
    for summary in summaries:
        print(_summary_line(summary))
    return 0


def _collection_line(collection: Collection) -> str:
    failed = f", {collection.failed} not read" if collection.failed else ""
    return (
        f"{collection.name}: {collection.indexed} files, {collection.pages} pages, {collection.passages} passages"
        f"{failed} ({len(collection.sources)} source{'s' if len(collection.sources) != 1 else ''})"
    )


def _summary_line(summary: UpdateSummary) -> str:
    failed = f" ({summary.failed} could not be read: `parley docs list {summary.collection}`)" if summary.failed else ""
    return (
        f"{summary.collection}: {summary.read} files read{failed}, {summary.unchanged} unchanged, "
        f"{summary.removed} removed; {summary.passages} passages in {summary.seconds:.1f} s"
    )


def _show_progress(progress: Progress) -> None:
    if progress.current:
        line = f"\r{progress.collection}: {progress.done}/{progress.to_do} {progress.current[-60:]}"
        sys.stderr.write(line.ljust(100)[:100])
    else:
        sys.stderr.write("\r" + " " * 100 + "\r")
    sys.stderr.flush()


def print_sources(reply: str, grounding: Grounding) -> None:
    """After an answer from documents: the sources it names, one a line, numbered as it names them;
    or that it is not from the documents."""
    if not supported(reply, grounding):
        print(f"({NOT_FROM_THEM})")
        return
    sources = cited(reply, grounding)
    if sources:
        print("sources:")
    for source in sources:
        print(f"  [{grounding.sources.index(source) + 1}] {source.written()}  ({source.path})")
