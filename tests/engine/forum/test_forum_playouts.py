"""Seeded random playouts of the forum preset: 540 games of 4..12 players over random role
selections (docs/rules/forum.md, FORUM-53), each checked against the invariants every preset
keeps (``test_playouts.check_game``: one GameEnded at the very end matching the state, an exact
replay of the JSON log, no public event naming a role but the forum's own exceptions, no private
event to the dead before the win) and against the forum's own (``forum_invariants``: the night
resolved exactly by a second model of FORUM-Q22, the Cop's target never affected, the Sleepwalker
never killed by the Mafia without the re-pick, the Werewolf turning exactly when the last
mafioso leaves, true answers, last words, votes, warnings, the win, the after-game).  Per step
(inside the playout): every command built from ``legal_actions`` is accepted, the dead never
act, nobody comes back.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from engine import Phase

from ..forum_invariants import check_forum_game
from ..forum_playout import random_options
from ..playout import play
from ..test_playouts import CHAOS, check_game

GAMES = 60  # per table size: 9 sizes x 60 = 540 games, a third calm, a third with chaos


@cache  # the coverage test reads the same games again
def forum_playout(n: int, i: int):
    seed = 3_000_000 + n * 1_000 + i
    options = random_options(random.Random(seed), n)
    return play(seed, n, host=i % 2 == 1, chaos=CHAOS[i % 3], ruleset="forum",
                settings={"options": options})


@pytest.mark.parametrize("n", range(4, 13))
def test_FORUM_53_random_playouts_keep_every_rule(n: int) -> None:
    seen: Counter = Counter()
    for i in range(GAMES):
        po = forum_playout(n, i)
        assert po.start_error is None
        seen += check_game(po)
        if po.state.phase is Phase.CANCELLED:
            continue
        seen += check_forum_game(po)
    # the playouts really exercise the rules (a weak driver would pass everything)
    for kind in ("winner_town", "winner_mafia", "out_vote", "out_night", "tie_revote",
                 "death_mafia", "last_word", "warning_no_vote", "best_player", "bonus",
                 "PlayerInactive", "Paused"):
        assert seen[kind], f"no {kind} in {GAMES} forum games of {n}"
    assert seen["GameEnded"] + seen["abandoned"] == GAMES


def test_FORUM_53_the_playouts_meet_every_role_and_interaction() -> None:
    """Across the table sizes, every special interaction happens in the seeded games."""
    seen: Counter = Counter()
    for n in (6, 9, 12):
        for i in range(GAMES):
            po = forum_playout(n, i)
            if po.state.phase is not Phase.CANCELLED:
                seen += check_forum_game(po)
    for kind in ("sleepwalker_revealed", "death_revealed", "werewolf_turned", "mafia_blocked",
                 "shrug", "compare", "compare_shrug", "death_maniac", "death_infection",
                 "saved", "check", "check_revealed", "suspect_named", "ballot_host",
                 "out_host_decision", "out_disqualified", "warning_oath", "side_mafia_won",
                 "night_extended", "removed_on_the_winning_side"):
        assert seen[kind], f"no {kind} in the forum playouts: {sorted(seen)}"


def test_FORUM_53_forum_playouts_are_deterministic():
    a = forum_playout.__wrapped__(10, 7)
    b = forum_playout.__wrapped__(10, 7)
    assert a.log == b.log and a.state == b.state and a.state.over
