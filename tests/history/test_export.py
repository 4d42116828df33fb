"""JSON export: the document carries the whole log with a format and version, and re-importing it
replays through the engine to the same final state and the same events (every preset)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.history import export as X
from engine import command_from_dict
from engine.scoring import FIIM, sheet_of_log
from tests.history.helpers import entries_of, playouts

CASES = list(playouts(per_case=1, chaos=(0.05, 0.3)))
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def document(po):
    entries = entries_of(po)
    game = SimpleNamespace(id=7, chat_id=-100123, ruleset=po.state.ruleset, locale="ru",
                           settings={}, seed=2**62, status="finished",
                           winner=po.state.winner.value, created_at=T0, started_at=T0,
                           finished_at=T0)
    players = [SimpleNamespace(user_id=p.user_id, name=p.name, seat=p.seat)
               for p in po.state.seated()]
    return X.export_document(game, players, entries, now=T0)


@pytest.mark.parametrize("po", [po for _, po in CASES], ids=[c for c, _ in CASES])
def test_export_round_trips_to_the_same_state(po):
    raw = X.dumps(document(po))
    doc = json.loads(raw)
    assert doc["format"] == "mafia-bot/game-log" and doc["version"] == 2 and doc["sheet"] is None
    assert doc["game"]["players"][0].keys() == {"user_id", "name", "seat"}
    assert [e["seq"] for e in doc["log"]] == list(range(len(po.log)))
    imported = X.replay_document(raw)
    assert imported.events_match and imported.commands == len(po.log)
    assert imported.state == po.state  # every field: players, roles, winner, counters...


def test_a_changed_log_or_envelope_is_refused():
    po = CASES[0][1]
    doc = document(po)
    bad = json.loads(X.dumps(doc))
    for e in bad["log"]:
        for ev in e["events"]:
            if ev["type"] == "GameEnded":
                ev["winner"] = "town" if ev["winner"] == "mafia" else "mafia"
    with pytest.raises(X.ExportError, match="different events"):
        X.replay_document(bad)
    assert X.replay_document(bad, strict=False).events_match is False

    forged = json.loads(X.dumps(doc))
    forged["log"].insert(3, {"seq": 3, "command": {"type": "Leave", "user_id": 1}, "events": []})
    for i, e in enumerate(forged["log"]):
        e["seq"] = i
    with pytest.raises(X.ExportError, match="does not replay"):
        X.replay_document(forged)
    for change, match in (({"format": "x"}, "not a mafia-bot"), ({"version": 3}, "version"),
                          ({"log": None}, "malformed")):
        with pytest.raises(X.ExportError, match=match):
            X.replay_document({**doc, **change})
    with pytest.raises(X.ExportError, match="not JSON"):
        X.replay_document(b"{nope")
    gap = {**doc, "log": doc["log"][1:]}
    with pytest.raises(X.ExportError, match="numbered"):
        X.replay_document(gap)


def test_the_command_line_checks_a_file(tmp_path, capsys):
    po = CASES[0][1]
    path = tmp_path / "game.json"
    path.write_bytes(X.dumps(document(po)))
    assert X.main([str(path)]) == 0
    assert f"{len(po.log)} commands replayed" in capsys.readouterr().out
    path.write_text('{"format": "other"}')
    assert X.main([str(path)]) == 1
    assert X.main([]) == 2


def _club():
    return next(po for case, po in CASES if case.startswith("club"))


def _sheet(po, additional=None):
    """A published sheet's export object for the playout, scored by FIIM."""
    sheet = sheet_of_log([command_from_dict(e.command) for e in entries_of(po)], FIIM, additional)
    return {"system": FIIM.to_settings(),
            "additional": {str(k): v for k, v in (additional or {}).items()},
            "status": "published", "published_at": T0.isoformat(),
            "changes": [{"at": T0.isoformat(), "by": None, "kind": "auto_published",
                         "data": {"additional": {}}}],
            "points": [{"user_id": s.user_id, "seat": s.seat, "name": s.name,
                        "role": s.role.value, "team": s.team.value, "won": s.won,
                        "win_points": s.win_points, "best_move_points": s.best_move_points,
                        "penalty": s.penalty, "additional": s.additional, "total": s.total}
                       for s in sheet.seats]}


def test_a_version_2_export_carries_the_sheet_and_checks_its_points():
    po = _club()
    somebody = po.state.seated()[0].user_id
    sheet = _sheet(po, {somebody: 0.3})
    doc = document(po)
    doc["sheet"] = sheet
    raw = X.dumps(doc)
    imported = X.replay_document(raw)
    assert imported.sheet == sheet and imported.sheet_matches and imported.events_match
    assert json.loads(raw)["sheet"]["additional"] == {str(somebody): 0.3}

    forged = json.loads(raw)
    forged["sheet"]["points"][0]["total"] += 1
    with pytest.raises(X.ExportError, match="sheet's points"):
        X.replay_document(forged)
    assert X.replay_document(forged, strict=False).sheet_matches is False
    with pytest.raises(X.ExportError, match="sheet is malformed"):
        X.replay_document({**doc, "sheet": {"points": 3}})
    draft = {**doc, "sheet": {**sheet, "status": "draft", "points": []}}
    assert X.replay_document(draft).sheet_matches  # nothing published: nothing to check


def test_a_version_1_export_is_still_imported():
    """An export written before the sheet (version 1: no ``sheet`` key) replays as before."""
    po = _club()
    v1 = {k: v for k, v in document(po).items() if k != "sheet"}
    v1["version"] = 1
    raw = X.dumps(v1)
    assert b'"sheet"' not in raw
    imported = X.replay_document(raw)
    assert imported.state == po.state and imported.events_match and imported.sheet is None
