"""NOIR in the engine registry (issue 9, plumbing): a log that the core's apply/replay run, the
first command the core's CreateGame naming "noir", the rest decoded with NOIR's type tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine import CreateGame, decode_log, find_game, game_of, replay
from engine.core.errors import GameOver
from engine.noir import CreateGame as NoirCreateGame
from engine.noir import Join as NoirJoin
from engine.noir import NoirState

from .playout import play

LOGS = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "logs").glob("*.json"))


def _stored(po) -> list[dict]:
    """The playout's log as the bot stores it: the core CreateGame, then NOIR's JSON."""
    first = po.log[0]
    assert isinstance(first, NoirCreateGame)
    game = find_game("noir")
    head = CreateGame(user_id=first.user_id, ruleset="noir", settings=first.settings)
    return [engine.to_dict(head)] + [game.to_dict(c) for c in po.log[1:]]


def test_noir_is_registered_under_its_name_and_aliases():
    assert find_game("noir") is find_game("FBI")
    assert "noir" in engine.GAMES


@pytest.mark.parametrize("seed,n", [(1, 6), (2, 8), (7, 6)])
def test_a_stored_noir_log_replays_through_the_core(seed, n):
    po = play(seed, n)
    stored = json.loads(json.dumps(_stored(po)))  # through JSON, as the database keeps it
    commands = decode_log(stored)
    assert isinstance(commands[1], NoirJoin)  # NOIR's Join, not the mafia one of the same name
    state, produced = replay(commands)
    assert isinstance(state, NoirState) and state.over and state == po.state
    game = game_of(state)
    assert game.status(state) == "finished" and game.winner(state) == state.outcome
    assert [game.to_dict(c) for c in commands[1:]] == stored[1:]
    with pytest.raises(GameOver):
        engine.apply(state, commands[1])


def test_the_mafia_logs_still_decode_with_the_core_tables():
    for path in LOGS:
        entries = json.loads(path.read_text(encoding="utf-8"))["log"]
        commands = decode_log(e["command"] for e in entries)
        assert [engine.to_dict(c) for c in commands] == [e["command"] for e in entries]
        state, _ = replay(commands)
        assert game_of(state).status(state) in ("finished", "cancelled")


def test_a_log_must_start_with_a_known_game():
    with pytest.raises(ValueError):
        decode_log([{"type": "Join", "user_id": 1, "name": "x"}])
    with pytest.raises(ValueError):
        decode_log([{"type": "CreateGame", "user_id": 1, "ruleset": "chess", "settings": {}}])
