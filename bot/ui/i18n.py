"""Translations: gettext catalogues in ``locales/<lang>/LC_MESSAGES/messages.po`` (Babel).

Catalogues are compiled to ``.mo`` with Babel when missing or older than the ``.po`` (so a fresh
checkout needs no build step), then loaded with aiogram's :class:`~aiogram.utils.i18n.I18n`.
The locale is chosen per group chat (``/settings``); private messages of a game use its group's.

Extraction (maintainers): ``python -m bot.ui.i18n_tools update`` (or by hand:
``pybabel extract -F babel.cfg -k _ -k N_ -k ngettext:1,2 -o locales/messages.pot bot``, then
``pybabel update -i locales/messages.pot -d locales -D messages``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aiogram.utils.i18n import I18n
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"
DOMAIN = "messages"
SUPPORTED_LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


def compile_catalogues(path: Path = LOCALES_DIR) -> None:
    """Compile every ``.po`` under ``path`` whose ``.mo`` is missing or stale."""
    for po in path.glob(f"*/LC_MESSAGES/{DOMAIN}.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        with mo.open("wb") as f:
            write_mo(f, catalog)


#: ``_(message) -> translated message``: one locale's gettext (:meth:`Translator.get`)
Gettext = Callable[[str], str]
#: ``ngettext(singular, plural, n) -> translated message``: one locale's (:meth:`Translator.nget`)
NGettext = Callable[[str, str, int], str]


class Translator:
    """Per-locale ``gettext``: ``tr.get("en")("Night {n}").format(n=2)``.

    The functions are made once per locale and kept: a handler asks for one on every update (a
    closure over aiogram's ``I18n.gettext`` per call before, which looked the locale up again for
    every string); they are the catalogues' own bound ``gettext``/``ngettext``, and for a locale
    without a catalogue they return the message itself, as aiogram's ``I18n.gettext`` does."""

    def __init__(self, path: Path = LOCALES_DIR, default_locale: str = DEFAULT_LOCALE) -> None:
        compile_catalogues(path)
        self.i18n = I18n(path=path, default_locale=default_locale, domain=DOMAIN)
        self.default_locale = default_locale
        self._gettext: dict[str, Callable[[str], str]] = {}
        self._ngettext: dict[str, Callable[[str, str, int], str]] = {}

    def locale(self, locale: str | None) -> str:
        return locale if locale in SUPPORTED_LOCALES else self.default_locale

    def get(self, locale: str | None) -> Callable[[str], str]:
        loc = locale if locale in SUPPORTED_LOCALES else self.default_locale
        try:
            return self._gettext[loc]
        except KeyError:
            catalogue = self.i18n.locales.get(loc)
            fn = self._gettext[loc] = catalogue.gettext if catalogue is not None else _same
            return fn

    def nget(self, locale: str | None) -> Callable[[str, str, int], str]:
        loc = self.locale(locale)
        try:
            return self._ngettext[loc]
        except KeyError:
            catalogue = self.i18n.locales.get(loc)
            fn = self._ngettext[loc] = (catalogue.ngettext if catalogue is not None
                                        else _same_plural)
            return fn


def nget_of(gettext: Callable[[str], str]) -> Callable[[str, str, int], str]:
    """The ``ngettext`` of the catalogue whose ``gettext`` is ``gettext`` (what
    :meth:`Translator.get` hands out: the catalogue's bound method), so that a view given only
    ``_`` agrees a count with its noun: ``nget_of(_)("{n} vote", "{n} votes", n)``; without a
    catalogue, the English singular for 1 and the plural otherwise."""
    catalogue = getattr(gettext, "__self__", None)
    ngettext = getattr(catalogue, "ngettext", None)
    return ngettext if callable(ngettext) else _same_plural


def _same(message: str) -> str:
    return message


def _same_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else (plural or singular)
