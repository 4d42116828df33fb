"""NOIR's bot side (docs/rules/noir.md, issue 9): the lobby (``lobby.py``), the board
(``board.py``: picture and text grid) and its caption (``views.py``), the identity cards, the
DM menus and cell pickers (``menus.py``, ``picker.py``, ``dms.py``) whose presses the codec turns
into drafts and commands (``codec.py``, ``choices.py``, ``drafting.py``), the group's news
(``news.py``), the presenter and the deal."""

from __future__ import annotations

from engine.noir.rules import TIMING_LIMITS

from ..spec import BotGame
from .codec import NoirCodec
from .deal import deal
from .history import HISTORY
from .presenter import NoirPresenter
from .webapp import VIEW

#: the timings a chat may set for NOIR: ``/settings turn 90`` (NOIR-Q21)
CHAT_TIMINGS = {"turn": TIMING_LIMITS["turn"]}


#: the words ``/newgame noir <word>`` takes -> the option they switch on
WORDS = {"strict": "strict_accusation"}  # NOIR-Q01: an accusation names the role too


def settings_from(data: dict, words: list[str]) -> dict:
    """NOIR's CreateGame settings from a chat's stored settings: only its own timings
    (``timings_of["noir"]``, set by ``/settings turn 90``; the mafia presets' tempo, timings
    and options are not NOIR's) and the options named after ``/newgame noir`` (``strict``).
    Raises ValueError(word) for another word."""
    own = (data.get("timings_of") or {}).get("noir") or {}
    options = {}
    for word in words:
        key = WORDS.get(word.lower().strip(","))
        if key is None:
            raise ValueError(word)
        options[key] = True
    return {"timings": {k: int(v) for k, v in own.items() if k in CHAT_TIMINGS},
            "options": options}


GAME = BotGame(name="noir", presenter=NoirPresenter, codec=NoirCodec(), deal=deal,
               has_host=False, timing_limits=CHAT_TIMINGS, settings_from=settings_from,
               history=HISTORY, webapp=VIEW)
