"""Shared pytest configuration. Database fixtures (``database``, ``storage``) live in
tests/fixtures_db.py; add other fixtures in their own modules and import them here."""

from tests.fixtures_db import *  # noqa: F401,F403 - the database fixtures, shared by every test
