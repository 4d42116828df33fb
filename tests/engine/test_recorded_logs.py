"""A game log written before a change replays to the same game after it (issue 8).

``fixtures/logs/*.json`` are whole seeded games of every preset, recorded by
``fixtures/record_logs.py`` from the engine as it was before its split into packages, in the
bot's storage format (``game_log``: one command and its events per ``seq``).  Replaying each
log must accept every command, produce the recorded events of every command, and end in the
recorded final state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import command_from_dict, event_from_dict, replay, state_to_dict, to_dict

LOGS = sorted((Path(__file__).resolve().parent / "fixtures" / "logs").glob("*.json"))


def test_there_are_recorded_logs_of_every_preset():
    presets = {json.loads(p.read_text(encoding="utf-8"))["ruleset"] for p in LOGS}
    assert presets == {"party", "club", "online", "forum"}
    assert len(LOGS) >= 8


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_recorded_log_replays_to_the_recorded_state(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = data["log"]
    assert [e["seq"] for e in entries] == list(range(len(entries)))
    commands = [command_from_dict(e["command"]) for e in entries]
    assert [to_dict(c) for c in commands] == [e["command"] for e in entries]  # the format holds
    state, produced = replay(commands)
    for entry, events in zip(entries, produced, strict=True):
        assert [to_dict(ev) for ev in events] == entry["events"], f"seq {entry['seq']}"
        assert [to_dict(event_from_dict(ev)) for ev in entry["events"]] == entry["events"]
    assert state.over
    assert state_to_dict(state) == data["final_state"]
