"""The Mini App's authentication: every API request carries Telegram's ``initData`` (the query
string Telegram hands the page, signed with the bot's token).

See https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app; the
signature check is aiogram's (:func:`aiogram.utils.web_app.safe_parse_webapp_init_data`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from aiogram.utils.web_app import WebAppInitData, safe_parse_webapp_init_data

#: how old an ``initData`` may be (its ``auth_date``) before it is refused
MAX_AGE = timedelta(hours=24)


class Unauthorized(Exception):
    """The request's ``initData`` is missing, forged, malformed or too old (HTTP 401)."""


def init_data_of(headers, query) -> str:
    """The raw ``initData`` of a request: the ``Authorization: tma <initData>`` header (the
    page's fetches) or the ``auth`` query parameter (the event stream: ``EventSource`` sends no
    headers). Empty when there is none."""
    header = headers.get("Authorization", "")
    if header.startswith("tma "):
        return header[4:].strip()
    return query.get("auth", "")


def verify(token: str, init_data: str, now: datetime, max_age: timedelta = MAX_AGE
           ) -> WebAppInitData:
    """The signed ``initData`` as aiogram parses it. Raises :class:`Unauthorized` when it is
    missing, its hash does not match the bot's ``token``, it names no user, or ``auth_date`` is
    more than ``max_age`` before ``now`` (aware UTC) -- or more than a minute after it."""
    if not init_data:
        raise Unauthorized("no initData")
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except (ValueError, TypeError) as exc:  # a bad signature or a malformed field
        raise Unauthorized("bad signature") from exc
    if data.user is None:
        raise Unauthorized("no user")
    age = now - data.auth_date
    if age > max_age or age < -timedelta(minutes=1):
        raise Unauthorized("expired")
    return data


__all__ = ["MAX_AGE", "Unauthorized", "init_data_of", "verify"]
