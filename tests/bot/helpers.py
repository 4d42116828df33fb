"""Helpers shared by the bot-level tests: getting a game to a phase, forging callback data,
and the texts that would leak a role."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ui.callbacks import Act
from bot.ui.i18n import SUPPORTED_LOCALES, Translator
from bot.ui.texts import ROLE_ICONS, ROLE_NAMES
from engine import GameState, Phase
from tests.bot.driver import join_all, press_action, step
from tests.bot.harness import GROUP, Harness


def role_pairs(tr: Translator) -> dict[str, object]:
    """``"<icon> <RoleName>"`` in every supported locale -> the role it names."""
    return {f"{ROLE_ICONS[r]} {tr.get(loc)(ROLE_NAMES[r])}": r
            for r in ROLE_ICONS for loc in SUPPORTED_LOCALES}


def role_card_heads(tr: Translator) -> set[str]:
    """The role card's heading up to the role ("🎭 Your role:") in every locale."""
    return {tr.get(loc)("🎭 Your role: {icon} <b>{role}</b>").split("{")[0].strip()
            for loc in SUPPORTED_LOCALES}


def act(game_id: int, st: GameState, a: str, t: int = 0, s: int | None = None) -> str:
    """Callback data of an in-game button, by default for the current phase."""
    return Act(g=game_id, s=st.phase_seq if s is None else s, a=a, t=t).pack()


async def start_game(h: Harness, users=None) -> int:
    """Open a lobby, let ``users`` (default all) join by deep link, start. Returns the game id."""
    users = users or h.users
    game_id = await join_all(h, users)
    await h.command(users[0], "/startgame")
    st = (await h.game()).state
    assert st.phase is Phase.READY, st.phase
    return game_id


async def to_day(h: Harness) -> GameState:
    """From the introduction gate: everyone reads his role and sleeps night 1 -> day 1 speeches."""
    by_id = {u.id: u for u in h.users}
    st = (await h.game()).state
    for p in st.alive_active():
        assert await press_action(h, by_id[p.user_id], p.user_id, "ready") == "✅"
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 1, st.phase
    for p in st.alive_active():
        assert await press_action(h, by_id[p.user_id], p.user_id, "sleep") == "💤"
    st = (await h.game()).state
    assert st.phase is Phase.SPEECH and st.day == 1, st.phase
    return st


async def end_speech(h: Harness) -> GameState:
    """The current speaker presses «End speech» on the turn message."""
    st = (await h.game()).state
    assert await press_action(h, h.user(st.speaker), GROUP, "end") == "⏹"
    return (await h.game()).state


async def nominate(h: Harness, seat: int) -> GameState:
    st = (await h.game()).state
    assert await press_action(h, h.user(st.speaker), GROUP, "nom", seat) == "🎯"
    return (await h.game()).state


async def to_voting(h: Harness, seats: tuple[int, ...] = (2, 3)) -> GameState:
    """From day 1's first speech: seat k nominates ``seats[k-1]``, everyone ends his speech and
    every nominee his defence, until the vote opens."""
    st = (await h.game()).state
    assert st.phase is Phase.SPEECH
    for target in seats:
        await nominate(h, target)
        st = await end_speech(h)
    while st.phase in (Phase.SPEECH, Phase.DEFENCE):
        st = await end_speech(h)
    assert st.phase is Phase.VOTING, st.phase
    return st


async def drive_until(h: Harness, done: Callable[[GameState], bool], seed: int = 0,
                      max_steps: int = 2000) -> GameState:
    """Play with the driver until ``done(state)``; fails if the game ends first."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        g = await h.game()
        assert g is not None, "the game ended first"
        st = g.state
        if done(st):
            return st
        assert await step(h, rng), "the game ended first"
    raise AssertionError("condition never reached")
