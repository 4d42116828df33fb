"""User names in the bot's texts: bidi isolation, invisible names, renames (issue 10, item 4).

Every user name the bot writes goes through :func:`isolate` (HTML) or :func:`isolate_plain`
(button labels): it is wrapped in FIRST STRONG ISOLATE U+2068 … POP DIRECTIONAL ISOLATE U+2069,
so a right-to-left name, or one with an RTL override (U+202E), cannot reorder the rest of a
one-line list; the isolate characters a name brings itself are dropped so it cannot close ours
early, and control characters (newlines) become spaces.

A name that shows nothing once zero-width, format (Unicode category ``Cf``), space and control
characters and the known blank letters (Hangul fillers, braille blank) are removed is
*invisible*; it gets a translated fallback: ``Player 6`` by seat, ``Player 4821`` (the last
digits of the user id, stable for the whole lobby) before seats are dealt, ``Host`` for a host.

Where names live: the engine keeps the name each player joined with (``Join.name``, the log is
the truth and stays as it was). The bot keeps a name map per game (:attr:`LiveGame.raw_names`,
renames persisted in ``games.ui["names"]``) and gives the presenter and the handlers a cached
state whose ``Player.name`` / ``host_name`` are the *current* display names
(:func:`with_names`). The engine never reads names, so this is presentation only.
"""

from __future__ import annotations

import copy
import logging
import unicodedata
from collections.abc import Callable, Mapping
from functools import lru_cache
from html import escape
from typing import Any

from engine import Phase

logger = logging.getLogger(__name__)
FSI, PDI = "\u2068", "\u2069"
#: letters that render as blank space although they are not spaces or format characters
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
ISOLATES = frozenset("\u2066\u2067\u2068\u2069")
NAME_LIMIT = 64  # characters kept of a name


@lru_cache(maxsize=65536)  # pure, and asked for every name at every command
def visible(name: str | None) -> bool:
    """True if ``name`` shows at least one character (see the module docstring)."""
    for ch in name or "":
        if ch in BLANK_LETTERS:
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me"):
            continue
        return True
    return False


@lru_cache(maxsize=65536)  # pure, and asked for every name at every command
def tidy(name: str | None, limit: int = NAME_LIMIT) -> str:
    """``name`` without isolate characters, with control characters (newlines) as spaces,
    stripped and cut to ``limit`` characters."""
    out = []
    for ch in name or "":
        if ch in ISOLATES:
            continue
        out.append(" " if unicodedata.category(ch) == "Cc" else ch)
    return "".join(out).strip()[:limit]


@lru_cache(maxsize=65536)  # pure, and asked for every name at every command
def isolate_plain(name: str | None, fallback: str = "?", limit: int = NAME_LIMIT) -> str:
    """``⁨name⁩`` for plain text (button labels): tidied and isolated; ``fallback`` (not isolated)
    when the name is invisible."""
    text = tidy(name, limit)
    return f"{FSI}{text}{PDI}" if visible(text) else fallback


@lru_cache(maxsize=65536)  # pure, and asked for every name at every command
def isolate(name: str | None, fallback: str = "?", limit: int = NAME_LIMIT) -> str:
    """The HTML form of :func:`isolate_plain`: the name is HTML-escaped, ``fallback`` too."""
    text = tidy(name, limit)
    return f"{FSI}{escape(text)}{PDI}" if visible(text) else escape(fallback)


def fallback(_: Callable[[str], str], user_id: int, host: bool = False) -> str:
    """The visible name of a user whose own name is invisible (translated): one per user, the
    same in the lobby, at the table and in every message (issue 20: "Player 5" in the lobby was
    "Player 2" at the table); the table puts his seat in front of it anyway."""
    if host:
        return _("Host")
    return _("Player {n}").format(n=abs(user_id) % 10000)


def display(_: Callable[[str], str], raw: str, user_id: int, host: bool = False) -> str:
    """What the bot calls a user: his name tidied, or :func:`fallback` when it is invisible.
    Not escaped, not isolated (the renderers do both)."""
    text = tidy(raw)
    return text if visible(text) else fallback(_, user_id, host)


def with_names(st: Any, raw: Mapping[int, str], _: Callable[[str], str]) -> Any:
    """``st`` with each player's and the host's current display name (see :func:`display`).

    ``raw`` maps user ids to their current names (a user missing from it keeps the name in
    ``st``). Returns ``st`` itself when nothing changes, otherwise a shallow copy whose changed
    ``Player`` objects are copies: the states the engine produced are never modified.
    """
    if st is None:
        return st
    changed = {}
    for uid, p in st.players.items():
        name = display(_, raw.get(uid, p.name), uid)
        if name != p.name:
            q = copy.copy(p)
            q.name = name
            changed[uid] = q
    host_name = st.host_name
    if st.host is not None and st.host not in st.players:
        host_name = display(_, raw.get(st.host, st.host_name), st.host, host=True)
    if not changed and host_name == st.host_name:
        return st
    new = copy.copy(st)
    if changed:
        new.players = {uid: changed.get(uid, p) for uid, p in st.players.items()}
    new.host_name = host_name
    return new


def show_names(presenter: Any, g: Any) -> None:
    """Edit game ``g``'s lobby or table message to its current names (after a rename). Not at
    night: the table stays as it was then (a player's return must not show who acted)."""
    st, tr = g.state, getattr(presenter, "tr", None)
    if st is None or tr is None or st.phase is Phase.NIGHT:
        return
    _ = tr.get(g.locale)
    try:
        game = presenter.game(st.ruleset)  # the game's own presenter renders its messages
        if st.phase is Phase.LOBBY and g.ui.get("lobby"):
            game.refresh_lobby(g, _, st)
        elif st.phase is not Phase.LOBBY:
            game.refresh_table(g, _, st)
    except Exception:  # a rendering bug must not stop the update
        logger.exception("game %s: showing new names failed", g.id)
