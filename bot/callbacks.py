"""Callback data of every inline keyboard (≤ 64 bytes each, aiogram ``CallbackData``).

Game buttons name the game, the phase they were offered in (``s`` = ``phase_seq``; 0 = any phase),
the action and a target seat (0 = none).  The service accepts a press only if it matches what the
current phase offers that user (design.md §5).
"""

from __future__ import annotations

from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

#: a game id as the database holds it (BIGINT); forged data outside it is no button of ours
GameId = Annotated[int, Field(ge=0, lt=2**63)]


class Act(CallbackData, prefix="a"):
    """In-game action. ``a``: a button code of the game's codec (``bot/games/<name>/codec.py``;
    the mafia presets share ready | cont | end | nom | vote | exy | exn | kill | check | heal |
    sleep | pause | resume | next); ``t``: a seat, 0 = none."""

    g: GameId
    s: int
    a: str
    t: int = 0


class LobbyAct(CallbackData, prefix="l"):
    """Lobby button. ``a``: leave | start | cancel | tempo (``v`` = tempo name) | unhost."""

    g: GameId
    a: str
    v: str = ""


class Cfg(CallbackData, prefix="c"):
    """/settings button. ``a``: lang | tempo | doctor | save; ``v``: the new value."""

    a: str
    v: str = ""


class Hist(CallbackData, prefix="h"):
    """/history button. ``a``: l (list page ``p``) | m (page ``p`` of a user's own games, in
    a private chat) | p (protocol page ``p`` of game ``g``) |
    r (replay step ``p``; a game with its own history: a new board message) | rb (board
    ``p`` of that replay, edited in place) | kn (send me "what I knew") | k (step ``p`` of "what I knew", in a
    private chat) | x (export) | d (ask to delete) | dy (delete, confirmed). ``b``: the list page
    to go back to."""

    a: str
    g: GameId = 0
    p: int = 0
    b: int = 0
