"""Checks that a rules page in docs/rules/ and the engine tests stay in step (docs/rules/README.md,
"Pages and tests"); each preset's test_*_doc.py calls these with its own prefix and numbers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parent


def engine_tests() -> set[str]:
    """Names of every test function in tests/engine and its per-preset folders."""
    names = set()
    for path in TESTS.rglob("test_*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


class RulePage:
    """One page: ``prefix`` like "PARTY", ``name`` the file in docs/rules/."""

    def __init__(self, prefix: str, name: str) -> None:
        self.prefix = prefix
        self.doc = ROOT / "docs" / "rules" / name

    def text(self) -> str:
        return self.doc.read_text(encoding="utf-8")

    def rows(self) -> dict[str, str]:
        """ID -> the whole table row of that ID (an ID with two rows fails)."""
        out = {}
        for line in self.text().splitlines():
            m = re.match(rf"\| ({self.prefix}-(?:\d\d|Q\d\d|X\d\d)) \|", line)
            if m:
                assert m.group(1) not in out, f"{m.group(1)} has two rows"
                out[m.group(1)] = line
        return out

    def check_ids(self, rules: int, decisions: int, *, min_x: int = 0,
                  x_range_named: bool = False) -> None:
        """Every catalogue rule 01..rules and decision Q01..Qdecisions has a row; X numbers are
        contiguous (at least ``min_x``), optionally named as a range "P-X01..Xnn" in the text."""
        ids = set(self.rows())
        p = self.prefix
        assert {f"{p}-{i:02d}" for i in range(1, rules + 1)} <= ids
        assert {f"{p}-Q{i:02d}" for i in range(1, decisions + 1)} <= ids
        xs = sorted(int(i[len(p) + 2:]) for i in ids if i.startswith(f"{p}-X"))
        assert xs == list(range(1, len(xs) + 1)), "X numbers must be contiguous"
        assert len(xs) >= min_x
        if x_range_named:
            assert f"{p}-X01..X{len(xs):02d}" in self.text()

    def check_rows_name_tests(self, bot_marker: str, *, four_cells: bool = False) -> None:
        """Each row names existing tests, or says ``bot_marker`` in its test cell."""
        existing = engine_tests()
        for rid, line in self.rows().items():
            cells = line.split("|")
            if four_cells:
                assert len(cells) == 6, f"{rid}: a row has four cells"
            named = set(re.findall(r"`(test_\w+)`", cells[-2] if four_cells else line))
            assert named or bot_marker in cells[-2], f"{rid} names no test"
            assert named <= existing, f"{rid} names missing tests: {sorted(named - existing)}"

    def check_tests_are_listed(self) -> None:
        """Every test_<PREFIX>_<ID>_... is listed in the row of its ID."""
        table = self.rows()
        for name in engine_tests():
            m = re.match(rf"test_{self.prefix}_(\d\d|Q\d\d|X\d\d)_", name)
            if m:
                rid = f"{self.prefix}-{m.group(1)}"
                assert rid in table, f"{name}: {rid} is not documented"
                assert f"`{name}`" in table[rid], f"{name} is not listed in the row of {rid}"

    def bot_only_rows(self) -> set[str]:
        """IDs whose test cell names no engine test."""
        return {rid for rid, line in self.rows().items()
                if not re.findall(r"`(test_\w+)`", line.split("|")[-2])}
