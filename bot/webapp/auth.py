"""The Mini App's authentication: every API request carries Telegram's ``initData`` (the query
string Telegram hands the page, signed with the bot's token).

See https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app; the
signature check is aiogram's (:func:`aiogram.utils.web_app.safe_parse_webapp_init_data`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import datetime, timedelta

from aiogram.utils.web_app import WebAppInitData, safe_parse_webapp_init_data

#: how old an ``initData`` may be (its ``auth_date``) before it is refused
MAX_AGE = timedelta(hours=24)
#: how long a stream ticket opens the event stream (the page fetches a new one to reconnect)
TICKET_AGE = timedelta(minutes=5)


class Unauthorized(Exception):
    """The request's ``initData`` is missing, forged, malformed or too old (HTTP 401)."""


def init_data_of(headers: Mapping[str, str]) -> str:
    """The raw ``initData`` of a request's ``Authorization: tma <initData>`` header; empty when
    there is none."""
    header = headers.get("Authorization", "")
    return header[4:].strip() if header.startswith("tma ") else ""


def _ticket_sig(token: str, body: str, scope: str = "") -> str:
    key = hmac.new(b"mafia-webapp-ticket" + scope.encode(), token.encode(), hashlib.sha256).digest()
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()[:32]


def make_ticket(token: str, user_id: int, game_id: int, now: datetime, scope: str = "") -> str:
    """A short-lived ticket for the event stream of ``game_id`` (``EventSource`` sends no
    headers, and a URL may end up in a proxy's access log: the 24-hour ``initData`` never goes
    into one). ``<user>.<game>.<expiry, Unix s>.<HMAC of the bot token>``. ``scope`` keys the
    HMAC apart for another use of the same shape (``"export"``: a tournament's download link,
    ``game_id`` its tournament): a ticket of one scope is forged in every other."""
    body = f"{user_id}.{game_id}.{int((now + TICKET_AGE).timestamp())}"
    return f"{body}.{_ticket_sig(token, body, scope)}"


def check_ticket(token: str, ticket: str, game_id: int, now: datetime, scope: str = "") -> int:
    """The user id a ticket of ``scope`` was made for. Raises :class:`Unauthorized` for a forged
    or expired ticket, or one made for another game (tournament) or scope."""
    body, _dot, sig = ticket.rpartition(".")
    parts = body.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) \
            or not hmac.compare_digest(sig, _ticket_sig(token, body, scope)):
        raise Unauthorized("bad ticket")
    user_id, game, expiry = (int(p) for p in parts)
    if game != game_id:
        raise Unauthorized("bad ticket")
    if expiry < now.timestamp():
        raise Unauthorized("expired")
    return user_id


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


__all__ = ["MAX_AGE", "TICKET_AGE", "Unauthorized", "check_ticket", "init_data_of",
           "make_ticket", "verify"]
