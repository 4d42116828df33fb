"""docs/rules/noir.md and the NOIR tests stay in step (docs/rules/README.md, "Pages and tests").

``doc_check`` reads test names from tests/engine only, so this page's checker also reads
tests/engine/noir."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ..doc_check import RulePage, engine_tests

HERE = Path(__file__).resolve().parent


def noir_tests() -> set[str]:
    names = set(engine_tests())
    for path in HERE.glob("test_*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


class NoirPage(RulePage):
    def check_rows_name_tests(self, bot_marker: str, *, four_cells: bool = False) -> None:
        existing = noir_tests()
        for rid, line in self.rows().items():
            cells = line.split("|")
            assert len(cells) == 6, f"{rid}: a row has four cells"
            named = set(re.findall(r"`(test_\w+)`", cells[-2]))
            assert named or bot_marker in cells[-2], f"{rid} names no test"
            assert named <= existing, f"{rid} names missing tests: {sorted(named - existing)}"

    def check_tests_are_listed(self) -> None:
        table = self.rows()
        for name in noir_tests():
            m = re.match(rf"test_{self.prefix}_(\d\d|Q\d\d|X\d\d)_", name)
            if m:
                rid = f"{self.prefix}-{m.group(1)}"
                assert rid in table, f"{name}: {rid} is not documented"
                assert f"`{name}`" in table[rid], f"{name} is not listed in the row of {rid}"


PAGE = NoirPage("NOIR", "noir.md")


def test_every_catalogue_id_has_a_row():
    PAGE.check_ids(42, 28, min_x=6, x_range_named=True)


def test_every_row_names_existing_tests_or_the_bot():
    PAGE.check_rows_name_tests("bot layer")


def test_every_rule_test_is_named_in_its_row():
    PAGE.check_tests_are_listed()


def test_every_noir_rule_has_an_engine_test():
    assert PAGE.bot_only_rows() == set()


def test_every_where_enforced_names_existing_code():
    import importlib
    for rid, line in PAGE.rows().items():
        where = line.split("|")[3].split(":")[0]
        for ref in re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)?)`", where):
            module, _, name = ref.partition(".")
            mod = importlib.import_module(f"engine.noir.{module}")
            if name:
                obj = getattr(mod, name, None) or getattr(getattr(mod, "NoirState", None),
                                                          name, None)
                assert obj is not None, f"{rid}: {ref} does not exist"
