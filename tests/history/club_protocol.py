"""The recorded club game whose protocol picture is kept in ``docs/`` (issue 21, item 3), shared
by the picture's tests and ``benchmarks/protocol_picture_bench.py``.

``python -m tests.history.club_protocol`` rewrites ``docs/protocol-club.png`` (Russian) and
``docs/protocol-club-en.png`` after a deliberate change of the picture."""

from __future__ import annotations

import json
from pathlib import Path

from bot.history.protocol import Entry, build_protocol
from bot.history.protocol_card import Card, build_card, sheet_of_entries
from bot.history.protocol_picture import draw
from bot.ui.i18n import Translator
from engine.scoring import FIIM

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "engine" / "fixtures" / "logs"
#: the recorded 10-player club game with a judge, fouls, checks and a disqualification
GAME = "club-10-host-chaos"
DOCS = {"ru": ROOT / "docs" / "protocol-club.png", "en": ROOT / "docs" / "protocol-club-en.png"}
#: the judge's additional points of the docs picture, by seat (not in the log: the judge's input)
ADDITIONAL = {5: 0.3, 9: 0.2}


def recorded(name: str = GAME) -> list[Entry]:
    """A recorded game's log as the bot stores it."""
    data = json.loads((LOGS / f"{name}.json").read_text(encoding="utf-8"))
    return [Entry(e["seq"], e["command"], e["events"]) for e in data["log"]]


def card_of(entries: list[Entry], locale: str = "ru", *, additional: dict[int, float] | None = None,
            system=FIIM) -> Card:
    """The protocol card of ``entries`` scored with ``system``; ``additional`` by seat."""
    pr = build_protocol(entries)
    seats = additional or {}
    by_user: dict[int, object] = {p.user_id: seats[p.seat] for p in pr.players if p.seat in seats}
    sheet = sheet_of_entries(entries, system, by_user)
    return build_card(Translator().get(locale), locale, pr, sheet)


def docs_picture(locale: str = "ru") -> bytes:
    """The picture kept in ``docs/`` for ``locale``."""
    return draw(card_of(recorded(), locale, additional=ADDITIONAL))


if __name__ == "__main__":
    for loc, path in DOCS.items():
        path.write_bytes(docs_picture(loc))
        print(path)
