"""A tournament's pages in a real headless browser (issue 22 item 6; docs/miniapp.md
"Tournaments"): Chromium from the system's packages driven by Selenium (skipped cleanly without
chromium or chromedriver), on a 390×844 phone, opened as Telegram opens them -- the group's
direct link ``startapp=t<id>`` lands on the Mini App's page, which goes to the tournament's.
The tabs Schedule / Standings / My games; a 64-character name cut with an ellipsis, nothing
wider than the screen; the organiser's download links. ``MINIAPP_SCREENSHOTS=1`` also writes
``docs/miniapp/tournament.png`` (the standings), ``tournament-schedule.png`` and
``tournament-mine.png``."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.webapp.test_tournament import drawn, published

from .browser_support import browser_fixture as browser_fixture  # noqa: F401 - the browser fixture
from .support import served, sign_init_data

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402 - after the importorskip above
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402 - after the importorskip

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                reason="chromium and chromedriver are not installed")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "miniapp"
LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999",
         "link_color": "#2481cc", "button_color": "#2481cc", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f1f1f4"}
LONG_NAME = ("Wolfgang" * 8)[:64]
NAMES = ["Anna", "Boris", "Vera", "Grigory", LONG_NAME, "Elena", "Zhenya", "Ivan", "Kira",
         "Lev", "Maria"]
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}


def launch_url(client, h, user, path: str, start_param: str | None = None) -> str:
    """``path`` as Telegram launches the Mini App: initData and the theme in the hash."""
    init = sign_init_data(user, h.clock(), start_param=start_param)
    return (str(client.make_url(path)) + "#tgWebAppData=" + quote(init, safe="")
            + "&tgWebAppThemeParams=" + quote(json.dumps(LIGHT), safe="")
            + "&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop")


async def wait_for(driver, condition, timeout: float = 10):
    return await asyncio.to_thread(WebDriverWait(driver, timeout).until, condition)


def js(script: str):
    return lambda d: d.execute_script(script)


async def run(driver, script: str):
    return await asyncio.to_thread(driver.execute_script, script)


async def shoot(driver, name: str, tmp_path: Path) -> None:
    await asyncio.to_thread(driver.save_screenshot, str(tmp_path / name))
    if os.environ.get("MINIAPP_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / name, DOCS / name)


async def fits(driver) -> None:
    """Nothing wider than the 390 px screen: no horizontal scroll, no element past its edge."""
    width, scroll = await run(driver, """return [document.documentElement.clientWidth,
                                                 document.documentElement.scrollWidth]""")
    wide = await run(driver, """
        const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')].filter(n => n.offsetParent !== null)
          .filter(n => n.getBoundingClientRect().right > w + 0.5)
          .map(n => n.tagName + '.' + n.className + ': ' + n.textContent.slice(0, 40)).slice(0, 12)""")
    assert width == 390 and scroll <= width and wide == [], wide


async def tab(driver, name: str) -> None:
    node = await asyncio.to_thread(driver.find_element, By.ID, f"tab-{name}")
    await asyncio.to_thread(node.click)
    await wait_for(driver, js(f"return !document.getElementById('pane-{name}').hidden"))


async def test_TOUR_X07_the_tournaments_pages_on_a_390_px_phone(sqlite_url, browser, tmp_path):
    async with served(sqlite_url, n_users=13) as (h, client):
        admin, t = await drawn(h)
        players = await h.app.storage.tournament_players(t.id)
        for p, name in zip(players, NAMES, strict=True):  # names as a club would have them
            await h.app.storage.add_tournament_player(t.id, p.user_id, name)
        me = h.user(players[4].user_id)  # the 64-character name
        rounds = t.schedule["rounds"]
        first = rounds[0][0]
        absent = next(u for u in first[2:] if u != me.id)
        sub = h.users[11]
        gid = await published(h, t, 1, first, {absent: sub.id}, {me.id: 0.4, first[1]: 0.3},
                              sub_name="Sergei")
        await asyncio.to_thread(browser.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
                                PHONE)
        # the group's link: the Mini App's page with start_param t<id> goes to the tournament's
        await asyncio.to_thread(browser.get, launch_url(client, h, me, "/webapp/",
                                                        start_param=f"t{t.id}"))
        await wait_for(browser, js("return +document.body.dataset.renders >= 1"))
        assert "/webapp/tournament?t=" in browser.current_url
        head = await run(browser, "return document.getElementById('t-name').textContent")
        assert head == "🏆 Spring Cup"
        # his games first: he has some
        assert await run(browser, "return document.getElementById('pane-mine').hidden") is False
        await fits(browser)
        cards = await run(browser, """return [...document.querySelectorAll('#pane-mine section.game')]
            .map(c => [+c.dataset.round, c.querySelector('.chip').textContent,
                       c.querySelector('a.open') ? c.querySelector('a.open').getAttribute('href') : null])""")
        assert cards, "no game cards"
        if me.id in rounds[0][0]:
            assert cards[0][0] == 1 and cards[0][1] == "published"
            assert cards[0][2].startswith(f"./?g={gid}&back=t{t.id}#tgWebAppData=")
            result = await run(browser, """return document.querySelector(
                '#pane-mine section.game .result').textContent""")
            assert "won" in result or "lost" in result
        await shoot(browser, "tournament-mine.png", tmp_path)

        # the standings: every row, his highlighted and cut with an ellipsis
        await tab(browser, "standings")
        rows = await run(browser, """return [...document.querySelectorAll(
                '#pane-standings .st-row:not(.st-head)')]
            .map(r => [r.querySelector('.name').textContent, r.classList.contains('me'),
                       r.querySelector('.points').textContent])""")
        assert len(rows) == 12
        mine = [r for r in rows if r[1]]
        assert len(mine) == 1 and mine[0][0].startswith(LONG_NAME)
        cut = await run(browser, """const n = document.querySelector('#pane-standings .st-row.me .name');
            const r = n.parentElement.getBoundingClientRect();
            return [n.scrollWidth > n.clientWidth, getComputedStyle(n).textOverflow,
                    r.right <= document.documentElement.clientWidth,
                    n.parentElement.querySelector('.best_move').getBoundingClientRect().right <= r.right]""")
        assert cut == [True, "ellipsis", True, True], cut
        await fits(browser)
        assert await run(browser, "return document.querySelector('#pane-standings .export')") is None
        await shoot(browser, "tournament.png", tmp_path)

        # the schedule: the current round open, his seat marked, a game's link
        await tab(browser, "schedule")
        opened = await run(browser, """return [...document.querySelectorAll('details.round')]
            .map(d => [+d.dataset.round, d.open])""")
        assert opened == [[1, False], [2, True], [3, False]]
        await run(browser, "document.querySelectorAll('details.round').forEach(d => d.open = true)")
        seats = await run(browser, """return [...document.querySelectorAll('ol.seats li.me')]
            .map(li => { const n = li.querySelector('.name');
                         return [n.textContent, n.scrollWidth > n.clientWidth]; })""")
        assert seats and all(s == [LONG_NAME, True] for s in seats)
        await fits(browser)
        await run(browser, """document.querySelectorAll('details.round').forEach(
            d => d.open = +d.dataset.round === 1)""")
        await shoot(browser, "tournament-schedule.png", tmp_path)

        # the organiser: the export's download links, which download
        await asyncio.to_thread(browser.get, launch_url(client, h, admin,
                                                        f"/webapp/tournament?t={t.id}"))
        await asyncio.to_thread(browser.refresh)
        await wait_for(browser, js("return +document.body.dataset.renders >= 1"))
        await tab(browser, "standings")
        links = await run(browser, """return [...document.querySelectorAll('#pane-standings .export a')]
            .map(a => [a.dataset.format, a.href, a.getAttribute('download')])""")
        assert [x[0] for x in links] == ["json", "csv"]
        assert links[0][2] == f"tournament-{t.id}.json"
        resp = await client.get(links[1][1].split(str(client.make_url("")).rstrip("/"), 1)[1])
        assert resp.status == 200 and (await resp.read()).startswith("\ufeffplace,".encode())
        await fits(browser)


async def test_a_strangers_tournament_page_shows_the_refusal(sqlite_url, browser):
    async with served(sqlite_url, n_users=12) as (h, client):
        _admin, t = await drawn(h, players=10, games=1)
        from tests.bot.harness import GROUP

        stranger = h.users[11]
        h.session.set_member(GROUP, stranger.id, "left")
        await asyncio.to_thread(browser.get, launch_url(client, h, stranger,
                                                        f"/webapp/tournament?t={t.id}"))
        await wait_for(browser, js("return document.body.dataset.refused === '403'"))
        text = await run(browser, "return document.getElementById('status').textContent")
        assert text == "Only the members of the tournament's groups see its pages."
        assert await run(browser, "return document.getElementById('tabs').hidden") is True
