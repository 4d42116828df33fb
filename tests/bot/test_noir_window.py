"""The Suit's cancel window through the bot (NOIR-34, Q11, X14): the in-line Suit gets the
prompt by DM with «Cancel the kill» / «Let it happen», his last answer counts when the window's
timer closes it, and the group sees the same fixed window whatever he can do."""

from __future__ import annotations

import random

from bot.games.noir.drafting import stamp
from bot.ui.callbacks import Act
from engine.noir import Kill, Protect, Role, apply, legal_actions
from engine.noir.grid import neighbours
from tests.bot import noir_driver as nd
from tests.bot.harness import GROUP, Harness
from tests.engine.noir.playout import random_action


def _biased(rng: random.Random, st, uid: int):
    """A legal command that steers towards a kill of a shielded suspect in the Suit's line."""
    la = legal_actions(st, uid)
    p = st.players[uid]
    killer = st.by_role(Role.KILLER)
    if p.role == Role.SUIT and la.protect and not st.token_used and killer.identity is not None:
        near = [s for s in la.protect if s in neighbours(st, killer.identity)]
        if near:
            return Protect(user_id=uid, target=rng.choice(near))
    if p.role == Role.KILLER:
        hit = [s for s in la.kill if s in st.shields]
        if hit:
            return Kill(user_id=uid, target=rng.choice(hit))
    return random_action(rng, st, uid)


def _find_window(st0, tries: int = 3000) -> list:
    """Commands from ``st0`` (engine only, no bot) that open a window the Suit may cancel in."""
    for seed in range(tries):
        rng = random.Random(seed)
        st, cmds = st0, []
        for _ in range(14):
            if st.over or st.current is None:
                break
            cmd = _biased(rng, st, st.current)
            if cmd is None:
                break
            try:
                st, _ = apply(st, cmd)
            except Exception:
                break
            cmds.append(cmd)
            if st.window is not None and st.window.suit_can:
                return cmds
    raise AssertionError("no in-line window found")


async def test_NOIR_34_the_suit_cancels_by_dm_and_the_window_closes_on_its_timer(h: Harness):
    gid = await nd.open_lobby(h, 6)
    await nd.press_start(h)
    st0 = (await h.service.live(gid)).state
    for cmd in _find_window(st0):
        await h.service.execute(gid, cmd)
    await h.app.sender.drain()
    st = (await h.service.live(gid)).state
    suit = st.by_role(Role.SUIT).user_id
    victim = st.window.suspect
    assert legal_actions(st, suit).step == "cancel"
    prompt = h.messages(suit)[-1]
    assert "Cancel the kill" in str(prompt["reply_markup"]) and "about to die" in prompt["text"]
    board = h.message(GROUP, (await h.service.live(gid)).ui["board"])
    assert "The Suit may cancel the kill" in board["caption"]  # the same for any Suit
    group_calls = len(h.sent(GROUP, ("sendMessage", "editMessageMedia", "editMessageText")))
    seq = stamp(st)
    yes = Act(g=gid, s=seq, a="x", t=1).pack()
    assert await h.press(h.user(suit), suit, prompt["message_id"], yes) == "Your answer is noted."
    assert "Your answer now: cancel." in h.message(suit, prompt["message_id"])["text"]
    # NOIR-X14: nothing in the group moves when he answers
    assert len(h.sent(GROUP, ("sendMessage", "editMessageMedia", "editMessageText"))) == \
        group_calls
    other = next(u for u in st.order if u != suit)
    assert await h.press_data(h.user(other), other, yes) == "This button is out of date."
    await h.fire()  # the window's timer
    st = (await h.service.live(gid)).state
    assert st.window is None or st.window.suspect != victim
    assert victim not in st.dead
    assert any("cancelled the kill" in t for t in h.sent_texts(GROUP))
    closed = h.message(suit, prompt["message_id"])
    assert not closed.get("reply_markup") and "window is closed" in closed["text"]
    assert await h.press(h.user(suit), suit, prompt["message_id"], yes) == \
        "This button is out of date."
