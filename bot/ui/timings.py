"""Names of the tempos and of the timed parts of a game, for the lobby, /settings and the table.
Pure functions; every string is translatable.  Which timings a game uses is the game's own
``timing_keys`` (``bot/games/*``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .i18n import Gettext

#: SCORE-X11: a judge's draft score sheet publishes itself this long after the game's end, with
#: no additional points (bot/history/sheets.py)
SHEET_PUBLISH_AFTER = timedelta(minutes=15)
#: SCORE-X13: how long after its publication the judge may correct a score sheet
SHEET_CORRECTIONS_FOR = timedelta(hours=24)

TEMPO_NAMES = {"short": "Short", "normal": "Normal", "detailed": "Detailed"}


def tempo_name(_: Gettext, tempo: str) -> str:
    return {"short": _("Short"), "normal": _("Normal"), "detailed": _("Detailed")}.get(tempo, tempo)


def timing_labels(_: Gettext) -> dict[str, str]:
    return {"discussion": _("discussion {n} s"), "speech": _("speech {n} s"),
            "defence": _("defence {n} s"), "last_word": _("last word {n} s"),
            "vote": _("vote {n} s"), "lift": _("lift vote {n} s"), "night": _("night {n} s"),
            "meeting": _("mafia meeting {n} s"), "forum_day": _("discussion {n} s"),
            "forum_vote": _("vote {n} s"), "cop": _("the Cop's turn {n} s"),
            "forum_night": _("night {n} s"), "turn": _("turn {n} s")}


def timings_text(_: Gettext, timings: dict, keys: Iterable[str]) -> str:
    """The durations ``keys`` name, e.g. "speech 60 s · defence 30 s · …" (seconds); a key
    the settings do not set (or set to 0) is left out."""
    labels = timing_labels(_)
    return " · ".join(labels[k].format(n=timings[k]) for k in keys if timings.get(k))
