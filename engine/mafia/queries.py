"""What a user may do right now: the bot offers exactly these buttons (design.md §2, §5)."""

from __future__ import annotations

from dataclasses import dataclass

from .play import night_actions_for, valid_targets
from .roles import Role
from ..core.game import find_game
from .rules import rules_of
from .state import GameState, Phase


@dataclass(frozen=True)
class LegalActions:
    ready: bool = False
    continue_: bool = False
    end_speech: bool = False
    nominate: tuple[int, ...] = ()
    vote: int | None = None
    exclude_vote: bool = False
    night_action: str | None = None
    night_targets: tuple[int, ...] = ()
    night_extra: str | None = None  # the Don's Sheriff search beside his shot
    night_extra_targets: tuple[int, ...] = ()
    sleep: bool = False
    pause: bool = False
    resume: bool = False
    host_next: bool = False
    #: ONLINE: the open day vote / revote -- the players offered (user ids, seat order; empty =
    #: no vote now, e.g. his vote is final), whether PASS is offered, and his preliminary tap
    #: (``ballot_marked``; ``ballot_mark`` its choice, None = PASS)
    ballot: tuple[int, ...] = ()
    ballot_pass: bool = False
    ballot_marked: bool = False
    ballot_mark: int | None = None
    #: ONLINE: the Lift/Leave decision is open to him; ``lift_mark`` his preliminary tap
    #: (True Lift, False Leave, None no tap yet)
    lift_vote: bool = False
    lift_mark: bool | None = None
    #: ONLINE: the best move -- the players he may name (three of them), empty if not his
    best_move: tuple[int, ...] = ()
    #: FORUM (docs/rules/forum.md, "legal_actions"): the Maniac / Putana picks a side (night 1)
    choose_side: bool = False
    #: FORUM: the Journalist's pair tonight -- the players he may pair (two of them)
    compare: tuple[int, ...] = ()
    #: FORUM: the day's vote / revote open to him -- whom he may vote for, and his current vote
    #: (None: not yet; he may change it until the ballot closes)
    day_vote: tuple[int, ...] = ()
    day_vote_mark: int | None = None
    #: FORUM: his own last word -- the living players he may name as a suspect (once); the
    #: Commissar's checked players whose answer he may publish (once)
    suspect: tuple[int, ...] = ()
    reveal_check: tuple[int, ...] = ()
    #: FORUM: the host settles a tied revote -- the tied he may remove (or nobody)
    host_decide: tuple[int, ...] = ()
    #: FORUM: the host may warn or remove these living players (a host-less game: the shell
    #: offers the same to group admins)
    moderate: tuple[int, ...] = ()
    #: FORUM, after the win: start or skip the bonus round; the players whose roles he may
    #: guess and the roles offered; the players he may choose as the best player (once)
    bonus_decide: bool = False
    bonus_guess: tuple[int, ...] = ()
    bonus_roles: tuple[Role, ...] = ()
    best_player: tuple[int, ...] = ()


NOTHING = LegalActions()


def legal_actions(st: GameState, user_id: int) -> LegalActions:
    """The actions ``user_id`` may take in ``st`` (empty when the game is over or he is out)."""
    if st.over or st.phase is Phase.LOBBY:
        return NOTHING
    is_host = user_id == st.host
    living = st.is_alive(user_id)
    may_pause = living or is_host or user_id == st.organiser
    me = st.players.get(user_id)
    may_pause_now = may_pause and (is_host or me is None
                                   or me.pauses_used < rules_of(st).pauses_per_player)
    if st.pause:
        ok = is_host if st.pause.reason == "host_lost" else may_pause
        return LegalActions(resume=ok)
    kw: dict = {"pause": may_pause_now, "host_next": is_host}
    ph = st.phase
    if find_game(st.ruleset).add_actions(st, user_id, kw):  # the preset's own fields
        return LegalActions(**kw)
    if ph in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD):
        kw["end_speech"] = user_id == st.speaker or is_host
        if ph is Phase.SPEECH and user_id == st.speaker and not st.nominated_in_speech:
            kw["nominate"] = tuple(p.user_id for p in st.alive() if p.user_id not in st.nominations)
    if not living:
        return LegalActions(**kw)
    p = st.players[user_id]
    if ph is Phase.READY:
        kw["ready"] = user_id not in st.ready
        kw["continue_"] = st.continue_allowed
    elif ph is Phase.VOTING and user_id not in st.vote.votes:
        kw["vote"] = st.vote.current
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
        kw["sleep"] = "sleep" in actions and not done
    return LegalActions(**kw)
