"""WEBAPP_URL and WEBAPP_NAME (bot/config.py): off when empty, HTTPS only, a short name's
characters checked."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings

TOKEN = "123456:ABCdef_ghi-JKL"


def settings(**env) -> Settings:
    return Settings(_env_file=None, bot_token=TOKEN, **env)


def test_the_mini_app_is_off_unless_configured():
    assert settings().webapp_url is None
    assert settings(webapp_url="", webapp_name="").webapp_url is None


def test_WEBAPP_URL_must_be_https_and_loses_its_trailing_slash():
    assert settings(webapp_url="https://mafia.example.org/").webapp_url == \
        "https://mafia.example.org"
    with pytest.raises(ValidationError):
        settings(webapp_url="http://mafia.example.org")


def test_WEBAPP_NAME_is_a_short_name():
    assert settings(webapp_name="table").webapp_name == "table"
    with pytest.raises(ValidationError):
        settings(webapp_name="no/way")
