"""docs/rules/forum.md and the tests stay in step (docs/rules/README.md, "Pages and tests")."""

from __future__ import annotations

import re

from .test_party_doc import ROOT, engine_tests

DOC = ROOT / "docs" / "rules" / "forum.md"


def rows() -> dict[str, str]:
    """ID -> the whole table row of that ID."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (FORUM-(?:\d\d|Q\d\d|X\d\d)) \|", line)
        if m:
            assert m.group(1) not in out, f"{m.group(1)} has two rows"
            out[m.group(1)] = line
    return out


def test_every_forum_catalogue_id_has_a_row():
    ids = set(rows())
    assert {f"FORUM-{i:02d}" for i in range(1, 59)} <= ids
    assert {f"FORUM-Q{i:02d}" for i in range(1, 31)} <= ids
    xs = sorted(int(i[7:]) for i in ids if i.startswith("FORUM-X"))
    assert xs == list(range(1, len(xs) + 1)), "X numbers must be contiguous"
    assert f"FORUM-X01..X{len(xs):02d}" in DOC.read_text(encoding="utf-8")


def test_every_forum_row_names_existing_tests_or_the_bot_layer():
    existing = engine_tests()
    for rid, line in rows().items():
        cells = line.split("|")
        assert len(cells) == 6, f"{rid}: a row has four cells"
        named = set(re.findall(r"`(test_\w+)`", cells[-2]))
        assert named or "bot layer" in cells[-2], f"{rid} names no test"
        assert named <= existing, f"{rid} names missing tests: {sorted(named - existing)}"


def test_every_forum_rule_test_is_named_in_its_row():
    table = rows()
    for name in engine_tests():
        m = re.match(r"test_FORUM_(\d\d|Q\d\d|X\d\d)_", name)
        if m:
            rid = f"FORUM-{m.group(1)}"
            assert rid in table, f"{name}: {rid} is not documented"
            assert f"`{name}`" in table[rid], f"{name} is not listed in the row of {rid}"


def test_only_the_telegram_side_rows_lack_an_engine_test():
    bot_only = {rid for rid, line in rows().items()
                if not re.findall(r"`(test_\w+)`", line.split("|")[-2])}
    assert bot_only == {"FORUM-58", "FORUM-Q25"}
