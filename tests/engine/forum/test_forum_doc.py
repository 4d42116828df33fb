"""docs/rules/forum.md and the tests stay in step (docs/rules/README.md, "Pages and tests")."""

from __future__ import annotations

from ..doc_check import RulePage

PAGE = RulePage("FORUM", "forum.md")


def test_every_forum_catalogue_id_has_a_row():
    PAGE.check_ids(58, 30, x_range_named=True)


def test_every_forum_row_names_existing_tests_or_the_bot_layer():
    PAGE.check_rows_name_tests("bot layer", four_cells=True)


def test_every_forum_rule_test_is_named_in_its_row():
    PAGE.check_tests_are_listed()


def test_only_the_telegram_side_rows_lack_an_engine_test():
    assert PAGE.bot_only_rows() == {"FORUM-58", "FORUM-Q25"}
