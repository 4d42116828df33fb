"""What the online preset's bot tests share (tests/bot/test_online*.py and others): getting a
game around -- start it, play night 1, tap, vote, shoot, pass -- reading what the chats were told,
the secrets check, and the plans of a whole seeded game (``online_step``)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.games.mafia.live import LIVE_GAP
from engine import GameState, OnlinePhase, Phase, Role, Team
from engine.online import choices
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness
from tests.bot.helpers import role_card_heads, role_pairs
from tests.fakes.telegram import plain_text

VERDICTS = (" is black.", " is red.", " is the Sheriff.", " is not the Sheriff.")


ALREADY_VOTED = "You have already voted in this round."


CANT_CHOOSE = "You can't choose that player now."


async def state(h: Harness) -> GameState:
    """The running game's state; after the end, the state replayed from its log."""
    g = await h.game()
    return g.state if g is not None else await h.service.state(h.notes["game"])


async def start_online(h: Harness) -> int:
    """``/newgame online``, every user joins by deep link, ``/startgame``: night 1."""
    users = h.users
    await h.command(users[0], "/newgame online")
    g = await h.game()
    for u in users:
        await h.dm(u, f"/start join_{g.id}")
    h.notes["game"] = g.id
    await h.command(users[0], "/startgame")
    st = await state(h)
    assert st.ruleset == "online" and st.phase is Phase.NIGHT and st.night == 1, st.phase
    return g.id


async def night_1(h: Harness) -> GameState:
    """Night 1: every black taps Ready (Sleep) in his private chat, and day 1 opens (ONLINE-02;
    the reds have no button, X17)."""
    st = await state(h)
    for p in st.alive_active():
        pressed = await press_action(h, h.user(p.user_id), p.user_id, "sleep")
        assert pressed == ("💤" if p.team is Team.MAFIA else None)
    st = await state(h)
    assert st.phase is OnlinePhase.DISCUSSION and st.day == 1, st.phase
    return st


def seat_of(st: GameState, uid: int | None) -> int:
    return st.players[uid].seat if uid is not None else 0


def name(st: GameState, uid: int) -> str:
    return f"№{st.players[uid].seat} {st.players[uid].name}"


def by_role(st: GameState, role: Role) -> list[int]:
    return [p.user_id for p in st.alive() if p.role is role]


def blacks(st: GameState) -> list[int]:
    return [p.user_id for p in st.alive() if p.team is Team.MAFIA]


def reds(st: GameState) -> list[int]:
    return [p.user_id for p in st.alive() if p.team is Team.TOWN]


async def tap(h: Harness, voter: int, target: int | None) -> str | None:
    """One tap on the group's ballot: a player's seat, or PASS (``target`` None)."""
    st = await state(h)
    return await press_action(h, h.user(voter), GROUP, "tv", seat_of(st, target))


async def vote(h: Harness, votes: dict[int, int | None]) -> None:
    """Final votes (two taps each), in the order given."""
    for voter, target in votes.items():
        assert await tap(h, voter, target) == "🗳"
        assert await tap(h, voter, target) == "🗳"


async def shown(h: Harness, key: str) -> str:
    """The text of the game's standing group message ``key`` (ballot, lift) as users see it
    once a held live edit is out (issue 11: a tap's edit may wait up to LIVE_GAP s)."""
    g = await h.game()
    h.clock.advance(LIVE_GAP)
    h.app.presenter.game(g.state.ruleset).flush_live(g)
    await h.app.sender.drain()
    return h.message(GROUP, g.ui[key])["text"]


async def end_turns(h: Harness, phase: Phase) -> GameState:
    """Every turn of ``phase`` (defences, last words) is ended by its speaker."""
    st = await state(h)
    while st.phase is phase:
        assert st.speaker is not None
        assert await press_action(h, h.user(st.speaker), GROUP, "end") == "⏹"
        st = await state(h)
    return st


async def night(h: Harness, shots: dict[int, int], sheriff: int | None = None,
                don: int | None = None) -> None:
    """A night from night 2, in private chats: each black shoots ``shots[black]``, the Don
    searches ``don`` (else skips), the Sheriff checks ``sheriff`` (else sleeps), civilians sleep."""
    st = await state(h)
    assert st.phase is Phase.NIGHT and st.night > 1
    for p in st.alive_active():
        u = h.user(p.user_id)
        if p.team is Team.MAFIA and p.user_id not in st.mafia_picks:
            assert await press_action(h, u, u.id, "kill", seat_of(st, shots[p.user_id])) == "🕶"
        if p.user_id in st.night_actions:
            continue
        if p.role is Role.DON and don is not None:
            assert await press_action(h, u, u.id, "dcheck", seat_of(st, don)) == "🎩"
        elif p.role is Role.SHERIFF and sheriff is not None:
            assert await press_action(h, u, u.id, "scheck", seat_of(st, sheriff)) == "⭐"
        elif p.role is not Role.MAFIA:
            assert await press_action(h, u, u.id, "sleep") == "💤"


async def all_pass(h: Harness) -> GameState:
    st = await state(h)
    await vote(h, {p.user_id: None for p in st.alive_active()})
    return await state(h)


def texts_of(h: Harness, chat_id: int, start: int = 0, end: int | None = None) -> list[str]:
    """Plain texts of the sends and edits to ``chat_id`` among ``session.calls[start:end]``."""
    return [plain_text(c.text) for c in h.session.calls[start:end] if c.chat_id == chat_id
            and c.ok and c.method in ("sendMessage", "editMessageText") and c.text]


def group_texts(h: Harness, start: int = 0, end: int | None = None) -> list[str]:
    return texts_of(h, GROUP, start, end)


def said(h: Harness, chat_id: int, fragment: str) -> bool:
    """Whether a message to ``chat_id`` (short group announcements are merged) contains it."""
    return any(fragment in t for t in texts_of(h, chat_id))


def result_index(h: Harness) -> int:
    hits = [i for i, c in enumerate(h.session.calls) if c.method == "sendMessage" and c.ok
            and c.chat_id == GROUP and "Roles:" in (c.text or "")]
    assert len(hits) == 1, hits
    return hits[0]


def assert_no_secrets(h: Harness, texts: list[str]) -> None:
    """ONLINE-46, X04: no group message before the result names a role or a check result."""
    pairs, heads = role_pairs(h.app.translator), role_card_heads(h.app.translator)
    for text in texts:
        assert not [p for p in pairs if p in text], text
        assert not [y for y in heads if y in text] and "Your role" not in text, text
        assert not [v for v in VERDICTS if v in text], text


Plan = Callable[[GameState, random.Random, int], "int | None"]


def town_plan(st, rng, voter):  # everyone votes for the first living black
    return blacks(st)[0]


def mafia_plan(st, rng, voter):  # everyone passes; the blacks shoot the reds one by one
    return None


def random_plan(st, rng, voter):
    offered = choices(st)[:4] + ([None] if st.ballot.stage == "day" else [])
    return rng.choice(offered)


async def online_step(h: Harness, rng: random.Random, plan: Plan) -> bool:
    """Do what the phase needs through the buttons; fire the deadline when nothing moved it.
    Returns False once the game is over."""
    g = await h.game()
    if g is None or g.state.over:
        return False
    st, seq = g.state, g.state.phase_seq
    living = st.alive_active()
    if st.phase is Phase.NIGHT and st.night == 1:
        for p in living:
            if p.team is Team.MAFIA:  # ONLINE-02, X17: the reds have nothing to press
                await press_action(h, h.user(p.user_id), p.user_id, "sleep")
    elif st.phase is Phase.NIGHT:
        agree = plan is not random_plan or rng.random() < 0.6
        target = reds(st)[0]
        shots = {b: target if agree else rng.choice(reds(st)) for b in blacks(st)}
        checkable = [p.user_id for p in st.alive() if p.role is not Role.SHERIFF]
        await night(h, shots, sheriff=rng.choice(checkable), don=rng.choice([None, *reds(st)]))
    elif st.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
        for p in living:
            if (await state(h)).phase_seq != seq:
                break
            if plan is random_plan and rng.random() < 0.15:
                continue  # silent: PASS at the close (Q03), or no vote in a revote (Q10)
            choice = plan(st, rng, p.user_id)
            await tap(h, p.user_id, choice)
            if plan is not random_plan or rng.random() < 0.7:
                await tap(h, p.user_id, choice if plan is not random_plan else plan(st, rng, 0))
    elif st.phase is OnlinePhase.LIFT_VOTE:
        for p in living:
            if (await state(h)).phase_seq != seq:
                break
            lift = "lift" if plan is town_plan or rng.random() < 0.5 else "leave"
            for _ in range(rng.choice([1, 2])):
                await press_action(h, h.user(p.user_id), GROUP, lift)
    elif st.phase in (Phase.DEFENCE, Phase.LAST_WORD):
        await press_action(h, h.user(st.speaker), GROUP, "end")
    elif st.phase is OnlinePhase.BEST_MOVE:
        victim = h.user(st.speaker)
        if plan is random_plan and rng.random() < 0.3:
            await press_action(h, victim, victim.id, "bmx")
        else:
            for t in [p.user_id for p in st.alive() if p.user_id != victim.id][:3]:
                await press_action(h, victim, victim.id, "bm", seat_of(st, t))
    g = await h.game()
    if g is not None and not g.state.over and g.state.phase_seq == seq:
        await h.fire()
    return True
