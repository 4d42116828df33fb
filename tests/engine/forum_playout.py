"""The forum preset's part of the seeded playouts (:mod:`.playout`): random role selections, the
buttons built from the forum fields of ``legal_actions`` and the forum chaos commands.

Voters concentrate on a few players per ballot (so ties and revotes happen), sometimes change
their vote and sometimes stay silent (the automatic warning); the Mafia mostly pick the night's
favourite, now and then the Sleepwalker (so he gets revealed); the Cop's choice, the
comparisons, the side choices, the last-word extras, the bonus round and the best player are
random.  Chaos: warnings and removals by strangers (accepted without a host, as the shell lets
group admins moderate), forged night, last-word and after-game commands.
"""

from __future__ import annotations

import random
from typing import Any

from engine import (
    CastVote,
    ChooseSide,
    Command,
    ComparePlayers,
    DecideBonusRound,
    Disqualify,
    ForumPhase,
    GameState,
    GuessRoles,
    HostDecide,
    IssueWarning,
    NameSuspect,
    NightAction,
    RevealCheck,
    Role,
    Team,
    VoteBestPlayer,
)
from engine.forum.setup import OPTIONAL_ROLES, allowed_mafia

#: phases in which the eliminated act too (after the win)
AFTER_WIN_PHASES = (ForumPhase.BONUS_OFFER, ForumPhase.BONUS, ForumPhase.BEST_PLAYER)


def random_options(rng: random.Random, n: int) -> dict:
    """A random legal role selection for ``n`` players: a mafia count the table allows and
    up to all the optional roles that fit beside one civilian."""
    m = rng.choice(allowed_mafia(n))
    room = n - m - 1
    names = list(OPTIONAL_ROLES)
    k = rng.randint(0, min(room, len(names)))
    if rng.random() < 0.4:  # the heavy tables, where every role meets every other
        k = min(room, len(names))
    opts = {"roles": rng.sample(names, k), "mafia": m}
    if rng.random() < 0.3:
        opts["alternate_nights"] = False
    if rng.random() < 0.2:
        opts["warnings_to_remove"] = rng.choice((2, 3))
    if rng.random() < 0.2:
        opts["bonus_round"] = False
    if rng.random() < 0.2:
        opts["announce_save"] = True
    return opts


def forum_options(rng: random.Random, st: GameState, u: int, la: Any,
                  intent: dict[tuple[object, ...], Any]) -> list[Command]:
    """Commands ``u`` may send now according to the forum fields of ``la``."""
    out: list[Command] = []
    if la.choose_side and rng.random() < 0.6:
        out.append(ChooseSide(user_id=u, side=rng.choice((Team.TOWN, Team.MAFIA))))
    if la.compare and len(la.compare) >= 2:
        a, b = rng.sample(list(la.compare), 2)
        out.append(ComparePlayers(user_id=u, first=a, second=b))
    if la.night_action == "kill" and st.players[u].team is Team.MAFIA:
        key: tuple[object, ...] = ("kill", st.night, st.forum.revealed)
        if key not in intent:
            sw = [t for t in la.night_targets if st.players[t].role is Role.SLEEPWALKER]
            intent[key] = sw[0] if sw and rng.random() < 0.35 else rng.choice(la.night_targets)
        if intent[key] in la.night_targets:
            out += [NightAction(user_id=u, action="kill", target=intent[key])] * 4
    if la.day_vote:
        key = (st.phase_seq, u)
        if key not in intent:
            focus = ("focus", st.phase_seq)
            if focus not in intent:
                size = min(len(la.day_vote), rng.choice((1, 2, 2, 3)))
                intent[focus] = rng.sample(list(la.day_vote), size)
            pool = [t for t in intent[focus] if t in la.day_vote] or list(la.day_vote)
            intent[key] = rng.choice(pool) if rng.random() < 0.9 else "silent"
        want = intent[key]
        if want != "silent" and la.day_vote_mark is None and want in la.day_vote:
            out.append(CastVote(user_id=u, target=want))
        elif la.day_vote_mark is not None and rng.random() < 0.05:  # he changes his mind
            out.append(CastVote(user_id=u, target=rng.choice(la.day_vote)))
    if la.suspect and rng.random() < 0.3:
        out.append(NameSuspect(user_id=u, target=rng.choice(la.suspect)))
    if la.reveal_check and rng.random() < 0.5:
        out.append(RevealCheck(user_id=u, target=rng.choice(la.reveal_check)))
    if la.host_decide:
        out.append(HostDecide(user_id=u, target=rng.choice(list(la.host_decide) + [None])))
    if la.moderate and rng.random() < 0.01:
        target = rng.choice(la.moderate)
        out.append(Disqualify(user_id=u, player=target, reason="card") if rng.random() < 0.2
                   else IssueWarning(user_id=u, player=target, reason="oath"))
    if la.bonus_decide and rng.random() < 0.5:
        out.append(DecideBonusRound(user_id=u, start=rng.random() < 0.7))
    if la.bonus_guess and ("guess", st.phase_seq, u) not in intent:
        targets = rng.sample(list(la.bonus_guess), rng.randint(0, len(la.bonus_guess)))
        guesses = tuple((t, rng.choice(la.bonus_roles)) for t in targets)
        if rng.random() < 0.5:
            intent[("guess", st.phase_seq, u)] = True
        out.append(GuessRoles(user_id=u, guesses=guesses))
    if la.best_player:
        out.append(VoteBestPlayer(user_id=u, target=rng.choice(la.best_player)))
    return out


def forum_chaos(rng: random.Random, st: GameState, users: list[int], strangers: list[int]):
    """One disruptive forum command (may be refused)."""
    u = rng.choice(strangers + users)
    target = rng.choice(users)
    other = rng.choice(users)
    r = rng.random()
    if r < 0.25:
        return IssueWarning(user_id=u, player=target, reason=rng.choice(("oath", "insult")))
    if r < 0.32:
        return Disqualify(user_id=u, player=target, reason=rng.choice(("insult", "card")))
    return rng.choice([
        ComparePlayers(user_id=u, first=target, second=other),
        ChooseSide(user_id=u, side=Team.MAFIA),
        NameSuspect(user_id=u, target=target),
        RevealCheck(user_id=u, target=target),
        HostDecide(user_id=u, target=target),
        DecideBonusRound(user_id=u, start=True),
        GuessRoles(user_id=u, guesses=((target, Role.MAFIA),)),
        VoteBestPlayer(user_id=u, target=target),
        CastVote(user_id=u, target=target),
        NightAction(user_id=u, action=rng.choice(("block", "slay", "infect", "kill")),
                    target=target),
    ])
