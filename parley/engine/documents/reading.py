"""One of the user's documents read as text blocks, each with its place in the file, bounded.

The folders a user points Parley at hold anything: a text file of gigabytes, a binary named
``.txt``, a FIFO, a link to ``/dev/zero``, a DOCX whose zip expands to terabytes, a PDF whose
streams inflate a thousandfold.  Every read here is bounded before a library sees the file: it is
opened as a regular file only (``untrusted.open_regular``), its size is capped per kind, a zip's
central directory is checked and its members are read by our own bounded reads (the libraries get
a copy in memory with the XML parts only), pypdf's decompression limits are set, and the text kept
is capped at ``MAX_CHARACTERS`` (past it the rest is left out, not refused).  What no bound here
catches (a library's runaway time or memory, a crash in native code) is ``reader_process``'s job:
it runs ``read_document`` in a child process.

Plain text, Markdown and code are read by our own code, HTML by the standard library's
``html.parser``, PDF by pypdf, DOCX by python-docx, ODT by odfdo, EPUB by ``zipfile`` and
``xml.etree`` (EbookLib is AGPL) with each chapter through the same HTML reader.  The format
libraries are imported when a file of theirs is read, so a process that reads only text (or only
asks ``kind_of``) never loads them.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import io
import os
import posixpath
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import unquote
from xml.etree import ElementTree

from ..errors import DocumentError as DocumentError, UntrustedFileError
from ..untrusted import open_regular

if TYPE_CHECKING:
    import odfdo
    import pypdf

MAX_TEXT_BYTES = 50 << 20  # text, Markdown, code, HTML: a larger one is a log or a dump
MAX_PACKAGE_BYTES = 500 << 20  # PDF, DOCX, ODT, EPUB: their images make them large
MAX_CHARACTERS = 20_000_000  # text kept from one document: about 7,000 pages
MAX_MEMBERS = 10_000  # files in a DOCX, ODT or EPUB
MAX_EXPANDED = 200 << 20  # what a DOCX, ODT or EPUB may expand to, all members together
MAX_RATIO = 200  # the compression a member above RATIO_FROM may have
RATIO_FROM = 1 << 20
PDF_STREAM_BYTES = 32 << 20  # a PDF stream decompressed: a page's text needs far less
CODE_LINES = 60  # lines of source code in one block, cut at a blank line near there
CHARACTERS_PER_PAGE = 3000  # the page estimate of formats without pages
PLACE_SEPARATOR = " › "
_SNIFF_BYTES = 64 << 10  # looked at for binary content
_GUESS_BYTES = 1 << 20  # given to charset_normalizer to guess an encoding from
_MAX_TITLE = 300

_CODE = (
    ".py .pyi .js .mjs .cjs .jsx .ts .tsx .c .h .cc .cpp .cxx .hpp .hh .hxx .m .mm .rs .go .java .kt .kts "
    ".scala .groovy .gradle .rb .php .pl .pm .lua .r .jl .dart .cs .fs .vb .swift .sh .bash .zsh .fish .ps1 "
    ".bat .cmd .sql .css .scss .sass .less .vue .svelte .toml .yaml .yml .json .jsonc .xml .ini .cfg .conf "
    ".properties .cmake .mk .proto .graphql .hs .ml .ex .exs .erl .clj .el .vim .zig .nim .asm .s .f90 .diff .patch"
)
SUFFIXES: dict[str, str] = {
    **dict.fromkeys(".txt .text .rst .log .csv .tsv .tex .org .adoc .asciidoc".split(), "text"),
    **dict.fromkeys(".md .markdown .mdown .mkd".split(), "markdown"),
    **dict.fromkeys(".html .htm .xhtml".split(), "html"),
    ".pdf": "pdf",
    ".docx": "docx",
    ".odt": "odt",
    ".epub": "epub",
    **dict.fromkeys(_CODE.split(), "code"),
}


@dataclasses.dataclass(frozen=True)
class Block:
    """A stretch of a document's text with its place in the file.

    ``text``: paragraphs separated by a blank line, whitespace inside a paragraph collapsed to
    single spaces (code, and HTML's ``<pre>``, keep their lines).  ``place``: for a person: "page 3"
    (PDF), the heading path "Installation › Windows" (Markdown, HTML, DOCX, ODT; EPUB starts with
    the chapter's title), "lines 120-180" (code), "" where the file has no structure (plain text).
    """

    text: str
    place: str


@dataclasses.dataclass(frozen=True)
class Document:
    """A document's own title (else its file name's stem), its blocks in reading order, and its
    pages: a PDF's own, else an estimate, ``CHARACTERS_PER_PAGE`` characters a page."""

    title: str
    blocks: list[Block]
    pages: int


def kind_of(path: Path) -> str | None:
    """The kind of document ``path`` is by its suffix; None where it is none Parley reads."""
    return SUFFIXES.get(path.suffix.lower())


def read_document(path: Path) -> Document:
    """``path`` read in this process, within the bounds above; DocumentError with the reason."""
    kind = kind_of(path)
    if kind is None:
        raise DocumentError("not a kind of document Parley reads")
    try:
        fd = open_regular(path)
    except UntrustedFileError as exc:
        raise DocumentError(str(exc).removeprefix(f"{path}: ")) from None
    found = _Found()
    with os.fdopen(fd, "rb") as file:
        before = os.fstat(fd)
        limit = MAX_TEXT_BYTES if kind in _TEXT_READERS else MAX_PACKAGE_BYTES
        if before.st_size > limit:
            raise DocumentError(f"larger than {limit >> 20} MB")
        try:
            if kind in _TEXT_READERS:
                _TEXT_READERS[kind](_decode(_read_all(file, before.st_size)), found)
            else:
                _PACKAGE_READERS[kind](file, found)
            after = os.fstat(fd)
        except OSError as exc:
            raise DocumentError(f"could not be read: {exc.strerror or exc}") from None
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        raise DocumentError("the file changed while it was read")
    pages = found.pages or found.characters // CHARACTERS_PER_PAGE + 1
    return Document(found.title or path.stem, found.blocks, pages)


# --------------------------------------------------------------------------- what a reader finds


_WHITESPACE = re.compile(r"\s")
_PIECE = 1 << 20


class _Found:
    """The blocks a reader found (their text capped at ``MAX_CHARACTERS`` in all), the title it
    found first, and a PDF's pages."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.characters = 0
        self.title = ""
        self.pages = 0

    @property
    def full(self) -> bool:
        return self.characters >= MAX_CHARACTERS

    def add(self, paragraphs: Iterable[str], place: str) -> None:
        """A block of ``paragraphs`` (empty ones left out), taken only as far as the cap."""
        room = MAX_CHARACTERS - self.characters
        kept, length = [], 0
        for paragraph in paragraphs:
            if length >= room:
                break
            if paragraph:
                kept.append(paragraph)
                length += len(paragraph) + 2
        text = "\n\n".join(kept)[:room]
        if text:
            self.blocks.append(Block(text, place))
            self.characters += len(text)

    def offer_title(self, title: str | None) -> None:
        """Keep ``title`` unless one was found before (readers offer the best one first)."""
        if not self.title and title:
            self.title = _collapse(title)[:_MAX_TITLE]


class _Sections:
    """Paragraphs gathered under the headings they follow: a heading ends one block and starts
    the next, under the path of headings above it.  ``prefix`` leads every path (an EPUB's
    chapter title); ``titled``: the first level-1 heading is offered as the document's title."""

    def __init__(self, found: _Found, *, titled: bool, prefix: str = "") -> None:
        self.prefix = prefix
        self._found = found
        self._titled = titled
        self._path: list[tuple[int, str]] = []
        self._paragraphs: list[str] = []
        self._pending = 0

    def heading(self, level: int, text: str) -> None:
        text = _collapse(text)
        if not text:
            return
        self.flush()
        while self._path and self._path[-1][0] >= level:
            self._path.pop()
        self._path.append((level, text))
        if self._titled and level == 1:
            self._found.offer_title(text)
        self.paragraph(text)

    def paragraph(self, text: str, *, keep_lines: bool = False) -> None:
        text = _keep_lines(text) if keep_lines else _collapse(text)
        if text:
            self._paragraphs.append(text)
            self._pending += len(text) + 2
            if self._found.characters + self._pending >= MAX_CHARACTERS:
                self.flush()

    def flush(self) -> None:
        names = [name for _, name in self._path]
        if self.prefix and names[:1] != [self.prefix]:
            names.insert(0, self.prefix)
        self._found.add(self._paragraphs, PLACE_SEPARATOR.join(names))
        self._paragraphs, self._pending = [], 0


def _collapse(text: str) -> str:
    """``text`` with each run of whitespace made one space, a piece of about a megabyte at a time
    (cut at whitespace): the list of words ``split`` makes takes some 15 times their text."""
    pieces, start = [], 0
    while start < len(text):
        cut = _WHITESPACE.search(text, start + _PIECE)
        end = cut.start() if cut else len(text)
        pieces.append(" ".join(text[start:end].split()))
        start = end
    return " ".join(piece for piece in pieces if piece)


def _paragraphs(text: str) -> Iterator[str]:
    """The paragraphs of plain text (apart at blank lines), collapsed, one at a time."""
    start = 0
    for blank in _BLANK_LINE.finditer(text):
        yield _collapse(text[start : blank.start()])
        start = blank.end()
    yield _collapse(text[start:])


def _keep_lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


@contextlib.contextmanager
def _damaged(what: str) -> Iterator[None]:
    """A library's failure on the file as "a damaged <what>: <its reason>"; our own refusals, a
    MemoryError (the reader process reports it) and the file's OSError go through as they are."""
    try:
        yield
    except (DocumentError, MemoryError, OSError):
        raise
    except Exception as exc:
        raise DocumentError(f"a damaged {what}: {_first_line(exc)}") from None


# --------------------------------------------------------------------------- text, Markdown, code

_BLANK_LINE = re.compile(r"\n[ \t\f\v]*\n")
_CONTROLS = bytes(set(range(32)) - set(b"\t\n\f\r\x1b"))
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_:.-]+)""", re.IGNORECASE)


def _read_all(file: BinaryIO, size: int) -> bytes:
    data = file.read(size + 1)
    if len(data) != size:
        raise DocumentError("the file changed while it was read")
    return data


def _decode(data: bytes) -> str:
    """Text from bytes: a BOM's encoding, else UTF-8, else an HTML page's declared charset, else
    charset_normalizer's guess where it is installed (requests brings it), else cp1252; newlines
    made ``\\n``.  Binary content is refused: NUL bytes, or more than a tenth control characters."""
    if data.startswith(codecs.BOM_UTF8):
        text = data[len(codecs.BOM_UTF8) :].decode("utf-8", "replace")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", "replace")
    else:
        sample = data[:_SNIFF_BYTES]
        if b"\0" in sample or 10 * (len(sample) - len(sample.translate(None, _CONTROLS))) > len(sample):
            raise DocumentError("not text (binary content)")
        text = _decode_unmarked(data)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decode_unmarked(data: bytes) -> str:
    with contextlib.suppress(UnicodeDecodeError):
        return data.decode("utf-8")
    declared = _META_CHARSET.search(data[:4096])
    for encoding in (declared.group(1).decode("ascii") if declared else None, _guess_encoding(data)):
        if encoding:
            with contextlib.suppress(LookupError):
                return data.decode(encoding, "replace")
    return data.decode("cp1252", "replace")


def _guess_encoding(data: bytes) -> str | None:
    """charset_normalizer's guess, but cp1252 where that reads nearly as cleanly: it often takes
    Western European text for a Baltic or Central European code page, which differ in a few letters."""
    try:
        import charset_normalizer
    except ImportError:
        return None
    matches = charset_normalizer.from_bytes(data[:_GUESS_BYTES])
    best = matches.best()
    if best is None:
        return None
    western = [m for m in matches if "cp1252" in m.could_be_from_charset]
    return "cp1252" if western and western[0].chaos <= best.chaos + 0.1 else best.encoding


def _read_text(text: str, found: _Found) -> None:
    found.add(_paragraphs(text), "")


_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_FENCE = re.compile(r" {0,3}(```|~~~)")
_FRONT_MATTER = re.compile(r"---\n(.*?)\n(?:---|\.\.\.)\n", re.DOTALL)


def _read_markdown(text: str, found: _Found) -> None:
    """ATX (``#``) and setext (underlined) headings give the place; fenced code keeps its lines."""
    sections = _Sections(found, titled=True)
    front_matter = _FRONT_MATTER.match(text)
    if front_matter:  # YAML between "---" lines, which would read as a setext heading
        sections.paragraph(front_matter.group(1))
        text = text[front_matter.end() :]
    lines: list[str] = []
    fence = ""
    for line in text.split("\n"):
        if found.full:
            break
        opening = _FENCE.match(line)
        if fence:
            if line.strip().startswith(fence):
                sections.paragraph("\n".join(lines), keep_lines=True)
                lines, fence = [], ""
            else:
                lines.append(line)
        elif opening:
            sections.paragraph(" ".join(lines))
            lines, fence = [], opening.group(1)
        elif heading := _ATX.fullmatch(line):
            sections.paragraph(" ".join(lines))
            lines = []
            sections.heading(len(heading.group(1)), heading.group(2) or "")
        elif (underline := _SETEXT.fullmatch(line)) and lines:
            sections.heading(1 if underline.group(1)[0] == "=" else 2, " ".join(lines))
            lines = []
        elif not line.strip() or underline:  # a blank line, or a rule (``---``) after one
            sections.paragraph(" ".join(lines))
            lines = []
        else:
            lines.append(line)
    sections.paragraph("\n".join(lines), keep_lines=bool(fence))
    sections.flush()


def _read_code(text: str, found: _Found) -> None:
    """Blocks of about ``CODE_LINES`` lines, each cut at the blank line nearest that length within
    a third of it, placed by their first and last lines with text."""
    lines = [line.rstrip() for line in text.split("\n")]
    start = 0
    while start < len(lines) and not found.full:
        end = start + CODE_LINES
        if end < len(lines):
            window = range(start + 2 * CODE_LINES // 3, min(len(lines), start + 4 * CODE_LINES // 3))
            blanks = [i for i in window if not lines[i]]
            end = min(blanks, key=lambda i: abs(i - (start + CODE_LINES))) + 1 if blanks else end
        written = [i for i in range(start, min(end, len(lines))) if lines[i]]
        if written:
            first, last = written[0], written[-1]
            found.add(["\n".join(lines[first : last + 1])], f"lines {first + 1}-{last + 1}")
        start = end


# --------------------------------------------------------------------------- HTML

_SKIPPED = frozenset({"script", "style", "nav", "head", "noscript", "template", "svg"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = frozenset(
    "p div br hr li ul ol dl dt dd tr table thead tbody tfoot caption blockquote pre section article "
    "aside header footer main figure figcaption form fieldset address details summary body".split()
)


class _HtmlReader(HTMLParser):
    """An HTML page's text into ``sections``: block elements end paragraphs, headings start
    sections, script, style, navigation and the head are skipped.  ``title`` is the first
    ``<title>``'s text; with ``chapter_of`` (an EPUB's book title) a chapter's own title, where it
    is not the book's, leads every place."""

    def __init__(self, sections: _Sections, *, chapter_of: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self._sections = sections
        self._chapter_of = chapter_of
        self._in_title = self._seen_title = False
        self._skipping = self._pre = self._heading = 0
        self._title: list[str] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and not self._seen_title:
            self._in_title = self._seen_title = True
        elif tag == "body":
            self._skipping = 0  # a head that was never closed
        if tag in _SKIPPED:
            self._skipping += 1
        elif self._skipping:
            return
        elif tag in _HEADINGS:
            self._end_paragraph()
            self._heading = _HEADINGS[tag]
        elif tag in ("td", "th"):
            self._text.append(" ")
        elif tag in _BLOCKS:
            self._end_paragraph()
            if tag == "pre":
                self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._in_title:
            self._in_title = False
            self.title = _collapse("".join(self._title))
            if self._chapter_of is not None and self.title != self._chapter_of:
                self._sections.prefix = self.title
        elif tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        elif self._skipping:
            return
        elif tag in _HEADINGS and self._heading:
            self._sections.heading(self._heading, "".join(self._text))
            self._text, self._heading = [], 0
        elif tag in _BLOCKS:
            self._end_paragraph()
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title.append(data)
        elif not self._skipping:
            self._text.append(data)

    def close(self) -> None:
        super().close()
        self._heading = 0
        self._end_paragraph()
        self._sections.flush()

    def _end_paragraph(self) -> None:
        if not self._heading:  # a block inside a heading is part of it
            self._sections.paragraph("".join(self._text), keep_lines=self._pre > 0)
            self._text = []


def _read_html(text: str, found: _Found) -> None:
    reader = _HtmlReader(_Sections(found, titled=True))
    reader.feed(text)
    reader.close()
    if reader.title:  # the page's <title> before its first heading
        found.title = reader.title[:_MAX_TITLE]


_TEXT_READERS: dict[str, Callable[[str, _Found], None]] = {
    "text": _read_text,
    "markdown": _read_markdown,
    "code": _read_code,
    "html": _read_html,
}


# --------------------------------------------------------------------------- zip archives


class _Archive:
    """A DOCX, ODT or EPUB whose central directory passed the checks against zip bombs (at most
    ``MAX_MEMBERS`` members, ``MAX_EXPANDED`` declared in all, no member above ``RATIO_FROM``
    compressed more than ``MAX_RATIO``:1), its members read in pieces within ``MAX_EXPANDED`` in
    all whatever sizes they declare."""

    def __init__(self, file: BinaryIO) -> None:
        self._zip = zipfile.ZipFile(file)
        self.members = self._zip.infolist()
        if len(self.members) > MAX_MEMBERS:
            raise DocumentError(f"the archive holds more than {MAX_MEMBERS:,} files")
        if sum(m.file_size for m in self.members) > MAX_EXPANDED:
            raise DocumentError(f"the archive would expand to more than {MAX_EXPANDED >> 20} MB (a zip bomb?)")
        if any(m.file_size > RATIO_FROM and m.file_size > MAX_RATIO * m.compress_size for m in self.members):
            raise DocumentError(f"a file in the archive is compressed more than {MAX_RATIO}:1 (a zip bomb?)")
        self._left = MAX_EXPANDED

    def read(self, member: str | zipfile.ZipInfo) -> bytes:
        chunks = []
        with self._zip.open(member) as stream:
            while chunk := stream.read(1 << 20):
                self._left -= len(chunk)
                if self._left < 0:
                    raise DocumentError(f"the archive would expand to more than {MAX_EXPANDED >> 20} MB (a zip bomb?)")
                chunks.append(chunk)
        return b"".join(chunks)

    def copy(self, keep: Callable[[str], bool]) -> io.BytesIO:
        """The archive again, in memory, with the members ``keep`` names and the others empty: what
        a library opens, so it reads nothing we have not read within the bounds."""
        copied = io.BytesIO()
        with zipfile.ZipFile(copied, "w", zipfile.ZIP_STORED) as target:
            for member in self.members:
                if not member.is_dir():
                    target.writestr(member.filename, self.read(member) if keep(member.filename) else b"")
        copied.seek(0)
        return copied


def _is_xml_part(name: str) -> bool:
    return name.lower().endswith((".xml", ".rels")) or name == "mimetype"


# --------------------------------------------------------------------------- PDF


def _read_pdf(file: BinaryIO, found: _Found) -> None:
    """A block per page, placed "page N"; the title from the metadata.  An encrypted PDF is tried
    with the empty password, which opens many."""
    import pypdf
    from pypdf.errors import LimitReachedError

    limits = pypdf.get_configuration().with_overwrites(
        zlib_maximum_output_length=PDF_STREAM_BYTES,
        lzw_maximum_output_length=PDF_STREAM_BYTES,
        run_length_maximum_output_length=PDF_STREAM_BYTES,
        array_based_stream_maximum_output_length=PDF_STREAM_BYTES,
    )
    with _damaged("PDF"), pypdf.apply_configuration(limits):
        reader = pypdf.PdfReader(file)
        if reader.is_encrypted and not _unlocked(reader):
            raise DocumentError("an encrypted PDF: Parley cannot read it")
        found.pages = len(reader.pages)
        if reader.metadata is not None:
            found.offer_title(reader.metadata.title)
        try:
            for number, page in enumerate(reader.pages, 1):
                found.add(_paragraphs(page.extract_text()), f"page {number}")
                if found.full:
                    break
        except LimitReachedError as exc:
            raise DocumentError(f"a PDF whose content would expand too far (a PDF bomb?): {_first_line(exc)}") from None


def _unlocked(reader: pypdf.PdfReader) -> bool:
    import pypdf
    from pypdf.errors import DependencyError

    try:
        return reader.decrypt("") != pypdf.PasswordType.NOT_DECRYPTED
    except (DependencyError, NotImplementedError):  # a cipher pypdf cannot use here
        return False


# --------------------------------------------------------------------------- DOCX and ODT


def _read_docx(file: BinaryIO, found: _Found) -> None:
    """Headings by paragraph style ("Heading 1" to "Heading 9") give the place; a "Title"
    paragraph is the title where the metadata has none; a table gives a paragraph per row."""
    import docx
    from docx.table import Table

    with _damaged("DOCX"):
        document = docx.Document(_Archive(file).copy(_is_xml_part))
        found.offer_title(document.core_properties.title)
        sections = _Sections(found, titled=True)
        for item in document.iter_inner_content():
            if isinstance(item, Table):
                for row in item.rows:
                    cells = [_collapse(cell.text) for cell in row.cells]
                    merged = [text for i, text in enumerate(cells) if text and (i == 0 or text != cells[i - 1])]
                    sections.paragraph(" | ".join(merged))  # a merged cell is given once for each column
                continue
            style = item.style.name if item.style is not None else ""
            level = re.fullmatch(r"Heading ([1-9])", style or "")
            if level:
                sections.heading(int(level.group(1)), item.text)
            else:
                if style == "Title":
                    found.offer_title(item.text)
                sections.paragraph(item.text)
            if found.full:
                break
        sections.flush()


_ODT_LEFT_OUT = frozenset(
    {"text:tracked-changes", "text:table-of-content", "text:sequence-decls", "text:variable-decls", "office:forms"}
)


def _read_odt(file: BinaryIO, found: _Found) -> None:
    """Headings (``text:h`` with their outline level) give the place; a table gives a paragraph per row."""
    import odfdo

    with _damaged("ODT"):
        document = odfdo.Document(_Archive(file).copy(_is_xml_part))
        found.offer_title(document.meta.title)
        sections = _Sections(found, titled=True)
        _walk_odt(document.body, sections, found)
        sections.flush()


def _walk_odt(element: odfdo.Element, sections: _Sections, found: _Found) -> None:
    for child in element.children:
        if found.full:
            return
        if child.tag == "text:h":
            sections.heading(child.get_attribute_integer("text:outline-level") or 1, child.inner_text)
        elif child.tag == "text:p":
            sections.paragraph(child.inner_text)
        elif child.tag == "table:table-row":
            cells = (_collapse(cell.inner_text) for cell in child.children if cell.tag == "table:table-cell")
            sections.paragraph(" | ".join(text for text in cells if text))
        elif child.tag not in _ODT_LEFT_OUT:
            _walk_odt(child, sections, found)


# --------------------------------------------------------------------------- EPUB


def _read_epub(file: BinaryIO, found: _Found) -> None:
    """The spine's chapters in order through the HTML reader, each place led by the chapter's
    title (its ``<title>`` where that is not the book's, else its headings); the title from
    ``dc:title``."""
    with _damaged("EPUB"):
        archive = _Archive(file)
        container = ElementTree.fromstring(archive.read("META-INF/container.xml"))
        package_path = next((e.get("full-path") for e in container.iter() if _local(e.tag) == "rootfile"), None)
        if not package_path:
            raise DocumentError("a damaged EPUB: META-INF/container.xml names no package file")
        package = ElementTree.fromstring(archive.read(package_path))
        found.offer_title(next((e.text for e in package.iter() if _local(e.tag) == "title"), None))
        items = {e.get("id"): e for e in package.iter() if _local(e.tag) == "item"}
        folder = posixpath.dirname(package_path)
        for reference in (e for e in package.iter() if _local(e.tag) == "itemref"):
            item = items.get(reference.get("idref"))
            if item is None or item.get("media-type") not in ("application/xhtml+xml", "text/html"):
                continue
            href = unquote(item.get("href", "").partition("#")[0])
            chapter = _decode(archive.read(posixpath.normpath(posixpath.join(folder, href))))
            reader = _HtmlReader(_Sections(found, titled=False), chapter_of=found.title)
            reader.feed(chapter)
            reader.close()
            if found.full:
                break


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


_PACKAGE_READERS: dict[str, Callable[[BinaryIO, _Found], None]] = {
    "pdf": _read_pdf,
    "docx": _read_docx,
    "odt": _read_odt,
    "epub": _read_epub,
}
