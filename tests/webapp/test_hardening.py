"""Bad input and secrets (issue 20): a malformed game id or a non-JSON number is a 400/404, never
a 500; the stream's ticket and initData stay out of aiohttp's logs; the page may be framed only
by Telegram's web clients."""

from __future__ import annotations

import asyncio
import logging

from tests.bot.helpers import start_game

from .support import auth, served
from .test_live import next_table, ticket_of


async def test_a_non_ascii_digit_game_is_a_404_not_a_500(sqlite_url):
    async with served(sqlite_url) as (h, client):
        await start_game(h)
        for g in ("²", "١٢", "1²"):  # str.isdigit() says yes to all of them
            resp = await client.get("/webapp/api/table", params={"g": g},
                                    headers=auth(h, h.users[0]))
            assert resp.status == 404, (g, await resp.text())
            resp = await client.get("/webapp/api/stream", params={"g": g, "ticket": "x"})
            assert resp.status in (401, 404)


async def test_infinity_and_nan_in_a_press_are_a_400_not_a_500(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        before = await h.log_len(game_id)
        for raw in (b'{"g": %d, "a": "vote", "t": Infinity}', b'{"g": %d, "a": "vote", "s": NaN}',
                    b'{"g": %d, "a": "vote", "t": -Infinity}'):
            resp = await client.post("/webapp/api/act", data=raw % game_id,
                                     headers={**auth(h, h.users[0]),
                                              "Content-Type": "application/json"})
            assert resp.status == 400, await resp.text()
        resp = await client.post("/webapp/api/act", json={"g": game_id, "a": "vote", "t": 1e300},
                                 headers=auth(h, h.users[0]))
        assert resp.status == 200 and (await resp.json())["ok"] is False  # a number, just wrong
        assert await h.log_len(game_id) == before


async def test_the_csp_allows_framing_by_telegram_web_only(sqlite_url):
    async with served(sqlite_url) as (h, client):
        resp = await client.get("/webapp/")
        csp = resp.headers["Content-Security-Policy"]
        directive = next(d.strip() for d in csp.split(";") if "frame-ancestors" in d)
        assert directive.split()[1:] == ["https://web.telegram.org", "https://*.web.telegram.org"]


class Capture(logging.Handler):
    """Every record's fully formatted text (message, extras, traceback)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record) + " " + repr(vars(record)))


async def test_the_ticket_and_initData_stay_out_of_the_logs(sqlite_url):
    capture = Capture()
    loggers = [logging.getLogger(n) for n in ("aiohttp.access", "aiohttp.server")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(capture)
        lg.setLevel(logging.DEBUG)
    try:
        async with served(sqlite_url) as (h, client):
            game_id = await start_game(h)
            ticket = await ticket_of(client, h, h.users[0], game_id)
            resp = await client.get("/webapp/api/stream",
                                    params={"g": str(game_id), "ticket": ticket})
            await next_table(resp)
            h.app.webapp.close_streams()  # the stream ends: its access log line is written
            assert await asyncio.wait_for(resp.content.read(), 10) == b""
            header = auth(h, h.users[0])["Authorization"]
            secret = header[4:40]  # the start of initData, as aiohttp's 400 would quote it
            big = header + "&pad=" + "x" * 9000  # over aiohttp's 8190-byte header line
            reader, writer = await asyncio.open_connection(client.host, client.port)
            writer.write(f"GET /webapp/api/table?g={game_id} HTTP/1.1\r\nHost: x\r\n"
                         f"Authorization: {big}\r\n\r\n".encode())
            await writer.drain()
            head = await asyncio.wait_for(reader.read(200), 10)
            writer.close()
            assert head.startswith(b"HTTP/1.1 400") or head.startswith(b"HTTP/1.0 400")
            for _ in range(50):  # the access log is written after the response
                if any("/webapp/api/stream" in line for line in capture.lines) \
                        and any("Error handling request" in line for line in capture.lines):
                    break
                await asyncio.sleep(0.05)
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(capture)
            lg.setLevel(level)
    logged = "\n".join(capture.lines)
    assert "/webapp/api/stream" in logged and "ticket=<hidden>" in logged
    assert "Error handling request" in logged  # the 400 is still logged ...
    sig = ticket.rpartition(".")[2]
    assert sig not in logged and ticket not in logged
    assert secret not in logged  # ... without initData
