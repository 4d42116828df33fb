"""NOIR's button codec.  NOIR's own buttons (the action menu and the cell picker, issue 9 step 4)
are not built yet, so no NOIR button is ever sent: any press that reaches this codec is forged or
from an older message, and is answered "out of date" without touching the game."""

from __future__ import annotations


class NoirCodec:
    PHASE_BOUND: frozenset[str] = frozenset()
    JUDGE: frozenset[str] = frozenset()
    CONFIRM: dict[str, str] = {}

    async def run(self, press) -> str:
        return press._("This button is out of date.")
