"""docs/rules/club.md and the tests stay in step (docs/rules/README.md, "Pages and tests")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "club.md"
TESTS = Path(__file__).resolve().parent


def rows() -> dict[str, str]:
    """ID -> the whole table row of that ID."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (CLUB-(?:\d\d|Q\d\d|X\d\d)) \|", line)
        if m:
            assert m.group(1) not in out, f"{m.group(1)} has two rows"
            out[m.group(1)] = line
    return out


def engine_tests() -> set[str]:
    names = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_every_catalogue_id_has_a_row():
    ids = set(rows())
    assert {f"CLUB-{i:02d}" for i in range(1, 42)} <= ids
    assert {f"CLUB-Q{i:02d}" for i in range(1, 24)} <= ids
    xs = sorted(int(i[6:]) for i in ids if i.startswith("CLUB-X"))
    assert xs == list(range(1, len(xs) + 1)), "X numbers must be contiguous"
    assert len(xs) >= 10
    assert f"CLUB-X01..X{len(xs):02d}" in DOC.read_text(encoding="utf-8")


def test_every_row_names_existing_tests_or_the_bot():
    existing = engine_tests()
    for rid, line in rows().items():
        cells = line.split("|")
        assert len(cells) == 6, f"{rid}: a row has four cells"
        named = set(re.findall(r"`(test_\w+)`", cells[-2]))
        assert named or "bot layer" in cells[-2], f"{rid} names no test"
        assert named <= existing, f"{rid} names missing tests: {sorted(named - existing)}"


def test_every_rule_test_is_named_in_its_row():
    table = rows()
    for name in engine_tests():
        m = re.match(r"test_CLUB_(\d\d|Q\d\d|X\d\d)_", name)
        if m:
            rid = f"CLUB-{m.group(1)}"
            assert rid in table, f"{name}: {rid} is not documented"
            assert f"`{name}`" in table[rid], f"{name} is not listed in the row of {rid}"


def test_the_engine_rows_are_tested():
    """Rows left wholly to the bot are the few the Telegram side decides alone."""
    bot_only = {rid for rid, line in rows().items()
                if not re.findall(r"`(test_\w+)`", line.split("|")[-2])}
    assert bot_only == {"CLUB-Q19", "CLUB-Q22"}
