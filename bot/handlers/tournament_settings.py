"""/tournament settings by the organiser (issue 22, docs/tournaments.md): the tie-breaks of the
standings (``/tournament tiebreaks wins,additional,...``, TOUR-X08; checked by
``engine.tournament.check_tie_breaks``) and the judges (``/tournament judge``: reply or user ID).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from aiogram import Bot
from aiogram.types import Message

from engine.tournament import DEFAULT_TIE_BREAKS, BadTieBreak, check_tie_breaks

from ..storage import TournamentRecord
from .common import Gettext
from .tournament_tables import known, target_of, unknown_id

if TYPE_CHECKING:
    from ..storage import Storage

#: tie-breaks a tournament may set at most (the rest would never decide anything)
MAX_TIE_BREAKS = 8
KNOWN = "wins, additional, best_move, penalties, fouls, average, wins_as:&lt;role&gt;"


def tie_breaks_of(t: TournamentRecord) -> tuple[str, ...]:
    """The tournament's tie-breaks (TOUR-X08): its own, else ``DEFAULT_TIE_BREAKS``."""
    return tuple(t.ui.get("tie_breaks") or DEFAULT_TIE_BREAKS)


async def set_tie_breaks(args: list[str], t: TournamentRecord, storage: Storage,
                         _: Gettext) -> str:
    """``/tournament tiebreaks`` (shows them), ``... default``, or ``... a,b,c`` (commas or
    spaces): the order after the points; a bad name is refused with the known ones."""
    current = ", ".join(tie_breaks_of(t))
    if not args:
        return _("Tie-breaks after the points: {list}. To change: /tournament tiebreaks "
                 "wins,additional,... (known: {known}).").format(list=escape(current),
                                                                 known=KNOWN)
    if t.status == "finished":
        return _("The tournament is finished: its tie-breaks stay.")
    words = [w.strip().lower() for w in " ".join(args).replace(",", " ").split() if w.strip()]
    if words == ["default"]:
        chosen: tuple[str, ...] = DEFAULT_TIE_BREAKS
    else:
        try:
            chosen = check_tie_breaks(words)
        except BadTieBreak as exc:
            return _("Unknown tie-break «{name}». Known: {known} (a role such as "
                     "wins_as:don).").format(name=escape(str(exc.value)), known=KNOWN)
        if len(set(chosen)) != len(chosen) or len(chosen) > MAX_TIE_BREAKS:
            return _("Give each tie-break once, at most {n}.").format(n=MAX_TIE_BREAKS)
    ui = {**t.ui, "tie_breaks": list(chosen)}
    await storage.update_tournament(t.id, ui=ui)
    return _("✅ Tie-breaks after the points: {list}.").format(list=escape(", ".join(chosen)))


async def add_judge(message: Message, args: list[str], t: TournamentRecord, bot: Bot,
                    storage: Storage, _: Gettext) -> str:
    """``/tournament judge`` in reply to a user's message or with his user ID: he becomes a
    judge (he may organise, substitute and judge the tournament's games)."""
    target = target_of(message, args)
    if target is None:
        return _("Reply to the judge's message, or give his user ID: /tournament judge "
                 "&lt;ID&gt;.")
    found = await known(bot, t.chat_id, target)  # trial22: named, not «⚖️ 31100 is a judge»
    if found is None:
        return unknown_id(_, "judge", target[0])
    user_id, name = found
    if user_id in t.judges:
        return _("{name} is a judge already.").format(name=escape(name))
    await storage.update_tournament(t.id, judges=[*t.judges, user_id])
    return _("⚖️ {name} is a judge of «{tournament}».").format(name=escape(name),
                                                              tournament=escape(t.name))
