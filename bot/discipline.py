"""Group chat discipline: who may write in the group right now (CLUB-06/14, ONLINE-35/38, Q18).

:func:`may_write` is a pure policy over the engine state; ``bot/handlers/discipline.py`` applies
it to the plain group messages the bot sees (all of them when it is an admin, otherwise only
replies to it) and deletes or reports what breaks it.

Policy per preset (the rule set's name, ``st.ruleset``):

* ``party``: the honour system; everyone may always write (PARTY-Q24 asks the eliminated to
  keep quiet, but the bot never deletes anything in a party game).
* ``club``: during a speech, defence or last word only the speaker (and not during a
  nomination-only turn after three fouls, CLUB-37); nobody during votes and at night; the
  eliminated and onlookers never (CLUB-06, CLUB-14).
* ``forum``: ``engine.forum.may_write`` -- the living during the discussion, the speaker in
  his last word, nobody otherwise (FORUM-16).
* ``online``: the day discussion (with its vote): every living player; night (and a readiness
  gate): nobody; last word and defence turns (the tied candidates' sub-phases before a revote or
  a lift vote): only the speaker; the revote, the lift vote and the best move: nobody; the
  eliminated and onlookers never (ONLINE-Q18, ONLINE-35, ONLINE-Q11).

Everywhere: outside a running game anyone may write; the host and the organiser always may (they
run the table); while the game is paused every living player may (a technical break). A phase
this module does not know lets every living player write, so a new phase never silences a table
by mistake.
"""

from __future__ import annotations

from engine import GameState, Phase

#: Characters of last word a speaker may have published through his private chat, per turn.
LAST_WORD_LIMIT = 1000
#: Private messages per last-word turn that are published (protects the group's budget).
LAST_WORD_PARTS = 3

_TURNS = ("speech", "defence", "last_word")
_NIGHT = ("night", "ready")
_VOTES = ("voting", "exclude_vote")
#: Online phases in which nobody writes: the night, the votes after a tie (the candidates spoke
#: in their own defence turns, ONLINE-35/Q11) and the best move (engine/online.py).
_ONLINE_CLOSED = ("night", "ready", "revote", "lift_vote", "best_move")


def _phase(st: GameState) -> str:
    return getattr(st.phase, "value", st.phase)


def preset_name(preset) -> str:
    """A rule set, or its name, as the name ``may_write`` dispatches on."""
    return str(getattr(preset, "name", preset) or "")


def may_write(st: GameState, user_id: int, preset) -> bool:
    """True if ``user_id`` may post in the game's group now under ``preset`` (a rule set or its
    name). Pure: reads only ``st``."""
    name = preset_name(preset)
    if name not in ("club", "online", "forum"):
        return True  # party and any preset without a chat policy: the honour system
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
    if name == "club":
        return _club(st, user_id, phase)
    if name == "forum":  # FORUM-16: the discussion, or one's own last word
        from engine.forum import may_write as forum_may_write
        if phase in ("bonus_offer", "bonus", "best_player"):
            return True  # the game is decided: the table may talk
        return forum_may_write(st, user_id)
    return _online(st, user_id, phase)


def _seated(st: GameState, user_id: int) -> bool:
    p = st.players.get(user_id)
    return bool(p and p.seat)


def _club(st: GameState, user_id: int, phase: str) -> bool:
    if phase in _TURNS:
        silenced = st.timer is not None and st.timer.kind == "silenced"  # CLUB-37
        return user_id == st.speaker and not silenced
    if phase in _NIGHT or phase in _VOTES:
        return False
    return True


def _online(st: GameState, user_id: int, phase: str) -> bool:
    if phase in _ONLINE_CLOSED:
        return False
    if phase in ("last_word", "defence"):
        return user_id == st.speaker
    if phase == "speech":  # not an online phase today; a turn if someone has the floor
        return st.speaker is None or user_id == st.speaker
    return True  # the day discussion (ONLINE-Q02), and any phase not known here


def last_word_speaker(st: GameState | None, user_id: int) -> bool:
    """True while ``user_id`` has the floor for his last word (paused or not)."""
    return (st is not None and not st.over and _phase(st) == Phase.LAST_WORD.value
            and st.speaker == user_id)


__all__ = ["LAST_WORD_LIMIT", "LAST_WORD_PARTS", "last_word_speaker", "may_write", "preset_name"]
