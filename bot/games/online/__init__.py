"""The online preset's bot side (docs/rules/online-sport.md): the open ballot, the lift
decision and the best move on top of the shared mafia presentation."""

from __future__ import annotations

from ..mafia.deal import deal
from ..spec import BotGame
from .codec import OnlineCodec
from .discipline import may_write
from .presenter import OnlinePresenter
from .webapp import VIEW as WEBAPP

GAME = BotGame(name="online", deal=deal, presenter=OnlinePresenter, codec=OnlineCodec(),
               chat_policy=may_write,
               webapp=WEBAPP)
