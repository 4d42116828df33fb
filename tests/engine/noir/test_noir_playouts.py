"""≥ 1,000 seeded random NOIR games over 6 and 8 players, checking the issue's invariants
(tests/engine/noir/invariants.py) at every step; batches of seeds keep each test short."""

from __future__ import annotations

import pytest

from .invariants import check_game
from .playout import play

BATCH = 50
BATCHES = 20  # 1,000 games: 500 with 6 players, 500 with 8


@pytest.mark.parametrize("batch", range(BATCHES))
def test_noir_random_playouts_keep_the_invariants(batch):
    outcomes = set()
    for seed in range(batch * BATCH, (batch + 1) * BATCH):
        po = play(seed, 6 if seed % 2 else 8)
        check_game(po)
        outcomes.add(po.state.outcome)
    assert outcomes & {"agents", "mafia"}
