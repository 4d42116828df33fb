"""The club preset's bot side (docs/rules/club-sport.md): the judge's console and the
checks' codes on top of the shared mafia presentation."""

from __future__ import annotations

from ..mafia.deal import deal
from ..spec import BotGame
from .codec import ClubCodec
from .discipline import may_write
from .presenter import ClubPresenter
from .webapp import VIEW as WEBAPP

GAME = BotGame(name="club", deal=deal, presenter=ClubPresenter, codec=ClubCodec(),
               chat_policy=may_write,
               webapp=WEBAPP)
