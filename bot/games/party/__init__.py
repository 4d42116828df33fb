"""The party preset's bot side (docs/rules/party.md): the shared mafia presentation and codes as
they are — the party game is what ``bot/games/mafia/`` renders without overrides."""

from __future__ import annotations

from ..mafia.codec import MafiaCodec
from ..mafia.presenter import MafiaPresenter
from ..mafia.deal import deal
from ..spec import BotGame
from ..mafia.webapp import VIEW as WEBAPP

GAME = BotGame(name="party", deal=deal, presenter=MafiaPresenter, codec=MafiaCodec(),
               webapp=WEBAPP)
