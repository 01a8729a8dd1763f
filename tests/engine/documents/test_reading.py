"""Documents read into text blocks with their places: every format from real files written here
(PDFs by hand, DOCX by python-docx, ODT by odfdo, EPUB with zipfile), and the hostile ones (zip
and PDF bombs, encrypted and damaged PDFs, binary content, a sparse 2 GB file, FIFOs, devices,
symlink loops, unreadable files), each refused with its one-line reason in bounded time."""

from __future__ import annotations

import os
import zipfile
import zlib
from pathlib import Path

import pytest

from parley.engine.documents import reading
from parley.engine.documents.reading import Block, DocumentError, kind_of, read_document
from parley.engine.errors import ParleyError

pytestmark = pytest.mark.timeout(60)  # every case is bounded; only a regression gets near this


# --------------------------------------------------------------------------- writing the files


def pdf_bytes(pages: list[bytes], title: str | None = None) -> bytes:
    """A PDF of ``pages`` (each its content stream object), Helvetica as /F1 and ``title`` in
    its Info dictionary, with the cross-reference table's offsets."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    info = b"<< /Title (%s) >>" % title.encode("latin-1") if title else b"<< >>"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", font, info]
    kids = []
    for content in pages:
        page = len(objects) + 1
        kids.append(b"%d 0 R" % page)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents %d 0 R >>" % (page + 1)
        )
        objects.append(content)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def stream(data: bytes, *, flate: bool = False) -> bytes:
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(data), b" /Filter /FlateDecode" * flate, data)


def text_page(text: str) -> bytes:
    return stream(b"BT /F1 12 Tf 72 720 Td (%s) Tj ET" % text.encode("latin-1"))


def bomb_page(expanded: int) -> bytes:
    """A content stream that inflates to ``expanded`` bytes of zeros, compressed a megabyte at a time."""
    compressor = zlib.compressobj(9)
    zeros = bytes(1 << 20)
    data = b"".join(compressor.compress(zeros) for _ in range(expanded >> 20)) + compressor.flush()
    return stream(data, flate=True)


def write_docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = "Parley Manual"
    document.add_paragraph("Parley Manual", style="Title")
    document.add_paragraph("An   introduction\tbefore any heading.")
    document.add_heading("Installation", 1)
    document.add_paragraph("Run the installer.")
    document.add_heading("Windows", 2)
    document.add_paragraph("Double-click it.")
    table = document.add_table(rows=2, cols=2)
    for (row, column), text in {(0, 0): "System", (0, 1): "Step", (1, 0): "Windows", (1, 1): "Click"}.items():
        table.cell(row, column).text = text
    document.add_heading("Usage", 1)
    document.add_paragraph("Hold the key and talk.")
    document.save(str(path))


def write_odt(path: Path) -> None:
    import odfdo

    document = odfdo.Document("text")
    document.body.append(odfdo.Header(1, "Installation"))
    document.body.append(odfdo.Paragraph("Run   the installer."))
    document.body.append(odfdo.Header(2, "Linux"))
    document.body.append(odfdo.Paragraph("Use the script."))
    table = odfdo.Table("Steps", width=2, height=1)
    table.set_value((0, 0), "Step one")
    table.set_value((1, 0), "Step two")
    document.body.append(table)
    document.meta.title = "Parley on Linux"
    document.save(str(path))


CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def chapter(title: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>{title}</title></head><body>{body}</body></html>"
    )


def write_epub(path: Path, chapters: dict[str, str], spine: list[str], title: str = "The Book") -> None:
    """An EPUB 3 of ``chapters`` (file name: XHTML), read in the order of ``spine``."""
    items = "".join(f'<item id="{name}" href="text/{name}" media-type="application/xhtml+xml"/>' for name in chapters)
    references = "".join(f'<itemref idref="{name}"/>' for name in spine)
    package = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title></metadata>'
        f'<manifest>{items}<item id="css" href="style.css" media-type="text/css"/></manifest>'
        f"<spine>{references}</spine></package>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", CONTAINER)
        archive.writestr("OEBPS/content.opf", package)
        archive.writestr("OEBPS/style.css", "p { margin: 0 }")
        for name, xhtml in chapters.items():
            archive.writestr(f"OEBPS/text/{name}", xhtml)


def add_zeros(path: Path, member: str, size: int) -> None:
    """Appends ``member``: ``size`` bytes of zeros, compressed as they are written (never held)."""
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive:
        with archive.open(member, "w", force_zip64=True) as stream:
            zeros = bytes(1 << 20)
            for _ in range(size >> 20):
                stream.write(zeros)


def refusal(path: Path) -> str:
    with pytest.raises(DocumentError) as caught:
        read_document(path)
    reason = str(caught.value)
    assert isinstance(caught.value, ParleyError) and "\n" not in reason and str(path) not in reason
    return reason


# --------------------------------------------------------------------------- kinds


def test_the_kind_of_a_file_is_known_by_its_suffix_in_any_case() -> None:
    assert kind_of(Path("notes.TXT")) == "text"
    assert kind_of(Path("README.md")) == "markdown"
    assert kind_of(Path("page.htm")) == "html"
    assert kind_of(Path("paper.PDF")) == "pdf"
    assert kind_of(Path("letter.docx")) == "docx"
    assert kind_of(Path("letter.odt")) == "odt"
    assert kind_of(Path("novel.epub")) == "epub"
    assert {kind_of(Path(f"x{suffix}")) for suffix in (".py", ".rs", ".ts", ".yaml", ".json", ".sql")} == {"code"}
    assert kind_of(Path("photo.jpg")) is None and kind_of(Path("Makefile")) is None and kind_of(Path("a.doc")) is None
    assert all(suffix == suffix.lower() and suffix.startswith(".") for suffix in reading.SUFFIXES)


# --------------------------------------------------------------------------- each format


def test_plain_text_is_paragraphs_with_whitespace_collapsed_and_no_place(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("First   line\nsame\tparagraph.\r\n\r\n  \nSecond paragraph.\n" + "word " * 1500)
    document = read_document(path)
    assert document.title == "notes"
    assert document.blocks == [Block("First line same paragraph.\n\nSecond paragraph. " + ("word " * 1500).strip(), "")]
    assert document.pages == len(document.blocks[0].text) // 3000 + 1 == 3


def test_markdown_headings_give_the_path_and_the_first_h1_the_title(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(
        "---\ntitle: front matter\n---\nBefore any heading.\n\n# Parley Guide\n\nIntro\ncontinued.\n\n"
        "Installation\n------------\n\nDo it.\n\n```python\ndef f():\n    return 1\n```\n\n"
        "### Windows ###\nClick.\n\n#hashtag is no heading\n\nOther\n=====\nEnd.\n"
    )
    document = read_document(path)
    assert document.title == "Parley Guide"
    assert [(b.place, b.text) for b in document.blocks] == [
        ("", "title: front matter\n\nBefore any heading."),
        ("Parley Guide", "Parley Guide\n\nIntro continued."),
        ("Parley Guide › Installation", "Installation\n\nDo it.\n\ndef f():\n    return 1"),
        ("Parley Guide › Installation › Windows", "Windows\n\nClick.\n\n#hashtag is no heading"),
        ("Other", "Other\n\nEnd."),
    ]


def test_code_keeps_its_lines_in_blocks_cut_at_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    lines = [f"value_{n} = {n}" if n % 25 else "" for n in range(1, 151)]  # blank lines 25, 50, 75...
    path.write_text("\n".join(lines) + "\n")
    document = read_document(path)
    assert [b.place for b in document.blocks] == ["lines 1-49", "lines 51-99", "lines 101-149"]
    assert document.blocks[0].text.splitlines()[:2] == ["value_1 = 1", "value_2 = 2"]
    assert document.blocks[0].text.splitlines()[24] == ""  # line 25: kept, blank
    assert document.title == "module"


def test_code_without_blank_lines_is_cut_every_sixty_lines(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_text("\n".join(f'  "key{n}": {n},' for n in range(130)))
    assert [b.place for b in read_document(path).blocks] == ["lines 1-60", "lines 61-120", "lines 121-130"]


def test_html_skips_scripts_styles_navigation_and_follows_its_headings(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<!doctype html><html><head><title>The  Page</title><style>p { color: red }</style>"
        "<script>var hidden = 1;</script></head><body><nav><a href='/'>Home</a></nav>"
        "<h1>Guide</h1><p>Intro   text\nacross lines.</p><div>Second <b>paragraph</b></div>"
        "<h2>Setup &amp; use</h2><ul><li>one</li><li>two</li></ul><pre>  keep\n    indent</pre>"
        "<table><tr><td>a</td><td>b</td></tr></table><h1>Other</h1><p>x<br>y</p></body></html>"
    )
    document = read_document(path)
    assert document.title == "The Page"
    assert [(b.place, b.text) for b in document.blocks] == [
        ("Guide", "Guide\n\nIntro text across lines.\n\nSecond paragraph"),
        ("Guide › Setup & use", "Setup & use\n\none\n\ntwo\n\n  keep\n    indent\n\na b"),
        ("Other", "Other\n\nx\n\ny"),
    ]
    assert "hidden" not in str(document) and "Home" not in str(document)


def test_html_without_a_title_is_named_by_its_first_h1(tmp_path: Path) -> None:
    path = tmp_path / "page.htm"
    path.write_bytes("<h2>Minor</h2><h1>Größe</h1><p>Text</p>".encode("cp1252"))
    assert read_document(path).title == "Größe"


def test_a_pdf_is_a_block_per_page_titled_by_its_metadata(tmp_path: Path) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(pdf_bytes([text_page("Hello first page"), text_page("Second page words")], "A Study"))
    document = read_document(path)
    assert document == reading.Document(
        "A Study", [Block("Hello first page", "page 1"), Block("Second page words", "page 2")], 2
    )


def test_a_pdf_encrypted_with_the_empty_password_is_read(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    plain = tmp_path / "plain.pdf"
    plain.write_bytes(pdf_bytes([text_page("Open to all")]))
    writer = PdfWriter(clone_from=plain)
    writer.encrypt(user_password="", owner_password="owner", algorithm="AES-256")
    writer.write(tmp_path / "locked.pdf")
    assert read_document(tmp_path / "locked.pdf").blocks == [Block("Open to all", "page 1")]


def test_a_docx_follows_its_heading_styles_and_reads_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "manual.docx"
    write_docx(path)
    document = read_document(path)
    assert document.title == "Parley Manual"
    assert [(b.place, b.text) for b in document.blocks] == [
        ("", "Parley Manual\n\nAn introduction before any heading."),
        ("Installation", "Installation\n\nRun the installer."),
        ("Installation › Windows", "Windows\n\nDouble-click it.\n\nSystem | Step\n\nWindows | Click"),
        ("Usage", "Usage\n\nHold the key and talk."),
    ]
    assert document.pages == 1


def test_an_odt_follows_its_outline_levels(tmp_path: Path) -> None:
    path = tmp_path / "linux.odt"
    write_odt(path)
    document = read_document(path)
    assert document.title == "Parley on Linux"
    assert [(b.place, b.text) for b in document.blocks] == [
        ("Installation", "Installation\n\nRun the installer."),
        ("Installation › Linux", "Linux\n\nUse the script.\n\nStep one | Step two"),
    ]


def test_an_epub_is_read_in_spine_order_with_chapter_titles_leading_the_places(tmp_path: Path) -> None:
    path = tmp_path / "book.epub"
    chapters = {
        "one.xhtml": chapter("The Book", "<h1>Beginnings</h1><p>It was a  dark night.</p><h2>Rain</h2><p>Wet.</p>"),
        "two.xhtml": chapter("Chapter Two", "<h2>Morning</h2><p>The sun rose.</p>"),
        "nav.xhtml": chapter("Contents", "<nav><ol><li>Beginnings</li></ol></nav>"),
    }
    write_epub(path, chapters, spine=["nav.xhtml", "one.xhtml", "two.xhtml"])
    document = read_document(path)
    assert document.title == "The Book"
    assert [(b.place, b.text) for b in document.blocks] == [
        ("Beginnings", "Beginnings\n\nIt was a dark night."),  # <title> is the book's: the heading names it
        ("Beginnings › Rain", "Rain\n\nWet."),
        ("Chapter Two › Morning", "Morning\n\nThe sun rose."),
    ]


# --------------------------------------------------------------------------- text encodings


def test_utf8_with_a_bom_and_utf16_are_decoded(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes("\ufeffcafé".encode())
    (tmp_path / "b.txt").write_bytes("wörld".encode("utf-16"))  # with its BOM
    assert read_document(tmp_path / "a.txt").blocks == [Block("café", "")]
    assert read_document(tmp_path / "b.txt").blocks == [Block("wörld", "")]


def test_western_text_in_cp1252_reads_right(tmp_path: Path) -> None:
    path = tmp_path / "lettre.txt"
    path.write_bytes("Le garçon était très fatigué après la journée. Où est la clé ? Ça coûte cher.".encode("cp1252"))
    assert read_document(path).blocks[0].text.startswith("Le garçon était très fatigué")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [("Привет, мир! Как дела?", "koi8_r"), ("Ça coûte très cher, ½ prix.", "cp437"), ("Crème brûlée ©", "mac_roman")],
)
def test_text_in_another_8_bit_encoding_is_read_without_failing(tmp_path: Path, text: str, encoding: str) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes(text.encode(encoding) + bytes(range(0x80, 0x100)))  # and every high byte
    assert len(read_document(path).blocks[0].text) >= len(text)


# --------------------------------------------------------------------------- the bounds


def test_a_zip_bomb_in_a_docx_is_refused_from_its_central_directory(tmp_path: Path) -> None:
    path = tmp_path / "bomb.docx"
    write_docx(path)
    add_zeros(path, "word/media/zeros.bin", 300 << 20)
    assert path.stat().st_size < 2 << 20
    assert refusal(path) == "the archive would expand to more than 200 MB (a zip bomb?)"


def test_a_zip_bomb_in_an_epub_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.epub"
    write_epub(path, {"one.xhtml": chapter("One", "<p>Text</p>")}, ["one.xhtml"])
    add_zeros(path, "OEBPS/text/one.xhtml.zeros", 300 << 20)
    assert refusal(path) == "the archive would expand to more than 200 MB (a zip bomb?)"


def test_a_member_compressed_past_200_to_1_is_refused_below_the_total(tmp_path: Path) -> None:
    path = tmp_path / "dense.epub"
    write_epub(path, {"one.xhtml": chapter("One", "<p>Text</p>")}, ["one.xhtml"])
    add_zeros(path, "OEBPS/images/zeros.bin", 20 << 20)
    assert refusal(path) == "a file in the archive is compressed more than 200:1 (a zip bomb?)"


def test_a_docx_that_is_no_zip_is_a_damaged_docx(tmp_path: Path) -> None:
    path = tmp_path / "fake.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip" * 10)
    assert refusal(path).startswith("a damaged DOCX: ")


def test_a_pdf_bomb_is_refused_by_the_bound_on_a_stream(tmp_path: Path) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(pdf_bytes([bomb_page(200 << 20)]))
    assert path.stat().st_size < 1 << 20
    assert refusal(path).startswith("a PDF whose content would expand too far (a PDF bomb?)")


def test_an_encrypted_pdf_is_refused(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    plain = tmp_path / "plain.pdf"
    plain.write_bytes(pdf_bytes([text_page("Secret")]))
    writer = PdfWriter(clone_from=plain)
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-256")
    writer.write(tmp_path / "locked.pdf")
    assert refusal(tmp_path / "locked.pdf") == "an encrypted PDF: Parley cannot read it"


def test_a_truncated_pdf_is_a_damaged_pdf(tmp_path: Path) -> None:
    path = tmp_path / "cut.pdf"
    whole = pdf_bytes([text_page("Hello"), text_page("World")])
    path.write_bytes(whole[: len(whole) // 2])
    assert refusal(path).startswith("a damaged PDF: ")


def test_binary_content_named_txt_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "program.txt"
    path.write_bytes(bytes(range(256)) * 64)
    assert refusal(path) == "not text (binary content)"
    (tmp_path / "controls.md").write_bytes(b"\x01\x02\x03\x04 text" * 100)
    assert refusal(tmp_path / "controls.md") == "not text (binary content)"


def test_a_2_gb_text_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.log"
    with path.open("wb") as file:
        file.truncate(2 << 30)  # sparse: no disk, no time
    assert refusal(path) == "larger than 50 MB"


def test_text_past_the_cap_is_kept_up_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "MAX_CHARACTERS", 1000)
    path = tmp_path / "long.md"
    path.write_text("".join(f"# Part {n}\n\n{'word ' * 50}\n\n" for n in range(100)))
    document = read_document(path)
    assert sum(len(b.text) for b in document.blocks) == 1000
    assert document.blocks[-1].place == "Part 3"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    assert refusal(path) == "not a regular file (a FIFO)"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_link_to_dev_zero_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "zero.txt"
    path.symlink_to("/dev/zero")
    assert refusal(path) == "not a regular file (a character device)"


def test_a_loop_of_symbolic_links_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    assert refusal(tmp_path / "a.txt") == "a loop of symbolic links"


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "private.txt"
    path.write_text("secret")
    path.chmod(0)
    if os.geteuid() == 0:  # root reads anything
        assert read_document(path).blocks == [Block("secret", "")]
    else:
        assert refusal(path) == "Permission denied"


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux's /proc")
def test_a_file_whose_size_is_not_what_it_reads_changed_while_it_was_read(tmp_path: Path) -> None:
    """/proc's files say 0 bytes and read as more: what a file growing during the read looks like."""
    path = tmp_path / "status.txt"
    path.symlink_to("/proc/self/status")
    assert refusal(path) == "the file changed while it was read"


def test_a_kind_parley_does_not_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff")
    assert refusal(path) == "not a kind of document Parley reads"
