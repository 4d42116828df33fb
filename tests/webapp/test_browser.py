"""The Mini App's page in a real headless browser: Chromium from the system's packages driven by
Selenium (no browser download; skipped cleanly when chromium or chromedriver is missing).

Opened as Telegram opens it -- the signed initData in the URL's hash -- against the whole bot on
a real port: a player sees his own role and nobody else's, a vote lands live, the NOIR board, a
stranger's refusal, the Commissar's check. ``MINIAPP_SCREENSHOTS=1`` also writes the screenshots
kept in ``docs/miniapp/`` (a player, light theme). The judge's console: test_browser_judge.py;
the browser and the helpers: browser_support.py."""

from __future__ import annotations

import asyncio

import pytest

from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP
from tests.bot.helpers import start_game, to_day, to_voting
from tests.fakes.updates import FakeUser

from .browser_support import (
    CHROMEDRIVER,
    CHROMIUM,
    DARK,
    LIGHT,
    LONG_NAME,
    By,
    click,
    js,
    page_url,
    shoot,
    wait_for,
)
from .browser_support import browser_fixture as browser_fixture  # noqa: F401 - the browser fixture
from .support import served

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                reason="chromium and chromedriver are not installed")


async def test_a_player_sees_his_role_only_and_a_vote_lands_live(sqlite_url, browser, tmp_path):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        await to_day(h)
        st = await to_voting(h)
        me = next(p for p in st.alive() if p.user_id != st.vote.current)
        await asyncio.to_thread(browser.get, page_url(client, h, h.user(me.user_id), game_id,
                                                      LIGHT))
        await wait_for(browser, js("return document.querySelectorAll('#players li').length"))
        roles = await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('#players li')].map(li =>
              [+li.dataset.seat, li.classList.contains('me'),
               (li.querySelector('[data-role]') || {dataset: {}}).dataset.role || null]);""")
        assert [r for r in roles if r[2] is not None] == [[me.seat, True, me.role.value]]
        role_card = await asyncio.to_thread(lambda: browser.find_element(By.ID, "me").text)
        assert "Your role" in role_card
        # a vote of another player lands on the page live (server-sent events)
        other = next(p for p in st.alive() if p.user_id not in (me.user_id, st.vote.current))
        cand = st.players[st.vote.current].seat
        seq = int(await asyncio.to_thread(browser.execute_script, "return document.body.dataset.renders"))
        assert await press_action(h, h.user(other.user_id), GROUP, "vote") == "🗳"
        await wait_for(browser, js(f"return +document.body.dataset.renders > {seq}"))
        row = await asyncio.to_thread(
            lambda: browser.find_element(By.CSS_SELECTOR, f'[data-candidate="{cand}"]').text)
        assert f"№{other.seat}" in row
        await shoot(browser, "player.png", tmp_path)  # his vote button still offered
        # his own vote from the page's button
        button = await asyncio.to_thread(browser.find_element, By.CSS_SELECTOR,
                                         '#actions button[data-a="vote"]')
        await asyncio.to_thread(button.click)
        await wait_for(browser, js("return !document.getElementById('toast').hidden"))
        assert (await h.game()).state.vote.votes.get(me.user_id) == st.vote.current
        await wait_for(browser, js(f"""return document.querySelector('[data-candidate="{cand}"]')
                                          .textContent.includes('№{me.seat}')"""))


async def test_noir_board_a_kill_tapped_on_a_cell(sqlite_url, browser, tmp_path):
    from bot.games.noir import choices
    from engine.noir import legal_actions
    from tests.bot import noir_driver as nd

    async with served(sqlite_url) as (h, client):
        gid = await nd.open_lobby(h, 6)
        await nd.press_start(h)
        st = (await h.service.live(gid)).state
        killer = st.current
        me = st.players[killer]
        await asyncio.to_thread(browser.get, page_url(client, h, h.user(killer), gid, LIGHT))
        await wait_for(browser, js("return document.querySelectorAll('#noir-grid .cell').length"))
        cells = await asyncio.to_thread(browser.execute_script, """
            return document.querySelectorAll('#noir-grid .cell').length""")
        assert cells == sum(len(r) for r in st.grid)
        own = await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('#noir-grid .cell.own')].map(c => +c.dataset.s)""")
        assert own == [me.identity]
        kill = choices.VIEWS.index("kill")
        button = await asyncio.to_thread(browser.find_element, By.CSS_SELECTOR,
                                         f'#actions button[data-a="o"][data-t="{kill}"]')
        await asyncio.to_thread(button.click)
        await wait_for(browser, js("return document.querySelectorAll('#noir-grid .cell.tap').length"))
        taps = await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('#noir-grid .cell.tap')].map(c => +c.dataset.s)""")
        legal = set(legal_actions(st, killer).kill)
        assert set(taps) == legal
        await asyncio.to_thread(browser.execute_script, "window.scrollTo(0, 0)")
        await shoot(browser, "noir.png", tmp_path)  # the Killer's picker on the board
        target = sorted(legal)[0]
        cell = await asyncio.to_thread(browser.find_element, By.CSS_SELECTOR,
                                       f'#noir-grid .cell.tap[data-s="{target}"]')
        await asyncio.to_thread(cell.click)
        await wait_for(browser, js(f"""return (document.querySelector('#noir-grid .cell[data-s="{target}"]')
                                          || {{classList: {{contains: () => true}}}})
                                          .classList.contains('last')"""))
        assert (await h.service.live(gid)).state.last_action[0] == "kill"
        # later in the game, an onlooker's board (dark theme): marks, no identity anywhere
        import random
        rng, answered = random.Random(4), set()
        for _ in range(70):
            if not await nd.act_once(h, rng, answered):
                break
        st = (await h.service.live(gid)).state
        watcher = h.users[6]
        await asyncio.to_thread(browser.get, page_url(client, h, watcher, gid, DARK))
        await asyncio.to_thread(browser.refresh)  # only the hash changed: load it anew
        await wait_for(browser, js("return document.querySelectorAll('#noir-grid .cell').length"))
        hidden = await asyncio.to_thread(browser.execute_script, """
            return [document.getElementById('me').hidden,
                    document.querySelectorAll(
                      '#noir-grid .own, #noir-grid .mate, #noir-grid .tap').length]""")
        assert hidden == [True, 0]
        dead = await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('#noir-grid .cell.dead')].map(c => +c.dataset.s)""")
        assert set(dead) == {s for s in st.dead if s not in st.removed}
        await shoot(browser, "noir-watcher.png", tmp_path)


async def test_a_strangers_page_shows_the_refusal_and_no_empty_card(sqlite_url, browser,
                                                                     tmp_path):
    stranger = FakeUser(900_000_000_777, "Stranger")
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        h.session.set_member(GROUP, stranger.id, "left")
        await asyncio.to_thread(browser.get, page_url(client, h, stranger, game_id, LIGHT))
        await wait_for(browser, js("return document.getElementById('phase').textContent === '🔒'"))
        status = await asyncio.to_thread(lambda: browser.find_element(By.ID, "status").text)
        assert status == "Only the game's players and the group's members see this table."
        assert await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('main section')]
                .filter(s => s.offsetParent !== null).map(s => s.id)""") == ["status"]


async def test_the_commissars_check_marks_the_checked_seat(sqlite_url, browser):
    from engine import Role, Team
    from tests.bot.helpers import drive_until

    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await drive_until(h, lambda s: s.phase is Phase.NIGHT and s.night == 2, seed=3)
        cop = next(p for p in st.alive() if p.role is Role.COMMISSAR)
        target = next(p for p in st.alive() if p.user_id != cop.user_id)
        assert await press_action(h, h.user(cop.user_id), cop.user_id, "check",
                                  target.seat) == "🔎"
        await asyncio.to_thread(browser.get, page_url(client, h, h.user(cop.user_id), game_id,
                                                      LIGHT))
        await wait_for(browser, js("return document.querySelectorAll('#players li').length"))
        marks = await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('#players li')]
              .filter(li => li.querySelector('.tag.checked'))
              .map(li => [+li.dataset.seat, li.querySelector('.tag.checked').textContent,
                          li.querySelector('.tag.checked').title]);""")
        verdict = "mafia" if target.team is Team.MAFIA else "not mafia"
        assert marks == [[target.seat, f"🔎 {verdict}", f"checked: №{cop.seat}, night 2"]]


async def test_an_online_players_page_on_a_phone_with_a_long_name(sqlite_url, browser):
    """Issue 20, the Mini App tried again on the online preset as a player would: at 390×844,
    with a 64-character name at the table, his page shows his role only, the day's ballot taps
    fit the screen, and a tap from the page lands in the group's ballot."""
    async with served(sqlite_url, n_users=6) as (h, client):
        h.users[2] = FakeUser(h.users[2].id, LONG_NAME)
        h.session.register_user(h.users[2])
        await h.command(h.users[0], "/newgame online")
        g = await h.game()
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(h.users[0], "/startgame")
        st = (await h.game()).state
        for p in st.alive():  # night 1: the blacks are ready (ONLINE-X17)
            await press_action(h, h.user(p.user_id), p.user_id, "sleep")
        st = (await h.game()).state
        assert st.phase.value == "discussion", st.phase
        me = next(p for p in st.alive() if p.user_id != h.users[2].id)
        await asyncio.to_thread(browser.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 3,
                                 "mobile": True})
        await asyncio.to_thread(browser.get, page_url(client, h, h.user(me.user_id), g.id, DARK))
        await wait_for(browser, js("return document.querySelectorAll('#players li').length"))
        await wait_for(browser, js("return document.querySelectorAll('#actions button').length"))
        roles = await asyncio.to_thread(browser.execute_script, """
            return [...document.querySelectorAll('#players [data-role]')]
              .map(n => +n.closest('li').dataset.seat);""")
        known = {p.seat for p in st.alive() if p.team is me.team} if me.team.value == "mafia" \
            else {me.seat}  # a black knows his team (ONLINE-02), a red only himself
        assert set(roles) <= known and me.seat in roles, (roles, known)
        overflow = await asyncio.to_thread(browser.execute_script, """
            const w = document.documentElement.clientWidth;
            return [w, document.documentElement.scrollWidth,
                    [...document.querySelectorAll('body *')]
                      .filter(n => n.getBoundingClientRect().right > w + 0.5)
                      .map(n => n.tagName + '.' + n.className).slice(0, 8)];""")
        assert overflow[0] == 390 and overflow[1] <= 390 and overflow[2] == [], overflow
        long_seat = st.players[h.users[2].id].seat
        await click(browser, f'#actions button[data-t="{long_seat}"]')
        await wait_for(browser, js("return !document.getElementById('toast').hidden"))
        await asyncio.sleep(0.3)
        assert (await h.game()).state.ballot.taps.get(me.user_id, (None,))[0] == h.users[2].id
