#!/usr/bin/env python3
"""The document set of ``bench_docs.py`` ("ask Parley about your own files"): pages of the Python
3.11 documentation converted into plain text, Markdown, HTML, PDF, DOCX, ODT and EPUB, and a few
of the standard library's own source files, built into a folder at bench time.

The texts come from Debian's packages, never from the repository: the documentation's HTML from
``python3.11-doc`` (``apt-get install python3.11-doc``: ``/usr/share/doc/python3.11/html``) and
the sources from ``libpython3.11-minimal`` and ``libpython3.11-stdlib`` (``/usr/lib/python3.11``).
Both are under the PSF License Version 2 (the documentation's code examples also under the
Zero-Clause BSD licence); the licence (``/usr/lib/python3.11/LICENSE.txt``) is copied into the set
as ``LICENSE.txt``, which is not one of its documents.  The set: 31 files, about 1 MB, over 400
pages, built in seconds.

Each page is read into blocks (headings, paragraphs, list items, code, table rows) by a small
``html.parser`` reader of the Sphinx body, and written by one writer per format: plain text
(wrapped at 78 columns) and Markdown by hand; HTML as a clean page; DOCX with python-docx
(headings in the Heading styles); ODT with odfdo (headings with outline levels); EPUB 3 with
``zipfile`` (container, an OPF with a spine, one XHTML chapter per page); PDF with fpdf2 (real
text in its core fonts, so typographic characters become their Latin-1 look-alikes, pages
broken as they fill, a footer on each).  The same packages and writers give the same set, byte for
byte: every date and zip time stamp is fixed.

``manifest.json`` lists each file: its format, its sources and its pages (a PDF's real pages;
for the other formats, and the sources, 3,000 characters of text a page).

    .venv/bin/python bench/docs_set.py OUT_DIR      # needs python3.11-doc; pip: python-docx odfdo fpdf2
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import html
import io
import json
import math
import shutil
import sys
import textwrap
import zipfile
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path

DOCS = Path("/usr/share/doc/python3.11/html")
STDLIB = Path("/usr/lib/python3.11")
LICENCE = STDLIB / "LICENSE.txt"
PAGE_CHARACTERS = 3000
WHEN = datetime.datetime(2023, 2, 8, 12, 0, tzinfo=datetime.timezone.utc)  # Python 3.11.2's release
ZIP_TIME = (2023, 2, 8, 12, 0, 0)

FORMATS = ("text", "markdown", "html", "pdf", "docx", "odt", "epub", "python")


@dataclasses.dataclass(frozen=True)
class Document:
    """A file of the set: its path in the set, its format and the documentation pages (paths
    under ``DOCS``) or the source file (a path under ``STDLIB``) it is made of; an EPUB's title."""

    path: str
    format: str
    sources: tuple[str, ...]
    title: str = ""


TUTORIAL = (
    "appetite interpreter introduction controlflow datastructures modules inputoutput errors classes stdlib stdlib2 "
    "venv whatnow interactive floatingpoint appendix"
).split()


DOCUMENTS: tuple[Document, ...] = (
    Document("text/glossary.txt", "text", ("glossary.html",)),
    Document("text/re.txt", "text", ("library/re.html",)),
    Document("text/json.txt", "text", ("library/json.html",)),
    Document("text/secrets.txt", "text", ("library/secrets.html",)),
    Document("text/zoneinfo.txt", "text", ("library/zoneinfo.html",)),
    Document("markdown/collections.md", "markdown", ("library/collections.html",)),
    Document("markdown/itertools.md", "markdown", ("library/itertools.html",)),
    Document("markdown/dataclasses.md", "markdown", ("library/dataclasses.html",)),
    Document("markdown/enum.md", "markdown", ("library/enum.html",)),
    Document("markdown/heapq.md", "markdown", ("library/heapq.html",)),
    Document("html/argparse.html", "html", ("library/argparse.html",)),
    Document("html/csv.html", "html", ("library/csv.html",)),
    Document("html/shutil.html", "html", ("library/shutil.html",)),
    Document("html/tomllib.html", "html", ("library/tomllib.html",)),
    Document("pdf/pathlib.pdf", "pdf", ("library/pathlib.html",)),
    Document("pdf/sqlite3.pdf", "pdf", ("library/sqlite3.html",)),
    Document("pdf/sorting-howto.pdf", "pdf", ("howto/sorting.html",)),
    Document("pdf/statistics.pdf", "pdf", ("library/statistics.html",)),
    Document("docx/logging.docx", "docx", ("library/logging.html",)),
    Document("docx/logging-howto.docx", "docx", ("howto/logging.html",)),
    Document("docx/functools.docx", "docx", ("library/functools.html",)),
    Document("docx/random.docx", "docx", ("library/random.html",)),
    Document("odt/whatsnew-3.11.odt", "odt", ("whatsnew/3.11.html",)),
    Document("odt/subprocess.odt", "odt", ("library/subprocess.html",)),
    Document("odt/zipfile.odt", "odt", ("library/zipfile.html",)),
    Document(
        "epub/python-tutorial.epub", "epub", tuple(f"tutorial/{name}.html" for name in TUTORIAL), "The Python Tutorial"
    ),
    Document("epub/python-faq.epub", "epub", ("faq/general.html", "faq/programming.html"), "Python FAQ"),
    Document("code/textwrap.py", "python", ("textwrap.py",)),
    Document("code/bisect.py", "python", ("bisect.py",)),
    Document("code/fnmatch.py", "python", ("fnmatch.py",)),
    Document("code/colorsys.py", "python", ("colorsys.py",)),
)

# --------------------------------------------------------------------------- reading the docs


@dataclasses.dataclass(frozen=True)
class Block:
    """A piece of a page: ``kind`` is "heading" (with its ``level``, 1 to 6), "paragraph",
    "item" (of a list), "term" (an API signature or a glossary term), "row" (of a table, its
    cells joined by " | ") or "code" (its lines kept)."""

    kind: str
    text: str
    level: int = 0


@dataclasses.dataclass(frozen=True)
class Page:
    """A page of the documentation: its blocks, the first its title (a level 1 heading)."""

    blocks: tuple[Block, ...]

    @property
    def title(self) -> str:
        return self.blocks[0].text

    def text(self) -> str:
        return "\n".join(block.text for block in self.blocks)


HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCK_TAGS = {
    *HEADINGS,
    *"p div section article aside ul ol li dl dt dd pre blockquote table thead tbody tr td th".split(),
    *"figure figcaption caption".split(),
}


class _SphinxBody(HTMLParser):
    """The blocks of a Sphinx page's body (``<div class="body" role="main">``), without its
    permalinks ("¶")."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self._divs = 0  # open <div>s, the body's own included (0: outside the body)
        self._skipping = False
        self._open: list[str] = []
        self._words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if not self._divs:
            if tag == "div" and attributes.get("role") == "main":
                self._divs = 1
            return
        if tag == "div":
            self._divs += 1
        if tag in ("script", "style") or (tag == "a" and "headerlink" in (attributes.get("class") or "")):
            self._skipping = True
        elif tag in BLOCK_TAGS:
            if "tr" not in self._open:
                self._flush()
            elif tag in ("td", "th") and "".join(self._words).strip():
                self._words.append(" | ")
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self._divs:
            return
        if tag == "div":
            self._divs -= 1
        if tag in ("script", "style", "a"):
            self._skipping = False
        elif tag in BLOCK_TAGS and tag in self._open:
            if "tr" not in self._open or tag == "tr":
                self._flush()
            while self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self._divs and not self._skipping:
            self._words.append(data)

    def _flush(self) -> None:
        text, self._words = "".join(self._words), []
        kind, level = "paragraph", 0
        for tag in reversed(self._open):
            if tag in HEADINGS:
                kind, level = "heading", HEADINGS[tag]
                break
            if tag in ("pre", "li", "dt", "tr"):
                kind = {"pre": "code", "li": "item", "dt": "term", "tr": "row"}[tag]
                break
        text = text.strip("\n").rstrip() if kind == "code" else " ".join(text.split())
        if text:
            self.blocks.append(Block(kind, text, level))


def read_page(path: Path) -> Page:
    """The Sphinx page at ``path``."""
    reader = _SphinxBody()
    reader.feed(path.read_text(encoding="utf-8"))
    reader.close()
    if not reader.blocks or reader.blocks[0].level != 1:
        raise ValueError(f"{path}: no title first")
    return Page(tuple(reader.blocks))


# --------------------------------------------------------------------------- the writers


def groups(blocks: Sequence[Block]) -> Iterator[tuple[str, list[Block]]]:
    """``blocks`` as runs: consecutive list items together, every other block alone."""
    run: list[Block] = []
    for block in blocks:
        if block.kind == "item":
            run.append(block)
            continue
        if run:
            yield "list", run
            run = []
        yield block.kind, [block]
    if run:
        yield "list", run


def to_text(page: Page) -> str:
    """Plain text: headings underlined (levels 1 and 2), paragraphs wrapped at 78 columns, items
    bulleted, code indented."""
    wrap = textwrap.TextWrapper(width=78, break_long_words=False, break_on_hyphens=False)
    bullet = textwrap.TextWrapper(
        width=78, initial_indent="* ", subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )
    parts = []
    for block in page.blocks:
        if block.kind == "heading":
            rule = {1: "=", 2: "-"}.get(block.level)
            parts.append(f"{block.text}\n{rule * len(block.text)}" if rule else block.text)
        elif block.kind == "code":
            parts.append(textwrap.indent(block.text, "    "))
        else:
            parts.append((bullet if block.kind == "item" else wrap).fill(block.text))
    return "\n\n".join(parts) + "\n"


def to_markdown(page: Page) -> str:
    """Markdown: ATX headings, fenced code, "-" items, one line a paragraph."""
    parts = []
    for kind, run in groups(page.blocks):
        if kind == "heading":
            parts.append(f"{'#' * run[0].level} {run[0].text}")
        elif kind == "code":
            parts.append(f"```\n{run[0].text}\n```")
        elif kind == "list":
            parts.append("\n".join(f"- {item.text}" for item in run))
        else:
            parts.append(run[0].text)
    return "\n\n".join(parts) + "\n"


def html_body(blocks: Sequence[Block]) -> str:
    """The blocks as HTML elements (also XHTML: every element closed)."""
    parts = []
    for kind, run in groups(blocks):
        text = html.escape(run[0].text, quote=False)
        if kind == "heading":
            parts.append(f"<h{run[0].level}>{text}</h{run[0].level}>")
        elif kind == "code":
            parts.append(f"<pre><code>{text}</code></pre>")
        elif kind == "list":
            items = "\n".join(f"<li>{html.escape(item.text, quote=False)}</li>" for item in run)
            parts.append(f"<ul>\n{items}\n</ul>")
        elif kind == "term":
            parts.append(f'<p class="term"><code>{text}</code></p>')
        else:
            parts.append(f"<p>{text}</p>")
    return "\n".join(parts)


def to_html(page: Page) -> str:
    title = html.escape(page.title, quote=False)
    body = html_body(page.blocks)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def write_docx(page: Page, path: Path) -> None:
    """A Word document: headings in the Heading styles, items in List Bullet, code in Courier."""
    import docx
    from docx.shared import Pt

    document = docx.Document()
    properties = document.core_properties
    properties.title, properties.author = page.title, "Python Software Foundation"
    properties.created = properties.modified = WHEN.replace(tzinfo=None)
    properties.last_modified_by, properties.revision = "", 1
    for block in page.blocks:
        if block.kind == "heading":
            document.add_heading(block.text, level=block.level)
        elif block.kind == "item":
            document.add_paragraph(block.text, style="List Bullet")
        elif block.kind in ("code", "term"):
            run = document.add_paragraph(style="No Spacing").add_run(block.text)
            run.font.name, run.font.size = "Courier New", Pt(9)
            run.bold = block.kind == "term"
        else:
            document.add_paragraph(block.text)
    buffer = io.BytesIO()
    document.save(buffer)
    path.write_bytes(fixed_zip(buffer.getvalue()))


def write_odt(page: Page, path: Path) -> None:
    """An OpenDocument text: headings with outline levels, items in lists, code preformatted."""
    from odfdo import Document as OdfDocument, Header, List, ListItem, Paragraph

    document = OdfDocument("text")
    meta = document.meta
    meta.set_title(page.title)
    meta.set_creation_date(WHEN.replace(tzinfo=None))
    meta.set_modification_date(WHEN.replace(tzinfo=None))
    meta.set_generator("bench/docs_set.py")
    body = document.body
    body.clear()
    for kind, run in groups(page.blocks):
        if kind == "heading":
            body.append(Header(run[0].level, run[0].text))
        elif kind == "list":
            bullets = List(style="List_20_1")
            for item in run:
                bullets.append(ListItem(Paragraph(item.text)))
            body.append(bullets)
        elif kind in ("code", "term"):
            body.append(Paragraph(run[0].text, style="Preformatted_20_Text"))
        else:
            body.append(Paragraph(run[0].text, style="Text_20_body"))
    buffer = io.BytesIO()
    document.save(buffer)
    path.write_bytes(fixed_zip(buffer.getvalue()))


def fixed_zip(data: bytes) -> bytes:
    """The zip archive ``data`` again, its entries in the same order with fixed time stamps (the
    writers stamp the time of writing)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            fixed = zipfile.ZipInfo(entry.filename, ZIP_TIME)
            fixed.compress_type = entry.compress_type
            fixed.external_attr = entry.external_attr
            target.writestr(fixed, source.read(entry))
    return out.getvalue()


def write_epub(book: str, title: str, pages: Sequence[Page], path: Path) -> None:
    """An EPUB 3 book: one XHTML chapter per page, in the spine in order, and its navigation."""
    chapters = [f"chapter{number:02}.xhtml" for number in range(1, len(pages) + 1)]
    escaped = html.escape(title, quote=False)

    def xhtml(heading: str, body: str) -> str:
        return (
            '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en">\n'
            f"<head>\n<title>{html.escape(heading, quote=False)}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
        )

    contents = "\n".join(
        f'<li><a href="{name}">{html.escape(page.title, quote=False)}</a></li>'
        for name, page in zip(chapters, pages, strict=True)
    )
    nav = xhtml(title, f'<nav epub:type="toc" id="toc">\n<h1>{escaped}</h1>\n<ol>\n{contents}\n</ol>\n</nav>')
    items = "\n".join(
        f'<item id="c{n}" href="{name}" media-type="application/xhtml+xml"/>' for n, name in enumerate(chapters, 1)
    )
    spine = "\n".join(f'<itemref idref="c{n}"/>' for n in range(1, len(chapters) + 1))
    opf = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\n'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
        f'<dc:identifier id="id">urn:parley-bench:{book}</dc:identifier>\n<dc:title>{escaped}</dc:title>\n'
        "<dc:creator>Python Software Foundation</dc:creator>\n<dc:language>en</dc:language>\n"
        "<dc:rights>PSF License Version 2</dc:rights>\n"
        f'<meta property="dcterms:modified">{WHEN:%Y-%m-%dT%H:%M:%SZ}</meta>\n</metadata>\n'
        f'<manifest>\n<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\n'
        f"{items}\n</manifest>\n<spine>\n{spine}\n</spine>\n</package>\n"
    )
    container = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n'
        "</container>\n"
    )
    entries = [("mimetype", "application/epub+zip"), ("META-INF/container.xml", container)]
    entries += [("OEBPS/content.opf", opf), ("OEBPS/nav.xhtml", nav)]
    entries += [
        (f"OEBPS/{name}", xhtml(page.title, html_body(page.blocks))) for name, page in zip(chapters, pages, strict=True)
    ]
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in entries:
            entry = zipfile.ZipInfo(name, ZIP_TIME)
            entry.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            archive.writestr(entry, text.encode("utf-8"))


# Typographic characters the PDF core fonts (Latin-1) lack, as their look-alikes.
LATIN1 = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "–": "-",
        "—": "--",
        "−": "-",
        "…": "...",
        "•": "*",
        "→": "->",
        "≤": "<=",
        "≥": ">=",
        "≠": "!=",
        "μ": "mu",
        "σ": "sigma",
        "\u200b": "",
    }
)


def latin1(text: str) -> str:
    """``text`` in the core fonts' Latin-1, what no look-alike stands for as "?"."""
    return text.translate(LATIN1).encode("latin-1", "replace").decode("latin-1")


def write_pdf(page: Page, path: Path) -> int:
    """A PDF (A4, real text in Helvetica and Courier, a footer with the title and the page
    number on every page); its number of pages."""
    from fpdf import FPDF

    class Pdf(FPDF):
        def footer(self) -> None:
            self.set_y(-12)
            self.set_font("Helvetica", size=8)
            self.cell(0, 8, f"{latin1(page.title)} - page {self.page_no()}", align="C")

    pdf = Pdf(format="A4")
    pdf.set_creation_date(WHEN)
    pdf.set_title(latin1(page.title))
    pdf.set_author("Python Software Foundation")
    pdf.set_auto_page_break(True, margin=18)
    pdf.set_margins(20, 18, 20)
    pdf.add_page()
    for block in page.blocks:
        text = latin1(block.text)
        if block.kind == "heading":
            pdf.set_font("Helvetica", style="B", size={1: 18, 2: 14, 3: 12}.get(block.level, 11))
            pdf.multi_cell(0, 8, text, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif block.kind in ("code", "term"):
            pdf.set_font("Courier", style="B" if block.kind == "term" else "", size=9)
            pdf.multi_cell(0, 4.5, text, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        else:
            pdf.set_font("Helvetica", size=10)
            bullet = "- " if block.kind == "item" else ""
            pdf.multi_cell(0, 5, bullet + text, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    pdf.output(str(path))
    return pdf.page_no()


# --------------------------------------------------------------------------- the set


def text_pages(text: str) -> int:
    return max(1, math.ceil(len(text) / PAGE_CHARACTERS))


@dataclasses.dataclass(frozen=True)
class Entry:
    """A file of the built set as ``manifest.json`` lists it."""

    path: str
    format: str
    sources: tuple[str, ...]  # absolute paths of the installed files it was made from
    pages: int


def build(document: Document, folder: Path) -> Entry:
    """Writes ``document`` into ``folder``; its manifest entry."""
    path = folder / document.path
    path.parent.mkdir(parents=True, exist_ok=True)
    if document.format == "python":
        sources = tuple(str(STDLIB / source) for source in document.sources)
        text = Path(sources[0]).read_text(encoding="utf-8")
        path.write_text(text, encoding="utf-8")
        return Entry(document.path, document.format, sources, text_pages(text))
    sources = tuple(str(DOCS / source) for source in document.sources)
    pages = [read_page(Path(source)) for source in sources]
    if document.format == "epub":
        write_epub(path.stem, document.title, pages, path)
        return Entry(document.path, document.format, sources, text_pages("\n".join(p.text() for p in pages)))
    (page,) = pages
    if document.format == "pdf":
        return Entry(document.path, document.format, sources, write_pdf(page, path))
    if document.format in ("docx", "odt"):
        (write_docx if document.format == "docx" else write_odt)(page, path)
    else:
        written = {"text": to_text, "markdown": to_markdown, "html": to_html}[document.format](page)
        path.write_text(written, encoding="utf-8")
    counted = written if document.format in ("text", "markdown") else page.text()
    return Entry(document.path, document.format, sources, text_pages(counted))


def build_set(folder: Path) -> list[Entry]:
    """Builds the whole set into ``folder`` (made if missing; the files of an earlier build are
    written over) with its ``manifest.json``; the manifest's entries."""
    if not DOCS.is_dir():
        raise SystemExit(f"{DOCS} is missing: apt-get install python3.11-doc")
    folder.mkdir(parents=True, exist_ok=True)
    entries = [build(document, folder) for document in DOCUMENTS]
    shutil.copyfile(LICENCE, folder / "LICENSE.txt")
    manifest = {
        "about": "Pages of the Python 3.11 documentation (Debian python3.11-doc) in seven formats, and "
        "standard library sources (libpython3.11-stdlib); built by bench/docs_set.py",
        "licence": "PSF License Version 2 (code examples also Zero-Clause BSD): LICENSE.txt, not a document",
        "page": f"a PDF's real page; otherwise {PAGE_CHARACTERS} characters of text",
        "pages": pages_by_format(entries),
        "files": [dataclasses.asdict(entry) for entry in entries],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return entries


def pages_by_format(entries: Sequence[Entry]) -> dict[str, int]:
    return {format: sum(entry.pages for entry in entries if entry.format == format) for format in FORMATS}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where to build the set")
    folder = parser.parse_args(argv).folder
    entries = build_set(folder)
    pages = pages_by_format(entries)
    print(f"{len(entries)} files, {sum(pages.values())} pages in {folder}:")
    for format, count in pages.items():
        print(f"  {format:9} {count:4} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
