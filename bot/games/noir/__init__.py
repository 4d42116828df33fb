"""NOIR's bot side (docs/rules/noir.md, issue 9): the board (``board.py``: picture and text
grid), its caption and the identity cards (``views.py``), the presenter, the deal.  Not offered
to users yet: ``/newgame noir`` waits for the DM action menus (issue 9, step 4)."""

from __future__ import annotations

from ..spec import BotGame
from .codec import NoirCodec
from .deal import deal
from .history import HISTORY
from .presenter import NoirPresenter

GAME = BotGame(name="noir", presenter=NoirPresenter, codec=NoirCodec(), deal=deal,
               history=HISTORY)
