"""The JSON export of NOIR games (docs/history.md, "NOIR"): the same versioned document as the
mafia presets', stored through the storage and loaded back as the service does; re-imported, it
replays through the engine to the same final state and the same events; a tampered NOIR log is
refused; the command-line check names the game."""

from __future__ import annotations

import json
from datetime import UTC

import pytest

from bot.history import export as X
from bot.history.protocol import entries_from
from tests.history.noir_helpers import finished, noir_entries, store_noir

CHAT = -100777


@pytest.mark.parametrize("seed,n", [(21, 6), (22, 8)])
async def test_a_stored_noir_game_exports_and_replays(storage, seed, n):
    po = finished(seed, n)
    gid = await store_noir(storage, CHAT, po)
    game = await storage.get_game(gid)
    assert game.status == "finished" and game.winner == po.state.outcome
    entries = entries_from(await storage.load_entries(gid))
    assert entries == noir_entries(po)
    raw = X.dumps(X.export_document(game, await storage.list_players(gid), entries))
    doc = json.loads(raw)
    assert doc["format"] == "mafia-bot/game-log" and doc["version"] == X.VERSION
    assert doc["game"]["ruleset"] == "noir" and doc["log"][0]["command"]["ruleset"] == "noir"
    assert [p["seat"] for p in doc["game"]["players"]] == list(range(1, n + 1))
    imported = X.replay_document(raw)
    assert imported.events_match and imported.commands == len(po.log)
    assert imported.state == po.state


def test_a_tampered_noir_log_is_refused():
    po = finished(23)
    doc = X.export_document(_game(po), [], noir_entries(po))
    for entry in doc["log"]:
        for e in entry["events"]:
            if e["type"] == "Shifted":
                e["by"] = -e["by"]
                break
        else:
            continue
        break
    with pytest.raises(X.ExportError, match="different events"):
        X.replay_document(doc)
    assert not X.replay_document(doc, strict=False).events_match


def test_the_command_line_check_names_noir(tmp_path, capsys):
    po = finished(24)
    path = tmp_path / "noir.json"
    path.write_bytes(X.dumps(X.export_document(_game(po), [], noir_entries(po))))
    assert X.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{len(po.log)} commands replayed; game noir; status finished; " \
           f"winner {po.state.outcome}; events match: True" in out


def _game(po):
    from datetime import datetime
    from types import SimpleNamespace

    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    return SimpleNamespace(id=9, chat_id=CHAT, ruleset="noir", locale="en", settings={}, seed=1,
                           status="finished", winner=po.state.outcome, created_at=t0,
                           started_at=t0, finished_at=t0)
