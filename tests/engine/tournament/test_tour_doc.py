"""docs/rules/tournament.md and the tournament tests stay in step (docs/rules/README.md)."""

from __future__ import annotations

from ..doc_check import RulePage

PAGE = RulePage("TOUR", "tournament.md")


def test_every_decision_has_a_row_and_the_range_is_named():
    PAGE.check_ids(0, 0, min_x=9, x_range_named=True)


def test_every_row_names_existing_tests_and_every_test_is_listed():
    PAGE.check_rows_name_tests("bot")
    PAGE.check_tests_are_listed()
