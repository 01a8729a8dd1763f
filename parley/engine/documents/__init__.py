"""The user's own documents, for answers that name their sources: collections of folders and
files, read, cut into passages, embedded and kept in one SQLite index in Parley's data folder.

- ``reading``: one file to its text blocks with their place (page, heading, lines), bounded;
  ``reader_process``: the formats whose libraries parse untrusted binary layouts read in a child
  process with a time and memory limit;
- ``chunking``: blocks cut into passages along paragraphs and sentences;
- ``index``: the SQLite store (collections, their sources and files, passages with FTS5 keyword
  search and their vectors);
- ``indexing``: bringing a collection up to date in the background (only changed files read
  again, deleted ones dropped, progress, pause, resume after a crash);
- ``search``: keyword, vector and the two fused by reciprocal rank;
- ``grounding``: the passages (or whole documents that fit) put before a question, and the
  sources a reply names.

The user's files are only ever read.  Imports ``chat`` (the embedding model), ``library`` (the
pinned embedding model's file), ``backend.cancel`` and the ground modules."""
