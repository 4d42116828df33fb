"""Issue 10 item 6: finished messages get their final text and lose their buttons — the ready
gate's count, the speech turn, the read role card, the host's old «Next» (real updates through
``Dispatcher.feed_update``)."""

from __future__ import annotations

from bot.ui.callbacks import Act
from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import end_speech, nominate, start_game, to_day


async def test_PARTY_37_ready_line_counts_the_press_that_closed_the_gate(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        g = await h.game()
        for u in h.users:
            assert await press_action(h, u, u.id, "ready") == "✅"
        g = await h.game()
        assert g.state.phase is Phase.NIGHT
        ready = h.message(GROUP, g.ui["ready"])
        # issue 11: the night's announcement is the final line of the ready message (one call)
        first, night = ready["text"].split("\n")[-2:]
        assert first.endswith("(6/6).") and night.startswith("🌙 Night 1.")
        assert not (ready.get("reply_markup") or {}).get("inline_keyboard")
    finally:
        await h.stop()


async def test_PARTY_35_a_finished_speech_keeps_its_final_text_without_buttons(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        st = await to_day(h)
        g = await h.game()
        first_turn = g.ui["turn"]
        hint = "The speaker may nominate one player with the buttons below."
        assert hint in h.message(GROUP, first_turn)["text"]
        await end_speech(h)  # no nomination
        g = await h.game()
        second_turn = g.ui["turn"]
        assert second_turn != first_turn
        done = h.message(GROUP, first_turn)
        assert hint not in done["text"] and "No nomination in this speech." in done["text"]
        assert not (done.get("reply_markup") or {}).get("inline_keyboard")

        seat = next(p.seat for p in st.alive() if p.user_id != g.state.speaker)
        await nominate(h, seat)
        await end_speech(h)
        done = h.message(GROUP, second_turn)
        assert hint not in done["text"] and "Accepted." in done["text"]
        assert not (done.get("reply_markup") or {}).get("inline_keyboard")
    finally:
        await h.stop()


async def test_PARTY_37_a_read_role_card_becomes_the_first_nights_message(sqlite_url: str):
    """Issue 11: the card keeps «I have read my role» until the gate closes (the press is
    confirmed by its answer and the group's count), then one edit turns it into night 1's
    message -- the card's text on top, «Sleep» below -- instead of closing it and sending a
    new message (two calls a player)."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        reader = h.users[0]
        assert await press_action(h, reader, reader.id, "ready") == "✅"
        g = await h.game()
        assert g.state.phase is Phase.READY
        for u in h.users[1:]:
            assert await press_action(h, u, u.id, "ready") == "✅"
        g = await h.game()
        assert g.state.phase is Phase.NIGHT
        card = h.message(reader.id, _card_id(h, reader.id))
        assert "Your role" in card["text"] and "Night 1" in card["text"]
        assert h.find_button(reader.id, action="ready") is None
        found = h.find_button(reader.id, action="sleep")
        assert found is not None and found[0] == card["message_id"]  # no new night message
    finally:
        await h.stop()


def _card_id(h: Harness, uid: int) -> int:
    return next(m["message_id"] for m in h.messages(uid) if "Your role:" in m.get("text", ""))


async def test_PARTY_Q18_the_hosts_old_next_buttons_go_when_their_phase_ends(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        players, host = h.users[:5], h.users[5]
        await h.command(players[0], "/newgame")
        g = await h.game()
        await h.dm(host, f"/start host_{g.id}")
        for u in players:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(players[0], "/startgame")
        g = await h.game()
        seq = g.state.phase_seq
        roles = next(m for m in h.messages(host.id) if "Roles:" in m.get("text", ""))
        assert _next_buttons(roles) == [seq]
        assert await press_action(h, host, host.id, "next") == "⏭"
        g = await h.game()
        assert g.state.phase is Phase.NIGHT
        # every message of the host offers «Next» for the running phase only
        for m in h.messages(host.id):
            assert all(s == g.state.phase_seq for s in _next_buttons(m)), m.get("text")
        assert _next_buttons(h.message(host.id, roles["message_id"])) == []
        await h.command(players[0], "/stop")
        for m in h.messages(host.id):
            assert _next_buttons(m) == [], m.get("text")
    finally:
        await h.stop()


def _next_buttons(message: dict) -> list[int]:
    """The ``phase_seq`` of every «Next» button on ``message``."""
    out = []
    for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
        for b in row:
            data = b.get("callback_data") or ""
            if data.startswith("a:") and Act.unpack(data).a == "next":
                out.append(Act.unpack(data).s)
    return out


async def test_no_button_stays_live_after_stop(sqlite_url: str):
    """Issue 20: after /stop the last speech kept «End speech» and the night messages and role
    cards their «Sleep»."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        for u in h.users:
            assert await press_action(h, u, u.id, "ready") == "✅"
        assert (await h.game()).state.phase is Phase.NIGHT
        assert h.find_button(h.users[0].id, action="sleep") is not None
        await h.command(h.users[0], "/stop")
        await h.app.sender.drain()
        for u in h.users:
            assert h.find_button(u.id, action="sleep") is None, u.id

        await start_game(h)
        st = await to_day(h)
        assert st.phase is Phase.SPEECH and h.find_button(GROUP, action="end") is not None
        await h.command(h.users[0], "/stop")
        await h.app.sender.drain()
        assert h.find_button(GROUP, action="end") is None
    finally:
        await h.stop()
