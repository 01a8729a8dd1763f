"""The interface in other languages: every word translatable, every translation whole, Arabic
mirrored.

- The .ts files hold every word of the code (``pyside6-lupdate`` run now finds none they lack),
  and each translation is finished and keeps its placeholders, markup, mnemonic and plural forms.
- Every word a window shows is translatable: the windows are opened under a pseudo-translation
  made now from the code (each word becomes ⟦word⟧, through the real lupdate, lrelease and
  QTranslator), and each text on them (labels, buttons, tooltips, placeholders, menus, tabs,
  drop-down items, accessible names) must be marked, or be data: a model's or a file's name,
  a language's own name, what the test typed.
- Every window opened in Arabic (the .qm files setup builds) is laid out right to left and
  shows Arabic.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QPoint, Qt, QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QKeySequenceEdit,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTreeWidget,
    QWidget,
)

from parley.app.controller import Controller
from parley.app.ui import i18n
from parley.app.ui.dictation_history import written_time
from parley.app.ui.settings_dialog import LANGUAGES, language_name
from tests.support.app_helpers import make_controller, tiny_chat_model, tiny_settings, wait_idle  # noqa: F401
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]
OPEN, CLOSE = "⟦", "⟧"
PLURAL_FORMS = {"en": 2, "de": 2, "fr": 2, "es": 2, "pt_BR": 2, "zh_CN": 1, "ja": 1, "ar": 6}  # as lrelease counts them
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%L?n|<[^>]+>")
MNEMONIC = re.compile(r"&(?=[^&\s])")
TYPED = "Pasta recipes with basil"
QT_OWN = {"OK", "Cancel", "Scroll Left", "Scroll Right"}  # Qt's words, translated by its qtbase_*.qm


def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("translations", REPO / "packaging" / "translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def messages(ts: Path) -> Iterator[dict[str, Any]]:
    for context in ElementTree.parse(ts).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            forms = [f.text or "" for f in translation.iter("numerusform")] or [translation.text or ""]
            yield {
                "context": context.findtext("name"),
                "source": message.findtext("source") or "",
                "numerus": message.get("numerus") == "yes",
                "forms": forms,
                "unfinished": translation.get("type") in ("unfinished", "vanished", "obsolete"),
                "element": translation,
            }


@pytest.fixture(scope="module")
def code_ts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The words of the code now, as lupdate collects them (a .ts of no language)."""
    script = build_script()
    folder = tmp_path_factory.mktemp("ts")
    ts = folder / "parley_xx.ts"
    sources = script.sources(folder)
    subprocess.run(
        [script.tool("pyside6-lupdate"), *sources, "-no-obsolete", "-locations", "none", "-ts", str(ts)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    return ts


def test_the_ts_files_hold_every_word_of_the_code(code_ts: Path) -> None:
    words = {(m["context"], m["source"]) for m in messages(code_ts)}
    assert len(words) > 300
    for language in i18n.SHIPPED:
        ts = i18n.translations_folder() / f"parley_{language}.ts"
        held = {(m["context"], m["source"]) for m in messages(ts)}
        assert words <= held, f"{ts.name} lacks (run packaging/translations.py --update): {sorted(words - held)[:10]}"
        assert held <= words, f"{ts.name} holds words the code no longer has: {sorted(held - words)[:10]}"


@pytest.mark.parametrize("language", sorted(i18n.NATIVE_NAMES))
def test_each_translation_is_finished_and_keeps_what_the_code_fills_in(language: str) -> None:
    """Placeholders ({model}, %Ln), markup (<b>) and the mnemonic (&) survive; plural forms
    are as many as the language has (English's file holds only its plural forms)."""
    problems = []
    for m in messages(i18n.translations_folder() / f"parley_{language}.ts"):
        where = f"{m['context']}: {m['source']!r}"
        if m["unfinished"] or not all(form.strip() for form in m["forms"]):
            problems.append(f"untranslated: {where}")
            continue
        if m["numerus"] and len(m["forms"]) != PLURAL_FORMS[language]:
            problems.append(f"{len(m['forms'])} plural forms, not {PLURAL_FORMS[language]}: {where}")
        for form in m["forms"]:
            if sorted(PLACEHOLDER.findall(form)) != sorted(PLACEHOLDER.findall(m["source"])):
                problems.append(f"placeholders differ in {form!r}: {where}")
            if len(MNEMONIC.findall(form)) != len(MNEMONIC.findall(m["source"])):
                problems.append(f"mnemonic lost in {form!r}: {where}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- what the windows show


def shown_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) of every word ``root`` and the widgets in it show or give a screen reader."""
    for widget in [root, *root.findChildren(QWidget)]:
        name = f"{type(widget).__name__} {widget.objectName()}".strip()
        if isinstance(widget, QKeySequenceEdit) or isinstance(widget.parent(), QKeySequenceEdit):
            continue  # key names, translated by Qt's own translations
        yield from ((f"{name} tooltip", widget.toolTip()), (f"{name} accessible name", widget.accessibleName()))
        yield f"{name} accessible description", widget.accessibleDescription()
        if widget.isWindow():
            yield f"{name} title", widget.windowTitle()
        if isinstance(widget, QLabel):
            yield f"{name} text", re.sub(r"<[^>]+>", "", widget.text())
        elif isinstance(widget, QAbstractButton):
            yield f"{name} text", widget.text()
        elif isinstance(widget, (QLineEdit, QPlainTextEdit)):
            yield f"{name} placeholder", widget.placeholderText()
        elif isinstance(widget, QGroupBox):
            yield f"{name} title", widget.title()
        elif isinstance(widget, QTabWidget):
            yield from ((f"{name} tab", widget.tabText(i)) for i in range(widget.count()))
        elif isinstance(widget, QComboBox):
            for i in range(widget.count()):
                yield f"{name} item", widget.itemText(i)
                yield f"{name} item tooltip", str(widget.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
        elif isinstance(widget, QTreeWidget):
            header = widget.headerItem()
            yield from ((f"{name} column", header.text(c)) for c in range(header.columnCount()))
            root_item = widget.invisibleRootItem()
            for g in range(root_item.childCount()):
                yield f"{name} group", root_item.child(g).text(0)
        if isinstance(widget, QMenu) or widget is root:
            for action in widget.actions():
                yield f"{name} action", action.text()
                yield (
                    f"{name} action tooltip",
                    action.toolTip() if action.toolTip() != action.text().replace("&", "") else "",
                )
                if action.menu() is not None:
                    yield from shown_texts(action.menu())


def untranslated(texts: Iterator[tuple[str, str]], data: set[str]) -> list[str]:
    """The texts that are neither marked as translated nor data."""
    found = []
    for where, text in texts:
        text = text.replace("&", "")
        for piece in [text] if OPEN in text else re.split(r" · |\n", text):  # a label may join data with data
            piece = piece.strip()
            if re.search(r"[^\W\d_]", piece) and OPEN not in piece and piece not in data | QT_OWN:
                found.append(f"{where}: {piece!r}")
    return sorted(set(found))


@pytest.fixture
def pseudo(qapp: QApplication, code_ts: Path, tmp_path: Path) -> Iterator[None]:
    """Every word of the code translated as ⟦word⟧, for as long as the test runs."""
    tree = ElementTree.parse(code_ts)
    for message in tree.getroot().iter("message"):
        translation = message.find("translation")
        assert translation is not None
        source = message.findtext("source") or ""
        translation.attrib.pop("type", None)
        if message.get("numerus") == "yes":  # English has two forms
            for form in list(translation):
                translation.remove(form)
            for _ in range(2):
                ElementTree.SubElement(translation, "numerusform").text = OPEN + source + CLOSE
        else:
            translation.text = OPEN + source + CLOSE
    tree.getroot().set("language", "en")
    ts, qm = tmp_path / "pseudo.ts", tmp_path / "pseudo.qm"
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    subprocess.run([build_script().tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)
    translator = QTranslator()
    assert translator.load(str(qm))
    qapp.installTranslator(translator)
    yield
    qapp.removeTranslator(translator)


DICTATED = ("um pasta with basil", "Pasta with basil.", "gedit")  # heard, typed, into which application


def open_every_window(qtbot: Any, app: Controller) -> dict[str, QWidget]:
    """The main window with a conversation and a notice, Settings, quick-ask, the first-start
    page (in the main window), the tray menu and the dictation history with a dictation in it:
    each window of the app, open."""
    app.replies.send(TYPED)
    wait_idle(qtbot, app)
    app.window.show_notice("N")
    heard, typed, into = DICTATED
    app.dictations.add(heard, typed, into)
    app.open_dictation_history()
    history = app.history_window
    assert history is not None and history.list.topLevelItemCount() == 1
    app.open_settings()
    dialog = app.settings_flow.dialog
    assert dialog is not None
    for index in range(dialog.tabs.count()):  # the Model library looks for models when first shown
        dialog.tabs.setCurrentIndex(index)
    qtbot.waitUntil(lambda: dialog.models_page.items() != [], timeout=60_000)
    app.quick_ask.asked("Q")
    app.quick_ask.answered("A", "stop")
    app.first_start.show()
    page = app.first_start.page
    assert page is not None
    qtbot.waitUntil(lambda: bool(page.cards) or "free here" in page.chat_hint.text() or OPEN in page.chat_hint.text())
    from parley.app.desktop.tray import Tray

    tray = Tray(app.window.windowIcon(), app)
    tray._menu.popup(QPoint(0, 0))
    return {
        "main window": app.window,
        "settings": dialog,
        "quick-ask": app.quick_ask,
        "tray menu": tray._menu,
        "dictation history": history,
    }


def data_of(app: Controller, dialog: QWidget) -> set[str]:
    """What the windows show that is not Parley's own words: names of models, files, devices
    and languages, the catalog's descriptions, what the test typed."""
    from parley.engine.library import catalog
    from parley.engine.library.builtin import builtin_models

    data = {"Parley", TYPED, "Q", "A", "N", *DICTATED, *i18n.NATIVE_NAMES.values()}
    data |= {written_time(record.when) for record in app.dictations.records()}  # as the locale writes it
    data |= {f"{language_name(code)} ({code})" for code in LANGUAGES}  # each spoken language by its own name
    data |= {app.window.windowTitle().split(" — ")[0]}
    for model in (app.chat.model, app.speech.model):
        data |= {model.name, Path(model.path).stem, Path(model.path).name, str(model.path)}
    data |= {m.name for m in builtin_models()} | {m.role for m in builtin_models()}
    data |= {name for _, name in app.engines.natural_voices()}  # the voices' catalog
    data |= {phrase for _, phrase, _ in app.engines.wake_words()}  # the wake words: said as they are
    for entry in catalog():
        data |= {entry.name, entry.note, entry.licence, entry.repo}
    for combo in dialog.findChildren(QComboBox):  # microphones, devices, model files: the system's names
        data |= {combo.itemText(i) for i in range(combo.count()) if not isinstance(combo.itemData(i), str) or
                 combo.itemData(i) == combo.itemText(i) or combo.itemData(i).endswith(combo.itemText(i))}  # fmt: skip
    return data


def test_every_word_the_windows_show_is_translatable(qtbot, pseudo, tmp_path, tiny_chat_model) -> None:
    app = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=4))
    windows = open_every_window(qtbot, app)
    assert OPEN in app.window.new_button.text(), "the pseudo-translation is not in use"
    data = data_of(app, windows["settings"])
    problems = [f"{name}: {problem}" for name, w in windows.items() for problem in untranslated(shown_texts(w), data)]
    windows["settings"].reject()
    assert not problems, f"{len(problems)} words shown that no translation reaches:\n" + "\n".join(problems)


# ---------------------------------------------------------------- Arabic


@pytest.fixture
def arabic(qapp: QApplication) -> Iterator[None]:
    built = i18n.translations_folder() / "parley_ar.qm"
    require(built.exists(), "the translations are not built (python packaging/translations.py, run by ./setup.sh)")
    assert i18n.install(qapp, "ar") == "ar"
    yield
    i18n.install(qapp, "en")


def arabic_letters(text: str) -> bool:
    return bool(re.search(r"[\u0600-\u06ff]", text))


def left(widget: QWidget) -> int:
    return widget.mapToGlobal(QPoint(0, 0)).x()


def test_every_window_in_arabic_is_mirrored(qtbot, arabic, tmp_path, tiny_chat_model) -> None:
    app = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=4))
    windows = open_every_window(qtbot, app)
    assert QApplication.layoutDirection() == Qt.LayoutDirection.RightToLeft
    assert QLocale().language() == QLocale.Language.Arabic
    words = {  # a word of each window's own (the main window's title is the conversation's)
        "main window": app.window.menuBar().actions()[0].text(),
        "settings": windows["settings"].windowTitle(),
        "quick-ask": windows["quick-ask"].windowTitle(),
        "tray menu": windows["tray menu"].actions()[0].text(),
        "dictation history": windows["dictation history"].windowTitle(),
    }
    for name, window in windows.items():
        assert window.isRightToLeft(), f"{name} is laid out left to right"
        assert arabic_letters(words[name]), f"{name} shows {words[name]!r}"
    main, bar = app.window, app.window.input_bar
    assert left(main.search_field) > left(main.conversation_view), "the sidebar is not on the right"
    assert left(bar.send_button) < left(bar.edit) < left(bar.talk_button), "the input bar is not mirrored"
    assert arabic_letters(main.new_button.text()) and arabic_letters(bar.edit.placeholderText())
    dialog = windows["settings"]
    dialog.tabs.setCurrentIndex(
        next(i for i in range(dialog.tabs.count()) if dialog.tabs.widget(i).isAncestorOf(dialog.voice))
    )
    qtbot.waitUntil(dialog.voice.isVisible)
    label = next(w for w in dialog.voice.parentWidget().findChildren(QLabel) if w.buddy() is dialog.voice)
    assert left(label) > left(dialog.voice), "Settings' labels are not right of their fields"
    assert arabic_letters(label.text())
    quick = windows["quick-ask"]
    assert left(quick.copy_button) > left(quick.open_button), "quick-ask's buttons are not mirrored"
    page = app.first_start.page
    assert page is not None and arabic_letters(page.dismiss_button.text())
    history = windows["dictation history"]
    assert left(history.copy_button) > left(history.type_button), "the history's buttons are not mirrored"
    assert arabic_letters(history.list.topLevelItem(0).text(0)), "the dictation's time is not in Arabic digits"
    dialog.reject()


# ---------------------------------------------------------------- Alt+letters


def mnemonics(root: QWidget) -> dict[str, list[str]]:
    """The Alt+letters of ``root``'s labelled fields and buttons, each with the texts that use it."""
    used: dict[str, list[str]] = {}
    for widget in root.findChildren(QWidget):
        if (isinstance(widget, QLabel) and widget.buddy() is not None) or isinstance(widget, QAbstractButton):
            letter = MNEMONIC.search(widget.text().replace("&&", ""))
            if letter:
                used.setdefault(widget.text()[letter.end()].lower(), []).append(widget.text())
    return used


@pytest.mark.parametrize("language", sorted(i18n.NATIVE_NAMES))
def test_no_two_fields_of_a_dictation_window_share_an_alt_letter(qapp, language: str) -> None:
    """Settings > Dictation and the dictation history, in each language: one Alt+letter, one field."""
    from parley.app.settings_flow import dictation_help
    from parley.app.ui.dictation_history import DictationHistoryWindow
    from parley.app.ui.dictation_settings import DictationPage
    from parley.config.settings import Settings

    built = i18n.translations_folder() / f"parley_{language}.qm"
    require(built.exists(), "the translations are not built (python packaging/translations.py, run by ./setup.sh)")
    try:
        assert i18n.install(qapp, language) == language
        for window in (DictationPage(Settings(), dictation_help(Settings())), DictationHistoryWindow()):
            used = mnemonics(window)
            assert len(used) >= 5, used
            shared = {letter: texts for letter, texts in used.items() if len(texts) > 1}
            assert not shared, f"{type(window).__name__} in {language}: {shared}"
    finally:
        i18n.install(qapp, "en")


# ---------------------------------------------------------------- the speech's language


@pytest.mark.parametrize(("interface", "heard"), [("de", "de"), ("pt_BR", "pt"), ("zh_CN", "zh"), ("en", "en")])
def test_speech_can_follow_the_interface_language(qapp, interface: str, heard: str) -> None:
    """Settings > Voice > Spoken language: "The interface's language" hears the language the
    interface shows (the multilingual model; tiny.en hears English whatever it is told)."""
    from parley.app.speech.transcription import Transcription
    from parley.config.settings import Settings

    saved = QLocale()
    QLocale.setDefault(QLocale(interface))
    try:
        assert Transcription(None, None, lambda: Settings(language="interface")).language() == heard
        assert Transcription(None, None, lambda: Settings(language="auto")).language() is None
    finally:
        QLocale.setDefault(saved)


@pytest.mark.parametrize(
    ("system", "shown"),
    [("de_AT", "de"), ("fr_CA", "fr"), ("pt_PT", "pt_BR"), ("zh_CN", "zh_CN"), ("zh_TW", "en"), ("ar_EG", "ar"),
     ("ja_JP", "ja"), ("ko_KR", "en"), ("en_GB", "en")],
)  # fmt: skip
def test_the_system_language_picks_the_interface(system: str, shown: str) -> None:
    assert i18n.pick_language("", QLocale(system)) == shown
    assert i18n.pick_language("es", QLocale(system)) == "es"  # the user's choice in Settings comes first


# ---------------------------------------------------------------- the engine's notes


def test_the_engines_notes_are_shown_in_the_users_language(qtbot, pseudo, tmp_path) -> None:
    """The engine writes English (it never imports Qt); the messages it builds from its templates
    (``parley.engine.notes``) reach the user translated, a note inside a note too.  Each failure
    here is the engine's own, made for real: a chat model that is not there (through the app, to
    the notice it shows), no input device, a disk too small for a download, a cut GGUF file."""
    from parley.app.engine_notes import said
    from parley.engine import notes
    from parley.engine.audio.capture import find_input_device
    from parley.engine.errors import CaptureError, DiskFullError, ModelFileError
    from parley.engine.library.download import check_disk_space
    from parley.engine.modelfiles.gguf_file import read_gguf

    def translated(template: str, **values: str) -> str:
        return (OPEN + template + CLOSE).format(**values)

    missing = tmp_path / "gone.gguf"
    app = make_controller(qtbot, tmp_path, wait_ready=False, chat_model=str(missing))
    qtbot.waitUntil(lambda: app.host.chat.problem is not None, timeout=60_000)
    file_problem = translated(notes.FILE_PROBLEM, path=str(missing), problem=translated(notes.FILE_MISSING))
    assert app.host.chat.problem == translated("The chat model could not be loaded: {problem}", problem=file_problem)
    notice = " ".join(label.text() for label in app.window.findChildren(QLabel) if label.isVisible())
    assert file_problem in notice, notice

    with pytest.raises(CaptureError) as no_microphone:
        find_input_device([], None)
    assert said(no_microphone.value) == translated(notes.NO_MICROPHONE)
    with pytest.raises(DiskFullError) as disk_full:
        check_disk_space(tmp_path, 1 << 62, "huge.gguf")
    assert said(disk_full.value).startswith(OPEN + "Not enough disk space for huge.gguf: it needs ")
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\x00" * 12)
    with pytest.raises(ModelFileError) as corrupt:
        read_gguf(cut)
    assert said(corrupt.value).startswith(OPEN + f"{cut}: " + OPEN), said(corrupt.value)
    assert str(corrupt.value) == f"{cut}: {corrupt.value.problem}"  # the log and the CLI: English
