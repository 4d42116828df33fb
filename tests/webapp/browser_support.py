"""What the Mini App's browser tests share (tests/webapp/test_browser*.py): headless Chromium
driven by Selenium (the ``browser`` fixture: import ``browser_fixture``; importing this module skips
the test module when Selenium is missing), the page's URL as Telegram launches it, waits, clicks,
element rectangles, screenshots, the themes and a club game with a judge."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.fakes.updates import FakeUser

from .support import sign_init_data

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402 - after the importorskip above
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402 - after the importorskip

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


CHROMEDRIVER = shutil.which("chromedriver")


DOCS = Path(__file__).resolve().parents[2] / "docs" / "miniapp"


LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999",
         "link_color": "#2481cc", "button_color": "#2481cc", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f1f1f4"}


DARK = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
        "link_color": "#6ab3f3", "button_color": "#5288c1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c", "destructive_text_color": "#ec3942"}


JUDGE = FakeUser(900_000_000_901, "Judge")


@pytest.fixture(name="browser")
def browser_fixture():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=420,1000", "--host-resolver-rules=MAP telegram.org ~NOTFOUND"):
        options.add_argument(arg)  # telegram.org unreachable: the page works without its script
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()


def page_url(client, h, user, game_id: int, theme: dict) -> str:
    """The page as Telegram launches it: initData and the theme in the hash."""
    init = sign_init_data(user, h.clock())
    return (str(client.make_url(f"/webapp/?g={game_id}")) + "#tgWebAppData=" + quote(init, safe="")
            + "&tgWebAppThemeParams=" + quote(json.dumps(theme), safe="")
            + "&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop")


async def wait_for(driver, condition, timeout: float = 10):
    """Wait (in a thread: the bot's server runs on this event loop) until ``condition(driver)``."""
    return await asyncio.to_thread(WebDriverWait(driver, timeout).until, condition)


def js(script: str):
    return lambda d: d.execute_script(script)


async def shoot(driver, name: str, tmp_path: Path) -> None:
    await wait_for(driver, js("return document.getElementById('toast').hidden"))
    await asyncio.to_thread(driver.save_screenshot, str(tmp_path / name))
    if os.environ.get("MINIAPP_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / name, DOCS / name)


#: Telegram's longest name: first name and last name, 64 characters (no space to break at)
LONG_NAME = ("Wolfgang" * 8)[:64]


async def club_with_judge(h, long_name: bool = False) -> int:
    """A club game hosted by :data:`JUDGE`; ``long_name``: seat holder 5 is named
    :data:`LONG_NAME`."""
    h.session.register_user(JUDGE)
    if long_name:
        h.users[4] = FakeUser(h.users[4].id, LONG_NAME)
        h.session.register_user(h.users[4])
    await h.command(h.users[0], "/newgame club")
    g = await h.game()
    await h.dm(JUDGE, f"/start host_{g.id}")
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    return g.id


async def click(driver, selector: str) -> None:
    """A real click on the element ``selector`` names now (found again if a table redrew it)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(5):
        try:
            node = await asyncio.to_thread(driver.find_element, By.CSS_SELECTOR, selector)
            await asyncio.to_thread(node.click)
            return
        except StaleElementReferenceException:
            await asyncio.sleep(0.1)
    raise AssertionError(f"{selector} kept being redrawn")


async def rects(driver, selector: str) -> list[dict]:
    return await asyncio.to_thread(driver.execute_script, f"""
        return [...document.querySelectorAll('{selector}')].map(n => {{
          const r = n.getBoundingClientRect();
          return {{a: n.dataset.a || n.className, left: r.left, right: r.right, top: r.top}}; }});""")


async def console_rects(driver) -> list[tuple]:
    """Every cell of the judge's console (the clock's row and the seats' rows) and where it is
    on the page (its top from the document's, whatever the scroll)."""
    return [(r["a"], round(r["left"]), round(r["right"]), round(r["top"]))
            for r in await asyncio.to_thread(driver.execute_script, """
        return [...document.querySelectorAll('#judge .clockrow > button, #judge .seatrow > *')]
          .map(n => { const r = n.getBoundingClientRect();
                      return {a: n.dataset.a || n.className, left: r.left, right: r.right,
                              top: r.top + window.scrollY}; });""")]


def same_places(now: list[tuple], then: list[tuple]) -> bool:
    """Every cell where it was: the same left and right; the same top for a button that was a
    button before (an empty slot that became the foul's undo is a button now, in its place)."""
    assert len(now) == len(then)
    for (a, left, right, top), (b, left0, right0, top0) in zip(now, then, strict=True):
        if (left, right) != (left0, right0) or (a == b and top != top0):
            return False
    return True


def seconds_shown(driver) -> int:
    """The page's clock («1:25») in seconds (call it in a thread: it asks the browser)."""
    minutes, seconds = driver.find_element(By.ID, "clock").text.split(":")
    return int(minutes) * 60 + int(seconds)
