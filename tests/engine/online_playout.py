"""The online preset's part of the seeded playouts (:mod:`.playout`): the buttons built from the
online fields of ``legal_actions`` and the online chaos commands.

Voters concentrate on a few players per ballot (so ties and lifts happen), tap once or twice,
sometimes switch on the second tap and sometimes stay silent; the first victim names three
players or skips.
"""

from __future__ import annotations

import random

from engine import ChooseBestMove, GameState, MarkAfk, TapLift, TapVote

#: (phase_seq, voter) -> the favourite of this voter in this ballot (user id, None = PASS,
#: "silent" = never taps)
Intent = dict


def online_options(rng: random.Random, st: GameState, u: int, la, intent: Intent) -> list:
    """Commands ``u`` may send now according to ``la`` (the online fields of LegalActions)."""
    out = []
    if la.ballot:
        key = (st.phase_seq, u)
        if key not in intent:
            focus = ("focus", st.phase_seq)
            if focus not in intent:  # the table's favourites in this ballot
                intent[focus] = rng.sample(list(la.ballot), min(len(la.ballot), rng.choice((1, 2, 3))))
            pool = list(intent[focus]) + (["pass"] if la.ballot_pass else []) + ["silent"]
            intent[key] = rng.choice(pool)
        want = intent[key]
        if want != "silent":
            target = None if want == "pass" else want
            if la.ballot_marked and rng.random() < 0.15:  # switch on the second tap
                target = rng.choice(list(la.ballot) + ([None] if la.ballot_pass else []))
            elif la.ballot_marked:
                target = la.ballot_mark
            if target is None or target in la.ballot:
                out.append(TapVote(user_id=u, target=target))
    if la.lift_vote:
        key = (st.phase_seq, u)
        if key not in intent:
            intent[key] = rng.choice([True, True, False, "silent"])
        want = intent[key]
        if want != "silent":
            out.append(TapLift(user_id=u, lift=want if la.lift_mark is None else la.lift_mark))
    if la.best_move:
        if len(la.best_move) >= 3 and rng.random() < 0.8:
            out.append(ChooseBestMove(user_id=u, targets=tuple(rng.sample(list(la.best_move), 3))))
        else:
            out.append(ChooseBestMove(user_id=u, targets=()))
    return out


def online_chaos(rng: random.Random, st: GameState, users: list[int], strangers: list[int]):
    """One disruptive online command: the shell's AFK report (mostly for an OFFLINE player),
    forged taps and best moves."""
    u = rng.choice(strangers)
    target = rng.choice(users)
    offline = [p.user_id for p in st.seated() if p.alive and not p.active and not p.afk]
    r = rng.random()
    if r < 0.45:
        return MarkAfk(player=rng.choice(offline) if offline and rng.random() < 0.8 else target)
    if r < 0.65:
        return TapVote(user_id=u, target=rng.choice([target, None]))
    if r < 0.8:
        return TapLift(user_id=u, lift=rng.random() < 0.5)
    picks = tuple(rng.sample(users, rng.choice((2, 3, 3, 4))))
    return ChooseBestMove(user_id=rng.choice([u, st.speaker or u]), targets=picks)
