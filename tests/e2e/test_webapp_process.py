"""The Mini App in the real process (docs/miniapp.md): with WEBAPP_URL set, ``python -m bot`` in
polling mode also starts its web server on WEB_HOST:WEB_PORT, serves the page and refuses an
API request without initData; SIGTERM stops both cleanly."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from .botproc import BotProcess
from .fake_api import FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_polling_mode_serves_the_mini_app(bot_api: FakeBotAPI, e2e_database_url: str,
                                                tmp_path_factory) -> None:
    port = free_port()
    proc = BotProcess(bot_api, e2e_database_url, tmp_path_factory.mktemp("e2e-webapp"), env={
        "WEBAPP_URL": "https://mafia.example.org", "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(port)})
    await proc.start()
    try:
        base = f"http://127.0.0.1:{port}/webapp/"
        async with aiohttp.ClientSession() as http:
            async with http.get(base) as resp:
                assert resp.status == 200 and "app.js" in await resp.text()
            async with http.get(base + "api/table") as resp:
                assert resp.status == 401
        assert "Mini App at https://mafia.example.org/webapp/" in proc.log_text()
    finally:
        status = await proc.stop()
    assert status == 0, proc.log_tail()
    assert not proc.problems(), proc.problems()
