"""ONLINE-41: one player's messages in this game, as the bot saw them (``/said 4`` in DM).

Telegram lets a person filter a chat by member, but gives bots no link to that search, so the
bot keeps what it saw itself: every plain group text of a seated player of a running game that
stayed in the chat (``handlers/discipline.py`` records it; a message the bot deleted as out of
turn is not kept) and the last words it published for him (ONLINE-42). A bot sees group texts
only while it is an admin or its privacy mode is off; the answer says so.

Kept in memory with the game (``LiveGame.refs["said"]``: user id -> list of ``(time, text)``,
time an aware UTC datetime), at most :data:`KEEP` messages a player, each cut to
:data:`TEXT_LIMIT` characters: a restart starts the record afresh (the answer names the time it
starts from), which keeps the group's chat out of the database.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING

from engine import GameState

from ..ui.texts import label
from .live import LiveGame

if TYPE_CHECKING:
    from ..ui.i18n import Gettext

KEEP = 100  # messages kept per player
TEXT_LIMIT = 300  # characters kept per message
SHOWN = 30  # newest messages shown by one /said


def record(g: LiveGame, user_id: int, text: str, at: datetime | None = None) -> None:
    """Keep ``text`` (a group message or a published last word) of a seated player."""
    st = g.state
    p = st.players.get(user_id) if st is not None else None
    if p is None or not getattr(p, "seat", True) or not text:  # NOIR: no seats
        return
    said = g.refs.setdefault("said", {})
    said.setdefault("since", at or datetime.now(UTC))
    lines = said.setdefault(user_id, [])
    lines.append((at or datetime.now(UTC), text[:TEXT_LIMIT]))
    del lines[:-KEEP]


def since(g: LiveGame) -> datetime | None:
    """When the record of this game starts (the first message seen), or None."""
    return (g.refs.get("said") or {}).get("since")


def messages(g: LiveGame, user_id: int) -> list[tuple[datetime, str]]:
    return list((g.refs.get("said") or {}).get(user_id, []))


def said_text(_: Gettext, st: GameState, user_id: int, lines: list[tuple[datetime, str]],
              start: datetime | None) -> str:
    """The answer to ``/said n``: the newest :data:`SHOWN` messages with their times (UTC)."""
    who = label(st, user_id)
    note = _("I see the group's messages only while I am an admin there or my privacy mode is "
             "off, and bots cannot link to Telegram's search by member: this is only what I "
             "saw.")
    if start is not None:
        note += " " + _("My record starts at {time} UTC.").format(time=start.strftime("%H:%M"))
    if not lines:
        return _("💬 I have no messages of {player} in this game.").format(player=who) + \
            "\n" + note
    head = _("💬 Messages of {player} in this game ({n}):").format(player=who, n=len(lines))
    if len(lines) > SHOWN:
        head += " " + _("the last {k} of them.").format(k=SHOWN)
    body = [f"<i>{at.strftime('%H:%M')}</i> {escape(text)}" for at, text in lines[-SHOWN:]]
    return "\n".join([head, *body, "", note])
