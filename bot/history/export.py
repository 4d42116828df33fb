"""JSON export of a finished game's full log, and the importer that replays it (docs/history.md).

Document shape (``format`` ``mafia-bot/game-log``, ``version`` 1)::

    {"format": "mafia-bot/game-log", "version": 1, "log_format": 1,
     "exported_at": "2026-01-01T12:00:00+00:00",
     "game": {"id", "chat_id", "ruleset", "locale", "settings", "seed", "status", "winner",
              "created_at", "started_at", "finished_at",
              "players": [{"user_id", "name", "seat"}]},
     "log": [{"seq": 0, "command": {"type": "CreateGame", ...}, "events": [{"type": ...}]}, ...]}

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

from engine import decode_log, game_of, replay
from engine.core.serialize import FORMAT_VERSION as LOG_FORMAT
from engine.core.state import GameStateLike

from .protocol import Entry

if TYPE_CHECKING:
    from ..storage.records import GameRecord, PlayerRecord

FORMAT = "mafia-bot/game-log"
VERSION = 1


class ExportError(ValueError):
    """The document is not a game log this version can read, or it does not replay."""


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def export_document(game: GameRecord, players: Sequence[PlayerRecord], entries: Sequence[Entry],
                    now: datetime | None = None) -> dict[str, Any]:
    """The export document of ``game`` (a :class:`bot.storage.GameRecord`), its ``players``
    (:class:`bot.storage.PlayerRecord`) and its log ``entries``."""
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
    }


def dumps(document: dict[str, Any]) -> bytes:
    """UTF-8 JSON, one log entry per line (readable in a diff, still compact)."""
    head = {k: v for k, v in document.items() if k != "log"}
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1]
    lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in document["log"]]
    return (text + ',"log":[\n' + ",\n".join(lines) + "\n]}\n").encode("utf-8")


def load_document(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """Parse and check the envelope. Raises :class:`ExportError` when it is not ours or newer."""
    if isinstance(data, (bytes, str)):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise ExportError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError("not a mafia-bot game log")
    if data.get("version") != VERSION or data.get("log_format", LOG_FORMAT) != LOG_FORMAT:
        raise ExportError(f"unsupported version {data.get('version')!r}")
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
    return Imported(state=state, commands=len(commands), events_match=match)


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
