"""Process configuration, read from the environment and ``.env``.

Every setting is an environment variable of the same name in upper case
(``BOT_TOKEN``, ``DATABASE_URL``, ...); the attribute on :class:`Settings` is the
lower-case name (``settings.bot_token``). Real environment variables win over
``.env``. Durations are in seconds.

Secrets (``BOT_TOKEN``, ``WEBHOOK_SECRET``) are :class:`pydantic.SecretStr`: their
``repr``/``str`` is masked, so a logged ``Settings`` never shows them. Database
URLs may carry passwords: log :attr:`Settings.safe_database_url` instead of the raw value.
"""

from __future__ import annotations

import logging
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import unquote

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:  # aiogram costs ~3 s to import; only needed on demand
    from aiogram.client.telegram import TelegramAPIServer

__all__ = ["Settings", "get_settings", "load_settings_or_exit", "describe_errors", "configure_logging"]

# "<bot id>:<secret>" as issued by @BotFather.
_TOKEN_RE = re.compile(r"^\d+:[A-Za-z0-9_-]+$")
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class Settings(BaseSettings):
    """All settings of one bot process.

    Raises :class:`pydantic.ValidationError` on construction when a value is
    missing or malformed (``BOT_TOKEN`` is the only required one). Error
    messages never include the offending value (``hide_input_in_errors``).
    """

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        hide_input_in_errors=True,
        populate_by_name=True,
    )

    bot_token: SecretStr = Field(description="Bot token from @BotFather (required).")
    database_url: str = Field(
        "sqlite+aiosqlite:///mafia.db",
        description="SQLAlchemy async URL: sqlite+aiosqlite:///file.db or postgresql+asyncpg://...",
    )
    telegram_api_url: str = Field(
        "https://api.telegram.org",
        description="Bot API server base URL; point it at a local telegram-bot-api server if you run one.",
    )
    webhook_url: str | None = Field(
        None,
        description="Public HTTPS base URL; when set the bot serves a webhook instead of long polling.",
    )
    webhook_path: str = Field("/webhook", description="Path of the webhook endpoint on the web server.")
    webhook_secret: SecretStr | None = Field(
        None,
        description="Secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (1-256 of A-Z a-z 0-9 _ -).",
    )
    web_host: str = Field("0.0.0.0", description="Interface the web server (webhook, Mini App) listens on.")
    web_port: int = Field(
        8080, ge=1, le=65535, validation_alias=AliasChoices("web_port", "port"),
        description="Port the web server (webhook, Mini App) listens on; PORT (set by platforms "
                    "such as Heroku) when WEB_PORT is not set.")
    default_locale: str = Field("ru", description="Language of chats that have not chosen one.")
    log_level: str = Field("INFO", description="Python logging level name.")
    lobby_timeout: int = Field(1800, gt=0, description="Seconds before an unstarted lobby is cancelled.")
    rules_url: str | None = Field(
        None,
        description="Base URL of the published docs/rules/ pages that /rules links to "
                    "(e.g. a repository's .../blob/main/docs/rules/).",
    )
    polling_timeout: int = Field(30, ge=0, le=600, description="Long-polling timeout of getUpdates, seconds.")
    webapp_url: str | None = Field(
        None,
        description="Public HTTPS base URL of the bot's web server; when set it serves the live "
                    "table Mini App at WEBAPP_URL/webapp/ (docs/miniapp.md), also in polling mode.",
    )
    webapp_name: str | None = Field(
        None,
        description="The Mini App's short name from BotFather's /newapp, for the group's link "
                    "t.me/<bot>/<name>; empty: the bot's main Mini App (t.me/<bot>?startapp).",
    )

    redis_url: str | None = Field(
        None,
        description="Redis for many workers (docs/deployment.md): redis://host:6379/0, or through "
                    "Sentinel redis+sentinel://host:26379,host2:26379/mymaster. Empty: one "
                    "process, everything in its memory, as before.",
    )
    redis_prefix: str = Field("mafia:", description="Prefix of every Redis key this bot uses.")
    web_concurrency: int = Field(
        1, ge=1, le=64,
        description="Webhook workers `python -m bot` starts, sharing WEB_PORT (SO_REUSEPORT); more "
                    "than 1 needs WEBHOOK_URL, REDIS_URL and PostgreSQL.",
    )
    worker_id: str | None = Field(
        None, description="This worker's name in Redis (default: host name and worker index, "
                          "stable across restarts).")
    shards: int = Field(64, ge=1, le=4096,
                        description="Shards the chats are spread over (all workers must agree).")
    lease_seconds: float = Field(
        5.0, ge=1.0, le=60.0,
        description="Seconds a worker's hold on its shards lasts without renewal: a dead worker's "
                    "games move to another worker this long after its last renewal.",
    )

    @field_validator("bot_token", mode="before")
    @classmethod
    def _empty_token_is_missing(cls, value: object) -> object:
        # .env.example ships "BOT_TOKEN=": report that as "not set", not as malformed.
        if value is None or (isinstance(value, str) and not value.strip()):
            raise PydanticCustomError("missing", "Field required")
        return value

    @field_validator("bot_token")
    @classmethod
    def _check_token(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN_RE.match(value.get_secret_value().strip()):
            raise ValueError("does not look like a bot token (expected '<digits>:<letters>' from @BotFather)")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("webhook_url", "webhook_secret", "rules_url", "webapp_url", "webapp_name",
                     "redis_url", "worker_id", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # "WEBHOOK_URL=" in .env means "not set", not "set to the empty string".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str | None) -> str | None:
        if value is not None:
            parse_sentinel_url(value)  # a malformed Sentinel URL is refused at start
        return value

    @field_validator("webhook_url")
    @classmethod
    def _check_webhook_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL, e.g. https://bot.example.com")
        return value.rstrip("/") if value else value

    @field_validator("webapp_url")
    @classmethod
    def _check_webapp_url(cls, value: str | None) -> str | None:
        # Telegram opens Mini Apps over HTTPS only
        if value is not None and not value.startswith("https://"):
            raise ValueError("must be an https URL, e.g. https://bot.example.com")
        return value.rstrip("/") if value else value

    @field_validator("webapp_name")
    @classmethod
    def _check_webapp_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value):
            raise ValueError("must be the Mini App's short name (3-30 of A-Z a-z 0-9 _)")
        return value

    @field_validator("webhook_path")
    @classmethod
    def _check_webhook_path(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError("must start with '/'")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _check_webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value.get_secret_value()):
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("telegram_api_url")
    @classmethod
    def _check_api_url(cls, value: str) -> str:
        if not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL, e.g. https://api.telegram.org")
        return value.rstrip("/")

    @field_validator("log_level")
    @classmethod
    def _check_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in _LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(_LOG_LEVELS)}")
        return level

    @field_validator("default_locale")
    @classmethod
    def _check_locale(cls, value: str) -> str:
        if value not in ("ru", "en"):
            raise ValueError("must be 'ru' or 'en' (the languages the bot speaks)")
        return value

    def __repr_args__(self):  # type: ignore[no-untyped-def]
        # URLs may embed passwords: show them masked when settings are printed or logged.
        for name, value in super().__repr_args__():
            if name in ("database_url", "redis_url") and isinstance(value, str):
                value = _mask_url(value)
            yield name, value

    # -- derived values ---------------------------------------------------------------

    @property
    def use_webhook(self) -> bool:
        """True when updates arrive by webhook (``WEBHOOK_URL`` is set)."""
        return self.webhook_url is not None

    @property
    def webhook_endpoint(self) -> str | None:
        """Full URL registered with ``setWebhook``: ``WEBHOOK_URL`` + ``WEBHOOK_PATH``; None in
        polling mode."""
        if self.webhook_url is None:
            return None
        return self.webhook_url + self.webhook_path

    @property
    def clustered(self) -> bool:
        """True when this process is one of many webhook workers sharing Redis (``REDIS_URL``
        set and webhook mode); polling always runs one process."""
        return self.redis_url is not None and self.use_webhook

    @property
    def safe_redis_url(self) -> str | None:
        """``REDIS_URL`` with any password masked, for logs."""
        return _mask_url(self.redis_url) if self.redis_url else None

    @property
    def safe_database_url(self) -> str:
        """``DATABASE_URL`` with any password masked, for logs."""
        return _mask_url(self.database_url)

    def telegram_api_server(self) -> TelegramAPIServer:
        """aiogram's :class:`TelegramAPIServer` for ``TELEGRAM_API_URL``.

        Pass it as ``AiohttpSession(api=settings.telegram_api_server())``. Imports
        aiogram on first use.
        """
        from aiogram.client.telegram import TelegramAPIServer

        return TelegramAPIServer.from_base(self.telegram_api_url)


@dataclass(frozen=True)
class SentinelURL:
    """A ``REDIS_URL`` naming Redis through Sentinel (issue 19: no single point of failure):
    ``redis+sentinel://[[user]:password@]host[:port][,host[:port]...]/service[/db]``
    (``rediss+sentinel://``: TLS). ``sentinels``: ``(host, port)`` (port 26379 if omitted);
    ``service``: the monitored master's name; the password is the master's and the
    Sentinels'."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    ssl: bool = False


def parse_sentinel_url(url: str) -> SentinelURL | None:
    """The parts of a Sentinel ``REDIS_URL`` (see :class:`SentinelURL`); None for any other
    URL. Raises ``ValueError`` naming what is wrong with a malformed one."""
    if not url.startswith(("redis+sentinel://", "rediss+sentinel://")):
        return None
    match = re.match(r"^(rediss?)\+sentinel://(?:([^:@/]*)(?::([^@/]*))?@)?([^/]*)/([^/]*)"
                     r"(?:/(\d+))?/?$", url)
    if match is None:
        raise ValueError("a Sentinel URL is redis+sentinel://[:password@]host:26379[,host:26379]"
                         "/<master name>[/<db>]")
    scheme, user, password, hosts, service, db = match.groups()
    sentinels = []
    for item in hosts.split(","):
        host, _, port = item.strip().partition(":")
        if not host or (port and not port.isdigit()):
            raise ValueError(f"bad Sentinel address {item!r} (expected host or host:port)")
        sentinels.append((host, int(port or 26379)))
    if not service:
        raise ValueError("the Sentinel URL names no master (…/<master name>)")
    return SentinelURL(tuple(sentinels), unquote(service), int(db or 0),
                       unquote(user) if user else None,
                       unquote(password) if password is not None else None, scheme == "rediss")


def _mask_url(url: str) -> str:
    """Replace the password in ``scheme://user:password@host/...`` with ``***``."""
    return re.sub(r"^([a-zA-Z0-9+.-]+://[^:/@]*:)[^@]*@", r"\1***@", url)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide :class:`Settings`, read once and cached.

    Raises :class:`pydantic.ValidationError` when the configuration is invalid (for a
    friendly exit use :func:`load_settings_or_exit`). Tests that change the
    environment call ``get_settings.cache_clear()``.
    """
    return Settings()  # the values come from the environment


def describe_errors(error: ValidationError) -> list[str]:
    """One human-readable line per invalid setting, naming the env variable, never its value."""
    lines = []
    for item in error.errors(include_input=False, include_url=False):
        name = ".".join(str(part) for part in item["loc"]).upper() or "settings"
        if item["type"] == "missing":
            if name == "BOT_TOKEN":
                lines.append(
                    "BOT_TOKEN is not set: copy .env.example to .env and put the token from @BotFather there"
                )
            else:
                lines.append(f"{name} is not set")
        else:
            message = item["msg"].removeprefix("Value error, ")
            lines.append(f"{name}: {message}")
    return lines


def load_settings_or_exit() -> Settings:
    """Return :func:`get_settings`, or print what is wrong to stderr and exit with status 2.

    Meant for ``python -m bot``: a missing ``BOT_TOKEN`` produces the single line
    ``mafia-bot: BOT_TOKEN is not set: ...`` instead of a traceback.
    """
    try:
        return get_settings()
    except ValidationError as error:
        for line in describe_errors(error):
            print(f"mafia-bot: {line}", file=sys.stderr)
        raise SystemExit(2) from None


def configure_logging(settings: Settings) -> None:
    """Set up root logging at ``LOG_LEVEL`` with a timestamped one-line format."""
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Migrations and the scheduler are chatty at INFO; their news matters only when it is bad.
    for name in ("alembic", "apscheduler"):
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLevelName(settings.log_level)))
    # aiogram writes two lines at INFO for every press ("Update id=... is handled", "Answer to
    # callback query id=..."): ~27 us of CPU per update, a fifth of routing it. Shown at DEBUG.
    if logging.getLevelName(settings.log_level) >= logging.INFO:
        for name in ("aiogram.event", "aiogram.middlewares"):
            logging.getLogger(name).setLevel(logging.WARNING)
