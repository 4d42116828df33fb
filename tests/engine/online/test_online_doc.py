"""docs/rules/online-sport.md and the tests stay in step (docs/rules/README.md, "Pages and
tests")."""

from __future__ import annotations

from ..doc_check import RulePage

PAGE = RulePage("ONLINE", "online-sport.md")


def test_every_online_catalogue_id_has_a_row():
    PAGE.check_ids(54, 25)


def test_every_online_row_names_existing_tests_or_the_bot_layer():
    PAGE.check_rows_name_tests("bot layer")


def test_every_online_rule_test_is_named_in_its_row():
    PAGE.check_tests_are_listed()
