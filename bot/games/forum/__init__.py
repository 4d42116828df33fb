"""The forum preset's bot side (docs/rules/forum.md): its own phases (the Cop's turn, the open
discussion and ballot, the bonus round, the best player), night roles, moderation and
two-step choices, on top of the shared mafia presentation."""

from __future__ import annotations

from ..mafia.deal import deal
from ..spec import BotGame
from .codec import ForumCodec
from .discipline import may_write
from .presenter import ForumPresenter
from .views import toggled_roles
from .webapp import VIEW as WEBAPP

GAME = BotGame(name="forum", deal=deal, presenter=ForumPresenter, codec=ForumCodec(),
               toggled_roles=toggled_roles, chat_policy=may_write,
               webapp=WEBAPP)
