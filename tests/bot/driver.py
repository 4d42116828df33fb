"""Plays whole games through the bot as users would: pressing the buttons the bot sent.

Inactive players (away, blocked, missed deadlines) do nothing, as real absent users would; when
nobody can act, the pending deadline is fired. With ``chatter`` every living mafioso also writes
to the bot once a night (the mafia relay, PARTY-Q11).
"""

from __future__ import annotations

import random

from bot.ui.callbacks import Act
from engine import Phase, Role
from tests.bot.harness import GROUP, Table
from tests.fakes.updates import FakeUser


async def join_all(h: Table, users=None) -> int:
    users = users or h.users
    await h.command(users[0], "/newgame")
    g = await h.game()
    for u in users:
        await h.dm(u, f"/start join_{g.id}")
    return g.id


async def press_action(h: Table, user: FakeUser, chat_id: int, action: str, seat: int | None = None,
                       rng: random.Random | None = None) -> str | None:
    st = (await h.game()).state
    for mid, b in h.buttons(chat_id):
        data = b.get("callback_data") or ""
        if not data.startswith("a:"):
            continue
        act = Act.unpack(data)
        if act.a == action and act.s in (0, st.phase_seq) and (seat is None or act.t == seat):
            return await h.press(user, chat_id, mid, data)
    return None


async def step(h: Table, rng: random.Random, chatter: bool = False) -> bool:
    """Do one round of sensible actions; returns False when the game is over."""
    g = await h.game()
    if g is None or g.state is None or g.state.over:
        return False
    st = g.state
    by_id = {u.id: u for u in h.users}
    acted = False
    if st.pause:
        await h.fire()
        return True
    if st.phase is Phase.READY:
        for p in st.alive_active():
            if p.user_id in st.ready:
                continue
            chat = p.user_id if st.ready_purpose == "intro" else GROUP
            if await press_action(h, by_id[p.user_id], chat, "ready"):
                acted = True
            break
    elif st.phase is Phase.NIGHT:
        chatted = h.notes.setdefault("chatted", set())  # nights whose mafia already talked
        targets = h.notes.setdefault("targets", {})  # (game, night phase_seq) -> victim seat
        if chatter and st.night > 1 and (g.id, st.phase_seq) not in chatted:
            chatted.add((g.id, st.phase_seq))
            for p in st.mafia_alive():
                if p.active:
                    await h.dm(by_id[p.user_id], f"night {st.night}: let us pick carefully")
            return True
        mafia_target = targets.get((g.id, st.phase_seq))
        town = [p for p in st.alive() if p.role is not Role.MAFIA]
        if mafia_target is None and town:  # the mafia agrees on one victim a night
            mafia_target = targets[g.id, st.phase_seq] = rng.choice(town).seat
        for p in st.alive_active():
            if p.user_id in st.night_actions:
                continue
            u = by_id[p.user_id]
            if p.role is Role.MAFIA and st.night > 1:
                if st.mafia_picks.get(p.user_id) == st.by_seat(mafia_target).user_id:
                    continue
                r = await press_action(h, u, u.id, "kill", mafia_target)
            elif p.role is Role.COMMISSAR and st.night > 1:
                seats = [q.seat for q in st.alive() if q is not p]
                r = await press_action(h, u, u.id, "check", rng.choice(seats))
            elif p.role is Role.DOCTOR and st.night > 1:
                r = await press_action(h, u, u.id, "heal", rng.choice([q.seat for q in st.alive()]))
            else:
                r = await press_action(h, u, u.id, "sleep")
            acted = acted or r is not None
            break
    elif st.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD):
        u = by_id[st.speaker]
        if st.phase is Phase.SPEECH and not st.nominated_in_speech and rng.random() < 0.35:
            seat = rng.choice([p.seat for p in st.alive() if p.user_id not in st.nominations] or [0])
            if seat and await press_action(h, u, GROUP, "nom", seat):
                return True
        acted = await press_action(h, u, GROUP, "end") is not None
    elif st.phase is Phase.VOTING:
        voters = [p for p in st.alive_active() if p.user_id not in st.vote.votes]
        if voters and rng.random() < 0.7:
            u = by_id[rng.choice(voters).user_id]
            acted = await press_action(h, u, GROUP, "vote") is not None
    elif st.phase is Phase.EXCLUDE_VOTE:
        voters = [p for p in st.alive_active() if p.user_id not in st.exclude_votes]
        if voters:
            u = by_id[voters[0].user_id]
            acted = await press_action(h, u, GROUP, "exy" if rng.random() < 0.6 else "exn") is not None
    if not acted:
        await h.fire()
    return True


async def play_to_end(h: Table, seed: int, max_steps: int = 3000, chatter: bool = False) -> None:
    rng = random.Random(seed)
    for _ in range(max_steps):
        if not await step(h, rng, chatter):
            return
    raise AssertionError("game did not end")
