"""docs/rules/online-sport.md and the tests stay in step (docs/rules/README.md, "Pages and
tests")."""

from __future__ import annotations

import re

from .test_party_doc import ROOT, engine_tests

DOC = ROOT / "docs" / "rules" / "online-sport.md"


def rows() -> dict[str, str]:
    """ID -> the whole table row of that ID."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (ONLINE-(?:\d\d|Q\d\d|X\d\d)) \|", line)
        if m:
            assert m.group(1) not in out, f"{m.group(1)} has two rows"
            out[m.group(1)] = line
    return out


def test_every_online_catalogue_id_has_a_row():
    ids = set(rows())
    assert {f"ONLINE-{i:02d}" for i in range(1, 55)} <= ids
    assert {f"ONLINE-Q{i:02d}" for i in range(1, 26)} <= ids
    xs = sorted(int(i[8:]) for i in ids if i.startswith("ONLINE-X"))
    assert xs == list(range(1, len(xs) + 1)), "X numbers must be contiguous"


def test_every_online_row_names_existing_tests_or_the_bot_layer():
    existing = engine_tests()
    for rid, line in rows().items():
        named = set(re.findall(r"`(test_\w+)`", line))
        assert named or "bot layer" in line.split("|")[-2], f"{rid} names no test"
        assert named <= existing, f"{rid} names missing tests: {sorted(named - existing)}"


def test_every_online_rule_test_is_named_in_its_row():
    table = rows()
    for name in engine_tests():
        m = re.match(r"test_ONLINE_(\d\d|Q\d\d|X\d\d)_", name)
        if m:
            rid = f"ONLINE-{m.group(1)}"
            assert rid in table, f"{name}: {rid} is not documented"
            assert f"`{name}`" in table[rid], f"{name} is not listed in the row of {rid}"
