"""The club (sport) preset's game object (rule IDs in docs/rules/club.md).

The club plays the shared mafia day and night; its rule set switches them to the sport rules (the
mafia's meeting, the vote right after the speeches, silent votes to the last nominee, a night of
fixed length, checks at dawn).  Its own commands are the judge's tools: fouls, disqualification,
undoing a nomination (:mod:`.fouls`).
"""

from __future__ import annotations

from ..mafia.commands import Disqualify
from ..mafia.variant import MafiaVariant
from . import fouls
from .commands import CancelFoul, IssueFoul, UndoNomination
from .rules import CLUB


class ClubVariant(MafiaVariant):
    rules = CLUB
    handlers = {**MafiaVariant.handlers, IssueFoul: fouls.issue_foul,
                Disqualify: fouls.disqualify, CancelFoul: fouls.cancel_foul,
                UndoNomination: fouls.undo_nomination}
