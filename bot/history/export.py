"""JSON export of a finished game's full log, and the importer that replays it (docs/history.md).

Document shape (``format`` ``mafia-bot/game-log``, ``version`` 2)::

    {"format": "mafia-bot/game-log", "version": 2, "log_format": 1,
     "exported_at": "2026-01-01T12:00:00+00:00",
     "game": {"id", "chat_id", "ruleset", "locale", "settings", "seed", "status", "winner",
              "created_at", "started_at", "finished_at",
              "players": [{"user_id", "name", "seat"}]},
     "log": [{"seq": 0, "command": {"type": "CreateGame", ...}, "events": [{"type": ...}]}, ...],
     "sheet": null | {"system": {...}, "additional": {"<user id>": 0.3}, "status": "published",
                      "published_at": "...", "changes": [{"at", "by", "kind", "data"}],
                      "points": [{"user_id", "seat", "name", "role", "team", "won",
                                  "win_points", "best_move_points", "penalty", "additional",
                                  "total"}]}}

Version 2 (issue 21) added ``sheet``: the game's score sheet (a club or online game; null for
any other, or before the game had one), ``system`` as ``ScoringSystem.to_settings`` writes it;
``points`` only once published.  Version 1 documents (no ``sheet``) are still read.  A published
sheet is checked like the log: its points must be what the log scores with its system and its
additional points (``engine.scoring.score_sheet``).

Commands and events are the engine's own dicts (:mod:`engine.serialize`, ``log_format``); a
NOIR log's first command is the core's CreateGame naming "noir", the rest are NOIR's own dicts
(:mod:`engine.noir.serialize`), decoded by the game the first command names.
:func:`replay_document` rebuilds the game with :func:`engine.replay` and checks that every
command produces exactly the stored events.  ``python -m bot.history.export FILE`` does that for
a file and prints the result (for bug reports).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine import GameState, decode_log, game_of, replay
from engine.core.events import Event
from engine.core.serialize import FORMAT_VERSION as LOG_FORMAT
from engine.core.state import GameStateLike
from engine.scoring import score_sheet, system_from_settings

from .protocol import Entry

if TYPE_CHECKING:
    from ..storage.records import GameRecord, PlayerRecord
    from ..storage.sheets import PointsRow, SheetChange, SheetRecord

FORMAT = "mafia-bot/game-log"
VERSION = 2
#: the versions :func:`load_document` reads (1: before the score sheet)
READABLE = (1, 2)


class ExportError(ValueError):
    """The document is not a game log this version can read, or it does not replay."""


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def sheet_document(sheet: SheetRecord, changes: Sequence[SheetChange],
                   rows: Sequence[PointsRow]) -> dict[str, Any]:
    """The ``sheet`` object of an export: the stored ``sheet``, its logged ``changes`` and its
    published points ``rows`` (empty for a draft)."""
    return {
        "system": dict(sheet.system),
        "additional": {str(uid): v for uid, v in sorted(sheet.additional.items())},
        "status": sheet.status, "published_at": _iso(sheet.published_at),
        "changes": [{"at": _iso(c.at), "by": c.by, "kind": c.kind, "data": c.data}
                    for c in changes],
        "points": [{"user_id": r.user_id, "seat": r.seat, "name": r.name, "role": r.role,
                    "team": r.team, "won": r.won, "win_points": r.win_points,
                    "best_move_points": r.best_move_points, "penalty": r.penalty,
                    "additional": r.additional, "total": r.total} for r in rows],
    }


def export_document(game: GameRecord, players: Sequence[PlayerRecord], entries: Sequence[Entry],
                    now: datetime | None = None, sheet: dict[str, Any] | None = None
                    ) -> dict[str, Any]:
    """The export document of ``game`` (a :class:`bot.storage.GameRecord`), its ``players``
    (:class:`bot.storage.PlayerRecord`), its log ``entries`` and its score ``sheet``
    (:func:`sheet_document`; None: the game has none)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "log_format": LOG_FORMAT,
        "exported_at": _iso(now or datetime.now(UTC)),
        "game": {
            "id": game.id, "chat_id": game.chat_id, "ruleset": game.ruleset,
            "locale": game.locale, "settings": game.settings, "seed": game.seed,
            "status": game.status, "winner": game.winner,
            "created_at": _iso(game.created_at), "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "players": [{"user_id": p.user_id, "name": p.name, "seat": p.seat} for p in players],
        },
        "log": [{"seq": e.seq, "command": e.command, "events": e.events} for e in entries],
        "sheet": sheet,
    }


def dumps(document: dict[str, Any]) -> bytes:
    """UTF-8 JSON, one log entry per line (readable in a diff, still compact)."""
    head = {k: v for k, v in document.items() if k not in ("log", "sheet")}
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1]
    lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in document["log"]]
    tail = ""
    if "sheet" in document:
        tail = ',\n"sheet":' + json.dumps(document["sheet"], ensure_ascii=False,
                                          separators=(",", ":"))
    return (text + ',"log":[\n' + ",\n".join(lines) + "\n]" + tail + "}\n").encode("utf-8")


def load_document(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """Parse and check the envelope. Raises :class:`ExportError` when it is not ours or newer."""
    if isinstance(data, (bytes, str)):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise ExportError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError("not a mafia-bot game log")
    if data.get("version") not in READABLE or data.get("log_format", LOG_FORMAT) != LOG_FORMAT:
        raise ExportError(f"unsupported version {data.get('version')!r}")
    sheet = data.get("sheet")
    if sheet is not None and not (isinstance(sheet, dict) and isinstance(sheet.get("system"), dict)
                                  and isinstance(sheet.get("additional") or {}, dict)
                                  and isinstance(sheet.get("points") or [], list)):
        raise ExportError("the sheet is malformed")
    log = data.get("log")
    if not isinstance(log, list) or not all(isinstance(e, dict) and "command" in e for e in log):
        raise ExportError("the log is missing or malformed")
    if [e.get("seq") for e in log] != list(range(len(log))):
        raise ExportError("log entries must be numbered 0, 1, 2, ...")
    return data


def entries_of(document: dict[str, Any]) -> list[Entry]:
    return [Entry(int(e["seq"]), e["command"], list(e.get("events") or ())) for e in document["log"]]


@dataclass
class Imported:
    """A re-imported game: its final state and whether every stored event was reproduced."""

    state: GameStateLike  # the game's own state class (GameState, NoirState...)
    commands: int
    events_match: bool
    #: the document's score sheet (version 2; None: none, or a version 1 document)
    sheet: dict[str, Any] | None = None
    #: whether the published sheet's points are what the log scores (True without points)
    sheet_matches: bool = True


def replay_document(data: bytes | str | dict[str, Any], *, strict: bool = True) -> Imported:
    """Replay an export through the engine. With ``strict`` (the default) a command whose events
    differ from the stored ones raises :class:`ExportError`; so does a command the rules refuse."""
    doc = load_document(data)
    entries = entries_of(doc)
    try:
        commands = decode_log(e.command for e in entries)  # by the table of the log's game
        state, produced = replay(commands)
    except ValueError as exc:  # IllegalCommand is a ValueError too
        raise ExportError(f"the log does not replay: {exc!r}") from None
    game = game_of(state)
    match = all([game.to_dict(ev) for ev in events] == e.events
                for events, e in zip(produced, entries, strict=False))
    if strict and not match:
        raise ExportError("the log replays to different events")
    sheet = doc.get("sheet")
    scored = _sheet_matches(state, produced, sheet)
    if strict and not scored:
        raise ExportError("the sheet's points are not what the log scores")
    return Imported(state=state, commands=len(commands), events_match=match, sheet=sheet,
                    sheet_matches=scored)


def _sheet_matches(state: GameStateLike, produced: Sequence[Sequence[Any]],
                   sheet: dict[str, Any] | None) -> bool:
    """SCORE-X09 for an export: the published points equal the sheet of the replayed log with
    the document's system and additional points (True when there are no points to check)."""
    if not sheet or not sheet.get("points"):
        return True
    try:
        system = system_from_settings(sheet["system"])
        extra = {int(k): v for k, v in (sheet.get("additional") or {}).items()}
        events = (e for evs in produced for e in evs if isinstance(e, Event))
        if not isinstance(state, GameState):
            return False  # a sheet on a game that is not mafia (NOIR): not ours
        scored = score_sheet(state, events, system, extra)
        given = {int(p["user_id"]): float(p["total"]) for p in sheet["points"]}
    except (ValueError, KeyError, TypeError):  # BadScoring and NotFinished are ValueErrors
        return False
    return given == {line.user_id: line.total for line in scored.seats}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m bot.history.export FILE.json", file=sys.stderr)
        return 2
    with open(args[0], "rb") as f:
        raw = f.read()
    try:
        imported = replay_document(raw)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    st = imported.state
    game = game_of(st)  # any registered game: the mafia presets, NOIR
    print(f"{imported.commands} commands replayed; game {game.name}; status {game.status(st)}; "
          f"winner {game.winner(st) or '-'}; events match: {imported.events_match}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
