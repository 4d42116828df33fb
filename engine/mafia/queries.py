"""What a user may do right now: the bot offers exactly these buttons (design.md §2, §5).

The shared mafia buttons are :class:`~.actions.LegalActions` (re-exported here); a preset with
buttons of its own subclasses it (a frozen dataclass with more fields) and names the subclass in
its variant's ``actions``; :func:`legal_actions` answers with an instance of that class."""

from __future__ import annotations

from typing import Any

from .actions import NOTHING as NOTHING
from .actions import LegalActions as LegalActions
from .play import night_actions_for, valid_targets
from .roles import Team
from .rules import rules_of, rules_revision
from .state import GameState, Phase, Player
from .step import variant_of


def night_1_asks_nothing(st: GameState, p: Player) -> bool:
    """ONLINE-02, X17: online night 1 asks nothing of the reds -- no Ready (Sleep) button is
    offered; a Sleep tap from an old button is still accepted and changes nothing. A game of
    rules revision 1 (REV-X01: logged before X17) asked every player to tap."""
    return (st.night <= 1 and rules_of(st).vote_style == "online" and p.team is not Team.MAFIA
            and rules_revision(st.settings) >= 2)


def legal_actions(st: GameState, user_id: int) -> LegalActions:
    """The actions ``user_id`` may take in ``st`` (empty when the game is over or he is out):
    an instance of the preset's ``actions`` class (:class:`LegalActions` or its subclass)."""
    game = variant_of(st)
    cls = game.actions
    if st.over or st.phase is Phase.LOBBY:
        return cls()
    is_host = user_id == st.host
    living = st.is_alive(user_id)
    may_pause = living or is_host or user_id == st.organiser
    me = st.players.get(user_id)
    may_pause_now = may_pause and (is_host or me is None
                                   or me.pauses_used < rules_of(st).pauses_per_player)
    if st.pause:
        ok = is_host if st.pause.reason == "host_lost" else may_pause
        return cls(resume=ok)
    kw: dict[str, Any] = {"pause": may_pause_now, "host_next": is_host}
    ph = st.phase
    if game.add_actions(st, user_id, kw):  # the preset's own fields
        return cls(**kw)
    if ph in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD):
        kw["end_speech"] = user_id == st.speaker or is_host
        if ph is Phase.SPEECH and user_id == st.speaker and not st.nominated_in_speech:
            kw["nominate"] = tuple(p.user_id for p in st.alive() if p.user_id not in st.nominations)
    if not living:
        return cls(**kw)
    p = st.players[user_id]
    if ph is Phase.READY:
        kw["ready"] = user_id not in st.ready
        kw["continue_"] = st.continue_allowed
    elif ph is Phase.VOTING and user_id not in st.vote_round().votes:
        kw["vote"] = st.vote_round().current
    elif ph is Phase.EXCLUDE_VOTE:
        kw["exclude_vote"] = user_id not in st.exclude_votes
    elif ph is Phase.NIGHT:
        actions = night_actions_for(st, p)
        done = user_id in st.night_actions
        shot = rules_of(st).final_shots and user_id in st.mafia_picks
        open_ = [a for a in actions if a != "sleep" and not (shot if a == "kill" else done)]
        if open_:
            kw["night_action"] = open_[0]
            kw["night_targets"] = tuple(valid_targets(st, p, open_[0]))
        if len(open_) > 1:
            kw["night_extra"] = open_[1]
            kw["night_extra_targets"] = tuple(valid_targets(st, p, open_[1]))
        kw["sleep"] = "sleep" in actions and not done and not night_1_asks_nothing(st, p)
    return cls(**kw)
