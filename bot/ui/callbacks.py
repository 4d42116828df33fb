"""Callback data of every inline keyboard (≤ 64 bytes each, aiogram ``CallbackData``).

Handlers take presses with :class:`Pressed` (aiogram's ``X.filter()``, made cheaper); the
classes pack themselves with :class:`FastPack` (aiogram's ``pack()``, the same string, cheaper).

Game buttons name the game, the phase they were offered in (``s`` = ``phase_seq``; 0 = any phase),
the action and a target seat (0 = none).  The service accepts a press only if it matches what the
current phase offers that user (design.md §5).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

from aiogram.filters import Filter
from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH, CallbackData
from aiogram.types import CallbackQuery
from pydantic import ConfigDict, Field


class FastPack:
    """Mixin for our ``CallbackData`` classes (put it first among the bases): ``pack()`` gives
    exactly aiogram's string — the prefix, then every field in declaration order, ``str()`` of
    each, joined by the separator — and raises the same ``ValueError`` for a value holding the
    separator or a result over 64 bytes. aiogram's own ``pack`` dumps the model with pydantic
    and encodes each value through a chain of type checks (a keyboard packs up to 12 buttons,
    and every update packs ~4); this one reads the validated fields directly, in a third of the
    time.
    A value that is not exactly an ``int`` or a ``str`` (a bool, an enum, None...) is packed by
    aiogram's ``pack``, whose encodings differ from ``str()``."""

    __slots__ = ()

    def pack(self) -> str:
        cls = type(self)
        sep = cls.__separator__  # type: ignore[attr-defined]
        parts = [cls.__prefix__]  # type: ignore[attr-defined]
        for value in self.__dict__.values():  # pydantic keeps the fields in declaration order
            kind = type(value)
            if kind is str:
                if sep in value:
                    return super().pack()  # type: ignore[misc]  # raises aiogram's error
                parts.append(value)
            elif kind is int:
                parts.append(str(value))
            else:
                return super().pack()  # type: ignore[misc]
        packed = sep.join(parts)
        if len(packed.encode()) > MAX_CALLBACK_LENGTH:
            return super().pack()  # type: ignore[misc]  # raises aiogram's error
        return packed


#: a game id as the database holds it (BIGINT); forged data outside it is no button of ours
GameId = Annotated[int, Field(ge=0, lt=2**63)]


class Act(FastPack, CallbackData, prefix="a"):
    """In-game action. ``a``: a button code of the game's codec (``bot/games/<name>/codec.py``;
    the mafia presets share ready | cont | end | nom | vote | exy | exn | kill | check | heal |
    sleep | pause | resume | next); ``t``: a seat, 0 = none."""

    model_config = ConfigDict(frozen=True)

    g: GameId
    s: int
    a: str
    t: int = 0


class LobbyAct(FastPack, CallbackData, prefix="l"):
    """Lobby button. ``a``: leave | start | cancel | tempo (``v`` = tempo name) | unhost."""

    model_config = ConfigDict(frozen=True)

    g: GameId
    a: str
    v: str = ""


class Cfg(FastPack, CallbackData, prefix="c"):
    """/settings button. ``a``: lang | tempo | doctor | save | score (a named scoring system,
    SCORE-X23); ``v``: the new value."""

    model_config = ConfigDict(frozen=True)

    a: str
    v: str = ""


class Hist(FastPack, CallbackData, prefix="h"):
    """/history button. ``a``: tp / te (the /top message: its points / its Elo view) |
    l (list page ``p``) | lt (page ``p`` of tournament ``g``'s games) | m (page ``p`` of a
    user's own games, in
    a private chat) | p (protocol page ``p`` of game ``g``) |
    r (replay step ``p``; a game with its own history: a new board message) | rb (board
    ``p`` of that replay, edited in place) | kn (send me "what I knew") | k (step ``p`` of "what I knew", in a
    private chat) | pp (the protocol picture of a club or online game, a new photo) | x (export) |
    d (ask to delete) | dy (delete, confirmed). ``b``: the list page
    to go back to."""

    model_config = ConfigDict(frozen=True)

    a: str
    g: GameId = 0
    p: int = 0
    b: int = 0


class Sheet(FastPack, CallbackData, prefix="sh"):
    """The judge's score sheet of game ``g`` in his private chat (issue 21, SCORE-X10..X15).
    ``a``: s (select seat ``t``) | + / - (one step more / less of seat ``t``'s additional
    points) | 0 (seat ``t`` back to none) | pub (publish the draft) | cor (open a correction of
    the published sheet) | sv (save the correction) | cx (drop the correction)."""

    model_config = ConfigDict(frozen=True)

    a: str
    g: GameId
    t: Annotated[int, Field(ge=0, le=99)] = 0


class Pressed(Filter):
    """Filter: a press whose data parses as ``data_cls`` (one of the classes above); injects the
    parsed ``callback_data``. The same answers as aiogram's ``data_cls.filter()``, cheaper: a
    press of another kind is told by its prefix without parsing it (aiogram parses every
    candidate and raises inside), and a parse is memoised (:func:`parse`), so the two handlers
    that read a game press (the onlookers' and the game's) parse it once."""

    __slots__ = ("data_cls", "head")

    def __init__(self, data_cls: type[CallbackData]) -> None:
        self.data_cls = data_cls
        self.head = data_cls.__prefix__ + data_cls.__separator__

    def __str__(self) -> str:
        return f"Pressed({self.data_cls.__name__})"

    async def __call__(self, query: CallbackQuery) -> Literal[False] | dict[str, Any]:
        data = query.data if isinstance(query, CallbackQuery) else None
        if not data or not data.startswith(self.head):
            return False  # another prefix: unpack would refuse it too
        parsed = parse(self.data_cls, data)
        return False if parsed is None else {"callback_data": parsed}


@lru_cache(maxsize=4096)
def parse(data_cls: type[CallbackData], data: str) -> CallbackData | None:
    """``data_cls.unpack(data)``, or None when ``data`` is not such a button (a wrong field
    count or prefix, a value out of range: forged or stale bytes). Memoised: the classes are
    frozen, so one parsed press is shared safely (4,096 entries of ≤ 64-byte strings)."""
    try:
        return data_cls.unpack(data)
    except (TypeError, ValueError):  # pydantic's ValidationError is a ValueError
        return None


class Tour(FastPack, CallbackData, prefix="tn"):
    """/tournament button (issue 22). ``a``: close (the registration) | draw (the seating);
    ``t``: the tournament id."""

    model_config = ConfigDict(frozen=True)

    a: str
    t: GameId = 0


class TourGo(FastPack, CallbackData, prefix="tg"):
    """«▶️ Start round N» (issue 22, bot/handlers/tournament_start.py): open round ``r`` of
    tournament ``t`` at table ``n`` — only in the group the press comes from, which must be
    table ``n``'s (a forged table is answered as out of date)."""

    model_config = ConfigDict(frozen=True)

    t: GameId
    r: Annotated[int, Field(ge=1, lt=2**31)]
    n: Annotated[int, Field(ge=1, lt=2**31)]
