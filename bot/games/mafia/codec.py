"""The button codec of the mafia presets: which button code (``Act.a``) maps to which engine
command, which codes are bound to the phase they were offered in, and the emoji a press is
confirmed with.  The shared handler (``bot/handlers/game.py``) knows none of these codes: it asks
the game's codec (``bot.games.bot_game(name).codec``).  A preset extends :class:`MafiaCodec`
with its own codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import (
    CastExcludeVote,
    CastVote,
    Continue,
    EndSpeech,
    GameState,
    HostNext,
    MarkReady,
    NightAction,
    Nominate,
    Phase,
    Resume,
)
from engine.core.commands import Command

from ...ui.callbacks import Act
from ..spec import Press


def need(target: int | None) -> int:
    """The target of a code in ``TARGETED`` (``MafiaCodec.command`` has resolved its seat, or
    refused the press). Raises ValueError for None: a code missing from ``TARGETED``."""
    if target is None:
        raise ValueError("a targeted code without a target")
    return target


class MafiaCodec:
    """The codes every mafia preset shares: the ready gate, speeches and nominations, the
    vote and the tied-group vote, the party night, pause/resume and the host's «Next»."""

    #: codes refused as "out of date" unless ``Act.s`` is the current ``phase_seq`` (design.md §5)
    PHASE_BOUND: frozenset[str] = frozenset({
        "ready", "cont", "end", "nom", "vote", "exy", "exn", "kill", "check", "heal", "sleep",
        "next"})
    #: the answer shown for an accepted press
    CONFIRM: dict[str, str] = {
        "ready": "✅", "cont": "▶️", "end": "⏹", "nom": "🎯", "vote": "🗳", "exy": "✅",
        "exn": "❌", "kill": "🕶", "check": "🔎", "heal": "💉", "sleep": "💤", "pause": "⏸",
        "resume": "▶️", "next": "⏭"}
    #: codes whose ``Act.t`` names a seat (required)
    TARGETED: frozenset[str] = frozenset({"nom", "vote", "kill", "check", "heal"})
    #: codes whose ``Act.t`` names a seat or is 0 (no target)
    OPTIONAL_TARGET: frozenset[str] = frozenset()
    #: codes only the host may press, or a group admin when there is no host (CLUB-41, CLUB-Q08)
    JUDGE: frozenset[str] = frozenset()

    #: code -> the factory of its engine command: ``factory(uid, target, data)`` (``target``: the
    #: user in seat ``data.t`` for a targeted code, else None; returns None for a forged press).
    #: A table built once, so a press costs a lookup, not a dict of closures.
    COMMANDS: dict[str, Callable[[int, int | None, Act], Any]] = {
        "ready": lambda uid, target, data: MarkReady(user_id=uid),
        "cont": lambda uid, target, data: Continue(user_id=uid),
        "end": lambda uid, target, data: EndSpeech(user_id=uid),
        "nom": lambda uid, target, data: Nominate(user_id=uid, target=need(target)),
        "vote": lambda uid, target, data: CastVote(user_id=uid, target=need(target)),
        "exy": lambda uid, target, data: CastExcludeVote(user_id=uid, yes=True),
        "exn": lambda uid, target, data: CastExcludeVote(user_id=uid, yes=False),
        "kill": lambda uid, target, data: NightAction(user_id=uid, action="kill", target=target),
        "check": lambda uid, target, data: NightAction(user_id=uid, action="check",
                                                       target=target),
        "heal": lambda uid, target, data: NightAction(user_id=uid, action="heal", target=target),
        "sleep": lambda uid, target, data: NightAction(user_id=uid, action="sleep"),
        "resume": lambda uid, target, data: Resume(user_id=uid),
        "next": lambda uid, target, data: HostNext(user_id=uid),
    }

    def command(self, data: Act, uid: int, st: GameState) -> Command | None:
        """The engine command of a press, or None (an unknown code, or a seat that does not
        exist: a forged button)."""
        target = None
        if data.a in self.TARGETED or (data.a in self.OPTIONAL_TARGET and data.t):
            try:
                target = st.by_seat(data.t).user_id
            except KeyError:
                return None
        factory = self.COMMANDS.get(data.a)
        return None if factory is None else factory(uid, target, data)

    async def run(self, press: Press) -> str:
        """Carry a press out; returns the callback answer. Raises ``IllegalCommand`` as the
        engine does."""
        _ = press._
        if press.data.a == "pause":
            await press.service.pause(press.g.id, press.user_id)
            return self.CONFIRM["pause"]
        if press.data.a not in self.COMMANDS:
            return _("This button is out of date.")  # a code no button of ours carries
        if press.data.a == "ready" and press.st.host and press.st.phase is Phase.READY:
            # PARTY-Q14, X27: an old or forged «Ready» at a host's night gate
            return _("The host starts the night: there is nothing to press.")
        cmd = self.command(press.data, press.user_id, press.st)
        if cmd is None:
            return _("You can't choose that player now.")
        await press.service.execute(press.g.id, cmd)
        return self.CONFIRM.get(press.data.a, "✅")
