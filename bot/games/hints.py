"""The names the games' bot packages annotate with (types only, nothing runs here).

``Gettext``: a ``gettext`` bound to one locale (``Translator.get``); ``NGettext``: its plural
form (``Translator.nget``: singular, plural, count).  The shared presenter (``Out``) and the
live game (``Live``) are imported for type checking only: ``bot.presenter`` imports this
package at run time."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..presenter import Presenter as Out
    from ..service import LiveGame as Live

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]

__all__ = ["Gettext", "Live", "NGettext", "Out"]
