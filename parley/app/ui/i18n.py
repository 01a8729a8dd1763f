"""The interface's language: Parley's translations, Qt's own, the locale and the layout direction.

Parley's words are written in English in the code, each inside ``tr()`` (or ``translate()`` with
the class it belongs to), and ``pyside6-lupdate`` collects them into ``parley/resources/i18n/
parley_<language>.ts``, one file per language, where the translations are written.  Setup and
packaging compile those into ``.qm`` files (``pyside6-lrelease``: ``packaging/translations.py``),
which ``install`` loads at the start, with Qt's own translations of its standard dialogs and
buttons (``qtbase_<language>.qm`` from PySide6).  The locale it sets is the default for numbers
and dates (``QLocale()``), and a right-to-left language mirrors the whole layout.

The language is the user's choice in Settings (``Settings.interface_language``), or, left empty,
the first of the system's preferred languages that Parley ships (English when none is).
"""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

log = logging.getLogger("parley.i18n")

ENGLISH = "en"
# The languages Parley ships besides English (the code of its .qm files), each with its own name
# for the language menu: a user who cannot read the current language still finds their own.
SHIPPED = {
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "zh_CN": "简体中文",
    "ja": "日本語",
    "ar": "العربية",
}
NATIVE_NAMES = {ENGLISH: "English", **SHIPPED}

_installed: list[QTranslator] = []  # kept alive while installed (Qt does not own them)
_language = ENGLISH


def translations_folder() -> Path:
    """Where the .ts sources and the compiled .qm files are (``parley/resources/i18n``)."""
    return Path(str(resources.files("parley").joinpath("resources/i18n")))


def pick_language(choice: str, system: QLocale | None = None) -> str:
    """The shipped language to show: ``choice`` if Parley ships it, else the first of the
    system's preferred languages that it ships (``pt`` finds ``pt_BR``, ``zh`` in simplified
    script finds ``zh_CN``; traditional Chinese does not), else English."""
    wanted = [name.replace("-", "_") for name in ([choice] if choice else (system or QLocale.system()).uiLanguages())]
    chinese = next((name.split("_") for name in wanted if name.startswith("zh")), [])
    if {"Hant", "TW", "HK", "MO"} & set(chinese):
        wanted = [name for name in wanted if not name.startswith("zh")]  # Parley ships simplified Chinese only
    for name in wanted:
        language = name.split("_")[0]
        for code in (name, *[code for code in SHIPPED if code.split("_")[0] == language]):
            if code in SHIPPED:
                return code
        if language == ENGLISH:
            return ENGLISH
    return ENGLISH


def install(app: QApplication, choice: str = "") -> str:
    """Show the interface in ``choice`` (a code of ``NATIVE_NAMES``; "": the system's language)
    from now on; returns the language used.  Widgets made before keep their words."""
    global _language
    _language = language = pick_language(choice)
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    own = translations_folder() / f"parley_{language}.qm"  # English's holds its plural forms only
    qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    wanted = [(f"parley_{language}", str(own.parent))]
    if language != ENGLISH:
        wanted.append((f"qtbase_{language}", qt_folder))
    for name, folder in wanted:
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            _installed.append(translator)
        else:
            log.warning("no translation %s.qm in %s", name, folder)
    if not own.exists():
        log.warning("Parley's %s translation is not built (packaging/translations.py)", language)
    locale = QLocale(language)
    QLocale.setDefault(locale)
    app.setLayoutDirection(locale.textDirection())
    log.info("interface language: %s", language)
    return language


def current_language() -> str:
    """The language ``install`` chose last (English before it ran)."""
    return _language


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``QCoreApplication.translate``, for words outside a class (``pyside6-lupdate`` reads any
    call named ``translate`` with a literal context and text)."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def size(n: float) -> str:
    """A size in the locale's digits and separators: "4.9 GB", "398 MB" ("4,9 GB" in German)."""
    precision = 1 if n >= 1e9 else 0
    return QLocale().formattedDataSize(int(n), precision, QLocale.DataSizeFormat.DataSizeSIFormat)


def percent(fraction: float) -> str:
    """A share, as the locale writes one: "42%", "42 %" in French, "٤٢٪" in Arabic."""
    locale = QLocale()
    number = locale.toString(round(fraction * 100))
    return translate("Units", "{number}{percent}").format(number=number, percent=locale.percent())


def number(value: float, decimals: int = 1) -> str:
    """A number with ``decimals`` digits after the locale's decimal sign."""
    return QLocale().toString(float(value), "f", decimals)


def duration(seconds: float) -> str:
    """A time left: "42 s", "3 min 05 s", "1 h 20 min", in the interface's words."""
    whole = int(seconds + 0.5)
    if whole < 60:
        return translate("Units", "{s} s").format(s=whole)
    if whole < 3600:
        return translate("Units", "{m} min {s} s").format(m=whole // 60, s=f"{whole % 60:02d}")
    return translate("Units", "{h} h {m} min").format(h=whole // 3600, m=f"{whole % 3600 // 60:02d}")
