"""Plays NOIR games through the bot as users would (issue 9): ``/newgame noir``, the deep links,
«Start», then each turn pressing the buttons of the player's DM menu (a seeded random choice
among the buttons his newest menu offers for the current step), the Suit's answers in a window,
and the deadlines fired by hand when nobody can act."""

from __future__ import annotations

import random

from bot.games.noir.drafting import draft, stamp
from bot.ui.callbacks import Act, LobbyAct
from engine.noir import legal_actions
from tests.bot.harness import GROUP, Harness, Table


async def open_lobby(h: Table, n: int) -> int:
    users = h.users[:n]
    await h.command(users[0], "/newgame noir")
    g = await h.game()
    for u in users:
        await h.dm(u, f"/start join_{g.id}")
    return g.id


async def press_start(h: Table, user=None) -> str | None:
    for mid, b in h.buttons(GROUP):
        data = b.get("callback_data") or ""
        if data.startswith("l:") and LobbyAct.unpack(data).a == "start":
            return await h.press(user or h.users[0], GROUP, mid, data)
    raise AssertionError("no Start button")


def menu_buttons(h: Harness, uid: int, seq: int) -> list[tuple[int, str, Act]]:
    """(message id, data, act) of the buttons of ``uid``'s newest menu bound to step ``seq``."""
    out = []
    for mid, b in h.buttons(uid):
        data = b.get("callback_data") or ""
        if data.startswith("a:"):
            act = Act.unpack(data)
            if act.s == seq:
                out.append((mid, data, act))
    if not out:
        return []
    newest = max(mid for mid, _d, _a in out)
    return [x for x in out if x[0] == newest]


async def act_once(h: Harness, rng: random.Random, answered: set) -> bool:
    """One press (or one fired deadline). Returns False once the game is over."""
    g = await h.game()
    if g is None or g.state is None or g.state.over:
        return False
    st = g.state
    by_id = {u.id: u for u in h.users}
    if st.paused is not None:
        await h.fire()
        return True
    seq = stamp(st)
    actors = [u for u in st.order if legal_actions(st, u).any]
    for uid in actors:
        if legal_actions(st, uid).step == "cancel":
            if (seq, uid) in answered:
                continue
            answered.add((seq, uid))
        buttons = [b for b in menu_buttons(h, uid, seq) if b[2].a != "u"]
        forward = [b for b in buttons if b[2].a != "b"]
        if draft(g, uid).get("self") is not None:  # never name himself (secrets stay checkable)
            forward = [b for b in buttons if b[2].a == "b"]
        if not buttons:
            continue
        mid, data, _act = rng.choice(forward if forward and rng.random() < 0.9 else buttons)
        await h.press(by_id[uid], uid, mid, data)
        return True
    await h.fire()
    return True


async def play(h: Harness, seed: int, max_presses: int = 6000) -> None:
    rng = random.Random(seed)
    answered: set = set()
    for _ in range(max_presses):
        if not await act_once(h, rng, answered):
            return
    raise AssertionError("the game did not end")


async def live_state(h: Harness, gid: int):
    """The game's current state."""
    return (await h.service.live(gid)).state


async def until_turn(h: Harness, gid: int, uid: int) -> None:
    """Fire deadlines until it is ``uid``'s turn to act (at most 40)."""
    for _ in range(40):
        st = await live_state(h, gid)
        if st.current == uid and legal_actions(st, uid).step == "act":
            return
        await h.fire()
    raise AssertionError("his turn never came")


async def press_code(h: Harness, gid: int, uid: int, code: str, t: int = 0) -> str | None:
    """``uid`` presses NOIR button ``code`` (argument ``t``) stamped with the current step."""
    st = await live_state(h, gid)
    return await h.press_data(h.user(uid), uid, Act(g=gid, s=stamp(st), a=code, t=t).pack())
