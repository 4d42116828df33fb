"""Group chat discipline: who may write in the group right now (CLUB-06/14, ONLINE-35/38, Q18).

:func:`may_write` is a pure policy over the engine state; ``bot/handlers/discipline.py`` applies
it to the plain group messages the bot sees (all of them when it is an admin, otherwise only
replies to it) and deletes or reports what breaks it.

The policy of a preset is its bot package's ``chat_policy`` (``bot/games/<preset>/discipline.py``:
club CLUB-06/14/37, online ONLINE-35/38/Q11/Q18, forum FORUM-16); a preset without one (party,
PARTY-Q24) plays on the honour system: everyone may always write, the bot never deletes.

Everywhere: outside a running game anyone may write; the host and the organiser always may (they
run the table); while the game is paused every living player may (a technical break). A phase
this module does not know lets every living player write, so a new phase never silences a table
by mistake.
"""

from __future__ import annotations

from enum import Enum

from engine import GameState, Phase

from ..games import GAMES

#: Characters of last word a speaker may have published through his private chat, per turn.
LAST_WORD_LIMIT = 1000
#: Private messages per last-word turn that are published (protects the group's budget).
LAST_WORD_PARTS = 3


def _phase(st: GameState) -> str:
    phase = st.phase
    return phase.value if isinstance(phase, Enum) else phase


def preset_name(preset: object) -> str:
    """A rule set, or its name, as the name ``may_write`` dispatches on."""
    return str(getattr(preset, "name", preset) or "")


def may_write(st: GameState, user_id: int, preset: object) -> bool:
    """True if ``user_id`` may post in the game's group now under ``preset`` (a rule set or its
    name). Pure: reads only ``st``."""
    name = preset_name(preset)
    game = GAMES.get(name)
    policy = game.chat_policy if game is not None else None
    if policy is None:
        return True  # party and any game without a chat policy: the honour system
    phase = _phase(st)
    if st.over or phase == Phase.LOBBY.value:
        return True
    if user_id is not None and user_id in (st.host, st.organiser) and not _seated(st, user_id):
        return True
    if phase in ("last_word", "defence") and user_id == st.speaker:
        return True  # the dead speaker's last word included
    p = st.players.get(user_id)
    if p is None or not p.seat or not p.alive:
        return False  # onlookers and the eliminated (CLUB-06, ONLINE-Q18)
    if st.pause is not None:
        return True
    return policy(st, user_id, phase)


def _seated(st: GameState, user_id: int) -> bool:
    p = st.players.get(user_id)
    return bool(p and p.seat)


def last_word_speaker(st: GameState | None, user_id: int) -> bool:
    """True while ``user_id`` has the floor for his last word (paused or not)."""
    return (st is not None and not st.over and _phase(st) == Phase.LAST_WORD.value
            and st.speaker == user_id)


__all__ = ["LAST_WORD_LIMIT", "LAST_WORD_PARTS", "last_word_speaker", "may_write", "preset_name"]
