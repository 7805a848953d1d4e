"""Which language a page speaks: the catalogues, a page's visible text, and the detector of
another language's messages in it (shared by the tests of i18n and of the checker's pages)."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pdfplumber
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorer" / "translations"
# The languages with a catalogue (English is the source), and every language a page speaks.
TRANSLATED = ("fr", "es")
LANGUAGES = ("en", *TRANSLATED)
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


def load_catalogue(language: str = "fr") -> Any:
    with po_path(language).open("rb") as handle:
        return read_po(handle)


def forms(message: Any) -> tuple[tuple[str, str], ...]:
    """(English, translated) pairs of a catalogue message, plural forms included."""
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if len(ids) == 2 and len(strings) == 2:
        return tuple(zip(ids, strings, strict=True))
    return tuple((ids[-1], string) for string in strings)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip
HIDDEN = {"script", "style", "template", "noscript"}
SHOWN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")


class VisibleText(HTMLParser):
    """What a reader of the page's language sees or hears: text, titles, labels, buttons.

    Parts marked with another language (the switch's "English") are left out: they are meant
    to be in that language.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.page_lang: str | None = None
        self.stack: list[tuple[str, bool]] = []

    @property
    def skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.page_lang = values.get("lang")
        lang = values.get("lang")
        skip = (
            self.skipping
            or tag in HIDDEN
            or (tag != "html" and lang is not None and lang != self.page_lang)
        )
        if not skip:
            self.parts.extend(values[name] for name in SHOWN_ATTRIBUTES if values.get(name))
            if tag == "input" and values.get("type") in ("submit", "button", "reset"):
                self.parts.append(values.get("value", ""))
        if tag not in VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)

    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return parser.text()


def pdf_text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)


def _literal(message: str) -> str:
    """A message's words without its placeholders, spaces collapsed."""
    return " ".join(PLACEHOLDER.sub("", message).split())


def _pattern(message: str) -> re.Pattern[str] | None:
    """A regex finding a message of one language in a page, its placeholders filled."""
    if not re.search(r"[^\W\d_]{3,}", _literal(message)):
        # Nothing but placeholders, digits, punctuation and short words ("de %(low)s a
        # %(high)s"): such a pattern would find its few letters in any page of another language.
        return None
    chunks = PLACEHOLDER.split(message.replace("%%", "%"))
    parts = [re.escape(re.sub(r"\s+", " ", chunk)) for chunk in chunks]
    body = r".+?".join(parts)
    start = r"(?<!\w)" if re.match(r"\w", message) else ""
    end = r"(?!\w)" if re.search(r"\w$", message) else ""
    return re.compile(start + body + end)


def translated_messages() -> list[dict[str, str]]:
    """Each form of each message, in every language that has it: {"en": ..., "fr": ..., ...}."""
    by_form: dict[tuple[str, int], dict[str, str]] = {}
    for language in TRANSLATED:
        for message in load_catalogue(language):
            if not message.id:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            for index, (english, translated) in enumerate(forms(message)):
                by_form.setdefault((msgid, index), {"en": english})[language] = translated
    return list(by_form.values())


# Plainly English words that no French or Spanish sentence of ours uses (catches strings never
# wrapped in _(), which the catalogues cannot know about).
ENGLISH_WORDS = {
    "the", "and", "with", "your", "you", "this", "that", "of", "to", "is", "are", "for",
    "game", "games", "hand", "hands", "side", "sides", "new", "add", "save", "delete",
    "edit", "back", "cancel", "next", "player", "players", "winner", "undo", "remove",
    "print", "rules", "sheet", "went", "out", "deals", "dealer", "team", "teams", "start",
    "yes", "won", "wins", "home", "not", "found", "something", "wrong", "red",
    "threes", "cards", "meld", "melded", "left", "concealed", "going", "target", "below",
}  # fmt: skip
FRENCH_WORDS = {
    "le", "la", "les", "des", "une", "avec", "pour", "partie", "donne", "camp", "camps",
    "joueur", "joueurs", "règles", "trois", "rouges", "cartes", "posées", "sortie", "main",
    "nouvelle", "enregistrer", "supprimer", "modifier", "retour", "annuler", "objectif",
}  # fmt: skip
SPANISH_WORDS = {
    "el", "los", "las", "del", "con", "para", "una", "partida", "partidas", "mano", "manos",
    "bando", "bandos", "jugador", "jugadores", "reglas", "tres", "rojos", "cartas", "bajadas",
    "bajada", "cierre", "cerró", "nueva", "guardar", "borrar", "quitar", "deshacer", "volver",
    "cancelar", "meta", "equipo", "equipos", "puntos", "premio", "premios", "mínimo", "nadie",
    "anotador", "planilla", "marcador", "repartidor", "limpia", "sucia",
}  # fmt: skip
STRAY_WORDS = {"en": ENGLISH_WORDS, "fr": FRENCH_WORDS, "es": SPANISH_WORDS}
# Words of another language's list that are this language's own words too.
SHARED_WORDS = {"es": {"la", "le", "red"}}  # "red": the network, in Spanish


ADDRESS = re.compile(r"https?://\S+")


def words(text: str) -> set[str]:
    """The words of a text; an address shown as text (Add a phone) is no word of ours."""
    return set(re.findall(r"[^\W\d_]+", ADDRESS.sub(" ", text)))


def stray_words(language: str) -> set[str]:
    """Words that betray another language in text meant to be in this one."""
    others = set().union(*(STRAY_WORDS[other] for other in LANGUAGES if other != language))
    return others - SHARED_WORDS.get(language, set())


class Detector:
    """Finds, in text meant to be in one language, the messages of the others."""

    def __init__(self, messages: list[dict[str, str]]) -> None:
        self.by_language: dict[str, list[tuple[str, str, re.Pattern[str]]]] = {}
        for language in LANGUAGES:
            # A message worded the same as one of this language's (Total, Canastas) cannot
            # betray the other language.
            own = {_literal(wording[language]) for wording in messages if language in wording}
            others = {
                other
                for wording in messages
                for other_language, other in wording.items()
                if other_language != language and _literal(other) not in own
            }
            self.by_language[language] = []
            for other in sorted(others):
                pattern = _pattern(other)
                if pattern is not None:
                    key = max(PLACEHOLDER.split(other.replace("%%", "%")), key=len).strip()
                    self.by_language[language].append((other, " ".join(key.split()), pattern))
        self.stray = {language: stray_words(language) for language in LANGUAGES}

    def leaks(self, text: str, language: str) -> list[str]:
        # The longest literal part is looked up first: a cheap test before the regex.
        found = [
            other
            for other, key, pattern in self.by_language[language]
            if key in text and pattern.search(text)
        ]
        found.extend(f"word: {word}" for word in sorted(words(text) & self.stray[language]))
        return found


def leaks(text: str, language: str, messages: list[dict[str, str]]) -> list[str]:
    """Messages of the other languages found in a page's text."""
    return Detector(messages).leaks(text, language)
