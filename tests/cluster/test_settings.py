"""Many-worker settings (issue 12): configuration only, and refusals that say why."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from bot.__main__ import check_workers
from bot.config import Settings

TOKEN = "123456:ABCdef_ghi-jkl"
PG = "postgresql+asyncpg://u:pgpass42@db:5432/mafia"


def settings(**values) -> Settings:
    return Settings(_env_file=None, bot_token=SecretStr(TOKEN), **values)


def test_no_redis_is_one_process() -> None:
    s = settings(redis_url="", webhook_url="https://bot.example.com")
    assert s.redis_url is None and not s.clustered
    assert check_workers(s) is None


def test_redis_and_a_webhook_make_a_worker() -> None:
    s = settings(redis_url="redis://:rdpass42@redis:6379/0", webhook_url="https://bot.example.com",
                 database_url=PG, web_concurrency=3)
    assert s.clustered and check_workers(s) is None
    assert s.safe_redis_url == "redis://:***@redis:6379/0"
    assert "rdpass42" not in repr(s) and "pgpass42" not in repr(s)


@pytest.mark.parametrize("values, words", [
    ({"web_concurrency": 2}, "long polling runs one process"),
    ({"web_concurrency": 2, "webhook_url": "https://b.example.com", "database_url": PG},
     "needs REDIS_URL"),
    ({"web_concurrency": 2, "webhook_url": "https://b.example.com",
      "redis_url": "redis://r:6379/0"}, "postgresql"),
])
def test_what_cannot_run_is_refused_with_the_reason(values, words) -> None:
    problem = check_workers(settings(**values))
    assert problem is not None and words in problem


def test_polling_with_redis_stays_one_process() -> None:
    s = settings(redis_url="redis://r:6379/0")
    assert not s.clustered and check_workers(s) is None


def test_port_is_read_when_web_port_is_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Platforms such as Heroku give the port to listen on as PORT."""
    monkeypatch.delenv("WEB_PORT", raising=False)
    monkeypatch.setenv("PORT", "5123")
    assert settings().web_port == 5123
    monkeypatch.setenv("WEB_PORT", "6123")
    assert settings().web_port == 6123


@pytest.mark.parametrize(("url", "parts"), [
    ("redis+sentinel://s1:26379,s2:26380/mymaster",
     ((("s1", 26379), ("s2", 26380)), "mymaster", 0, None, None, False)),
    ("redis+sentinel://:p%40ss@s1/mymaster/2",
     ((("s1", 26379),), "mymaster", 2, None, "p@ss", False)),
    ("rediss+sentinel://bot:pw@10.0.0.1:5000/cache/",
     ((("10.0.0.1", 5000),), "cache", 0, "bot", "pw", True)),
])
def test_a_sentinel_url_names_the_sentinels_the_master_and_the_db(url: str, parts: tuple) -> None:
    """Issue 19: Redis without a single point of failure, through Sentinel."""
    from bot.config import SentinelURL, parse_sentinel_url

    parsed = parse_sentinel_url(url)
    assert parsed == SentinelURL(*parts)
    s = settings(redis_url=url, webhook_url="https://bot.example.com", database_url=PG)
    assert s.clustered and check_workers(s) is None
    assert parsed.password is None or parsed.password not in (s.safe_redis_url or "")


@pytest.mark.parametrize("url", ["redis+sentinel://s1:26379", "redis+sentinel://s1:x/mymaster",
                                 "redis+sentinel:///mymaster"])
def test_a_malformed_sentinel_url_is_refused_at_start(url: str) -> None:
    with pytest.raises(ValidationError, match="Sentinel"):
        settings(redis_url=url)


def test_a_plain_redis_url_is_no_sentinel_url() -> None:
    from bot.config import parse_sentinel_url

    assert parse_sentinel_url("redis://:pw@redis:6379/0") is None
