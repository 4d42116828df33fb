"""The party preset's bot side (docs/rules/party.md): the shared mafia presentation and codes as
they are — the party game is what ``bot/games/mafia/`` renders without overrides."""

from __future__ import annotations

from ..mafia.codec import MafiaCodec
from ..mafia.deal import deal
from ..mafia.presenter import MafiaPresenter
from ..mafia.webapp import VIEW as WEBAPP
from ..spec import BotGame

GAME = BotGame(name="party", deal=deal, presenter=MafiaPresenter, codec=MafiaCodec(),
               webapp=WEBAPP)
