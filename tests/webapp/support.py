"""Helpers of the Mini App tests: signed ``initData`` as Telegram makes it, and a harness whose
bot serves the Mini App on an aiohttp test server."""

from __future__ import annotations

import hashlib
import hmac
import json
from contextlib import asynccontextmanager
from datetime import datetime
from urllib.parse import urlencode

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.webapp import setup
from tests.bot.harness import make_harness
from tests.fakes.session import TEST_TOKEN

WEBAPP_URL = "https://mafia.example.org"


def sign_init_data(user, auth_date: datetime, *, token: str = TEST_TOKEN,
                   start_param: str | None = None, tamper: bool = False,
                   lang: str = "en", write: bool | None = None) -> str:
    """``initData`` for ``user`` (a FakeUser), signed with ``token`` as Telegram signs it
    (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app).
    ``tamper``: change a field after signing (a forgery); ``lang`` the user's
    ``language_code``; ``write`` his ``allows_write_to_pm`` (None: left out)."""
    person = {"id": user.id, "first_name": user.first_name, "language_code": lang}
    if write is not None:
        person["allows_write_to_pm"] = write
    fields = {"auth_date": str(int(auth_date.timestamp())), "query_id": "AAH-test",
              "user": json.dumps(person, separators=(",", ":"))}
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if tamper:
        fields["user"] = fields["user"].replace(str(user.id), str(user.id + 1))
    return urlencode(fields)


def web_app_of(h) -> web.Application:
    app = web.Application()
    setup(app, h.app.webapp, TEST_TOKEN)
    return app


@asynccontextmanager
async def served(db_url: str, n_users: int = 7, **kw):
    """(harness, client): the bot with ``WEBAPP_URL`` set, its web server on a test port."""
    h = await make_harness(db_url, n_users=n_users, webapp_url=WEBAPP_URL, **kw)
    client = TestClient(TestServer(web_app_of(h)))
    await client.start_server()
    try:
        yield h, client
    finally:
        await client.close()
        await h.stop()


def auth(h, user, **kw) -> dict[str, str]:
    """The page's request header for ``user``, signed now (the harness clock)."""
    return {"Authorization": "tma " + sign_init_data(user, h.clock(), **kw)}
