"""docs/rules/club.md and the tests stay in step (docs/rules/README.md, "Pages and tests")."""

from __future__ import annotations

from ..doc_check import RulePage

PAGE = RulePage("CLUB", "club.md")


def test_every_catalogue_id_has_a_row():
    PAGE.check_ids(41, 23, min_x=10, x_range_named=True)


def test_every_row_names_existing_tests_or_the_bot():
    PAGE.check_rows_name_tests("bot layer", four_cells=True)


def test_every_rule_test_is_named_in_its_row():
    PAGE.check_tests_are_listed()


def test_the_engine_rows_are_tested():
    """Rows left wholly to the bot are the few the Telegram side decides alone."""
    assert PAGE.bot_only_rows() == {"CLUB-Q19", "CLUB-Q22"}
