"""docs/rules/party.md and the tests stay in step (docs/rules/README.md, "Pages and tests")."""

from __future__ import annotations

from ..doc_check import ROOT, RulePage, engine_tests  # noqa: F401 - ROOT, engine_tests re-exported

PAGE = RulePage("PARTY", "party.md")


def test_every_catalogue_id_has_a_row():
    PAGE.check_ids(49, 26, min_x=7)


def test_every_row_names_existing_tests_or_the_bot():
    PAGE.check_rows_name_tests("bot tests")


def test_every_rule_test_is_named_in_its_row():
    PAGE.check_tests_are_listed()
