"""Flow control through the bot: pause and resume (PARTY-40), stepping away and coming back
(PARTY-41..44), and host mode (PARTY-Q18, X27)."""

from __future__ import annotations

from datetime import timedelta

from aiogram.methods import SendMessage

from bot.games.mafia.webapp import MafiaWebView
from bot.games.spec import Viewer
from bot.ui.callbacks import Act
from bot.ui.texts import ROLE_ICONS, ROLE_NAMES
from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, request_of, text_of
from tests.bot.helpers import act, end_speech, role_card_heads, start_game, to_day
from tests.engine.helpers import started_game, uid
from tests.fakes.telegram import plain_text


def table(h: Harness, g) -> dict:
    return h.message(GROUP, g.ui["table"])


async def test_PARTY_40_pause_and_resume_keep_the_remaining_time(h: Harness):
    game_id = await start_game(h)
    st = await to_day(h)
    speaker, seq = st.speaker, st.phase_seq
    assert speaker is not None and st.timer is not None
    assert st.timer.seconds == 60
    other = h.user(next(p.user_id for p in st.alive() if p.user_id != speaker))
    third = h.user(next(p.user_id for p in st.alive() if p.user_id not in (speaker, other.id)))

    # /pause 20 s into a 60-s speech; five minutes later someone else sends /resume.
    h.clock.advance(20)
    await h.command(other, "/pause")
    g = await h.game()
    assert g.state.pause is not None and g.state.pause.frozen_remaining == 40
    assert any(t.startswith(f"⏸ №{g.state.players[other.id].seat} {other.first_name} paused")
               for t in h.sent_texts(GROUP))
    assert "⏸ Paused" in table(h, g)["text"]
    assert "Resume" in str(table(h, g)["reply_markup"])
    pause_seq, pause_at = h.deadlines.pending[game_id]
    assert (pause_at - h.clock()) == timedelta(seconds=900)
    # While paused, the speaker's «End speech» is refused and changes nothing.
    log_len = await h.log_len(game_id)
    assert await h.press_data(h.user(speaker), GROUP, act(game_id, g.state, "end")) == \
        "The game is paused."
    assert await h.log_len(game_id) == log_len

    h.clock.advance(300)
    await h.command(third, "/resume")
    st = (await h.game()).state
    assert st.pause is None and (st.speaker, st.phase_seq) == (speaker, seq)
    assert st.timer.seconds == 40
    timer_seq, run_at = h.deadlines.pending[game_id]
    assert timer_seq == st.timer.seq and run_at - h.clock() == timedelta(seconds=40)
    assert "Paused" not in table(h, await h.game())["text"]

    # The same through the table message's buttons.
    h.clock.advance(15)
    g = await h.game()
    mid = g.ui["table"]
    pause_button = h.find_button(GROUP, action="pause")
    assert pause_button[0] == mid
    assert await h.press(other, GROUP, mid, pause_button[1]["callback_data"]) == "⏸"
    assert (await h.game()).state.pause.frozen_remaining == 25
    resume_button = h.find_button(GROUP, action="resume")
    assert resume_button[0] == mid
    h.clock.advance(60)
    assert await h.press(third, GROUP, mid, resume_button[1]["callback_data"]) == "▶️"
    st = (await h.game()).state
    assert st.pause is None and st.timer.seconds == 25 and st.speaker == speaker
    assert h.deadlines.pending[game_id][1] - h.clock() == timedelta(seconds=25)

    # A pause nobody ends resumes by itself when its deadline fires.
    await h.command(other, "/pause")
    await h.fire()
    st = (await h.game()).state
    assert st.pause is None and st.speaker == speaker
    assert "▶️ The game goes on." in h.sent_texts(GROUP, ("sendMessage",))[-1]
    # Nobody may resume a game that is not paused.
    await h.command(other, "/resume")
    assert h.sent_texts(GROUP, ("sendMessage",))[-1] == "The game is not paused."


async def test_PARTY_42_44_away_player_is_skipped_and_back_restores_him(h: Harness):
    game_id = await start_game(h)
    st = await to_day(h)
    assert st.speaker is not None
    assert st.players[st.speaker].seat == 1
    away = h.user(st.by_seat(3).user_id)
    label = f"№3 {away.first_name}"

    await h.command(away, "/away")
    st = (await h.game()).state
    assert not st.players[away.id].active and st.players[away.id].alive
    assert f"💤 {label} stepped away and is inactive now." in h.sent_texts(GROUP)
    assert f"{label} 💤" in table(h, await h.game())["text"]

    await end_speech(h)  # seat 1
    st = await end_speech(h)  # seat 2; seat 3 is skipped
    assert st.speaker is not None
    assert st.players[st.speaker].seat == 4
    assert any(f"⏭ {label} is inactive: turn skipped." in t for t in h.sent_texts(GROUP))

    cards_before = len([c for c in h.sent(away.id, ("sendMessage",))
                        if any(x in plain_text(text_of(c)) for x in role_card_heads(h.app.translator))])
    await h.dm(away, "/back")
    st = (await h.game()).state
    assert st.players[away.id].active
    assert f"🟢 {label} is back." in h.sent_texts(GROUP)  # told as his /away was
    assert f"{label} 💤" not in table(h, await h.game())["text"]
    cards = [c for c in h.sent(away.id, ("sendMessage",))
             if any(x in plain_text(text_of(c)) for x in role_card_heads(h.app.translator))]
    assert len(cards) == cards_before  # PARTY-44: his role DM is intact; issue 20: not again
    assert await h.log_len(game_id) == st.commands


async def test_PARTY_Q18_host_mode(h: Harness):
    players, host = h.users[:5], h.users[5]
    await h.command(players[0], "/newgame")
    g = await h.game()
    await h.dm(host, f"/start host_{g.id}")
    assert h.sent_texts(host.id)[-1].startswith("🎩 You host the game in «Test group»")
    for u in players:
        await h.dm(u, f"/start join_{g.id}")
    assert f"Host: {host.first_name}" in h.message(GROUP, g.ui["lobby"])["text"]
    await h.command(players[0], "/startgame")
    g = await h.game()
    st = g.state
    assert st.host == host.id and host.id not in [p.user_id for p in st.seated()]

    # The host gets every role, protected; players get their cards without a reading button.
    roles_dm = [c for c in h.sent(host.id, ("sendMessage",)) if "Roles:" in (c.text or "")]
    assert len(roles_dm) == 1 and request_of(roles_dm[0], SendMessage).protect_content is True
    text = plain_text(text_of(roles_dm[0]))
    for p in st.seated():
        assert f"№{p.seat} {p.name} — {ROLE_ICONS[p.role]} {ROLE_NAMES[p.role]}" in text
    for u in players:
        assert h.find_button(u.id, action="ready") is None

    # The ready gate waits for the host's «Next», with no deadline.
    assert st.phase is Phase.READY and g.id not in h.deadlines.pending
    assert "Night 1 is coming. Waiting for the host to start it." in h.texts(GROUP)[-1]
    log_len = await h.log_len(g.id)
    await h.command(players[1], "/next")
    assert h.sent_texts(GROUP, ("sendMessage",))[-1] == "You can't do that."
    assert await h.log_len(g.id) == log_len
    assert await press_action(h, host, host.id, "next") == "⏭"
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 1

    # Night 2's gate: every player ready is not enough; the host moves it on (here with /next).
    for p in st.alive():
        await press_action(h, h.user(p.user_id), p.user_id, "sleep")
    st = (await h.game()).state
    assert st.phase is Phase.SPEECH
    while st.phase is Phase.SPEECH:
        st = await end_speech(h)
    assert st.phase is Phase.READY and st.night == 2
    for p in st.alive():  # PARTY-X27: nothing for the players to press
        assert await press_action(h, h.user(p.user_id), GROUP, "ready") is None
    await h.command(host, "/next")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 2


async def _host_game(h: Harness):
    players, host = h.users[:5], h.users[5]
    await h.command(players[0], "/newgame")
    g = await h.game()
    await h.dm(host, f"/start host_{g.id}")
    for u in players:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(players[0], "/startgame")
    return players, host


async def test_PARTY_X27_a_host_run_gate_counts_nobody_and_offers_no_ready(h: Harness):
    """Issue 20: the night gate of a host-run party read "the table is ready (0/7)" once the host
    pressed «Next». PARTY-Q14: the host's «Next» replaces readiness, so the gate shows no count
    and no «Ready»; a stale or forged «Ready» is refused and not stored."""
    players, host = await _host_game(h)
    g = await h.game()
    gate = g.ui["ready"]
    assert "(0/" not in h.message(GROUP, gate)["text"]
    await h.command(host, "/next")
    text = h.message(GROUP, gate)["text"]
    assert "\n🌙 Night 1: the host starts the night.\n" in text and "/" not in text, text
    st = (await h.game()).state
    for p in st.alive():
        await press_action(h, h.user(p.user_id), p.user_id, "sleep")
    while (st := (await h.game()).state).phase is Phase.SPEECH:
        await end_speech(h)
    assert st.phase is Phase.READY and st.night == 2
    g = await h.game()
    gate = g.ui["ready"]
    shown = h.message(GROUP, gate)
    assert shown["text"].endswith("🌙 Night 2 is coming. Waiting for the host to start it.")
    assert not (shown.get("reply_markup") or {}).get("inline_keyboard")
    forged = Act(g=g.id, s=st.phase_seq, a="ready").pack()
    log_len = await h.log_len(g.id)
    answer = await h.press(players[1], GROUP, gate, forged)
    assert answer == "The host starts the night: there is nothing to press."
    assert await h.log_len(g.id) == log_len and not (await h.game()).state.ready
    await h.command(host, "/next")
    text = h.message(GROUP, gate)["text"]
    assert "🌙 Night 2: the host starts the night." in text and "/" not in text, text


async def test_a_game_command_sent_privately_is_confirmed_there(h: Harness):
    """/pause and /resume in the private chat act on the group's game, whose messages tell the
    table; the sender is told so in his chat (newcomer trial: no answer there)."""
    await start_game(h)
    await to_day(h)
    user = h.users[2]
    await h.dm(user, "/pause")
    assert (await h.game()).state.pause is not None
    assert h.texts(user.id)[-1] == "Done: the group has been told."
    await h.dm(user, "/resume")
    assert (await h.game()).state.pause is None
    assert h.texts(user.id)[-1] == "Done: the group has been told."


async def test_repeated_and_refused_commands_are_answered_once_a_minute(h: Harness):
    """Issue 20: eight /pause, /resume, /settings -- refused ones too -- were eight group
    messages; a refusal repeated by the same user is said once a minute."""
    await start_game(h)
    await to_day(h)
    player = h.users[2]
    await h.command(player, "/pause")
    assert (await h.game()).state.pause is not None
    mark = len(h.sent_texts(GROUP, ("sendMessage",)))
    for _ in range(3):
        await h.command(player, "/pause")  # already paused: refused, once
        await h.command(player, "/settings speech 45")  # not his to change: refused, once
    await h.app.sender.drain()
    answers = h.sent_texts(GROUP, ("sendMessage",))[mark:]
    assert len(answers) == 2, answers
    assert answers[1] == "Only the organiser or a group admin can do that."
    await h.command(h.users[3], "/settings speech 45")  # another user is told, once
    await h.app.sender.drain()
    assert len(h.sent_texts(GROUP, ("sendMessage",))[mark:]) == 3


async def test_PARTY_44_a_back_at_night_is_told_as_the_away_was(h: Harness):
    """Issue 20: /away at night is announced; /back at night was not (a night press must not
    show who acted, but a /back of his own shows nothing of the kind)."""
    await start_game(h)
    for u in h.users:
        await press_action(h, u, u.id, "ready")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT
    away = h.user(st.by_seat(3).user_id)
    label = f"№3 {away.first_name}"
    await h.command(away, "/away")
    assert f"💤 {label} stepped away and is inactive now." in h.sent_texts(GROUP)
    await h.command(away, "/back")
    await h.app.sender.drain()
    assert f"🟢 {label} is back." in h.sent_texts(GROUP)


async def test_PARTY_44_a_player_back_at_night_keeps_his_one_night_message(h: Harness):
    """Issue 20 (online trial): a player made inactive pressed his night message; the press
    brought him back with his role card again and a second night message, and the one he had
    pressed kept its live buttons to the end of the game. Back by a press or by /back, he gets
    no new message: the night message he has is the live one, shown as the night now is."""
    await start_game(h)
    for u in h.users:
        await press_action(h, u, u.id, "ready")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT
    pressed, typed = h.user(st.by_seat(3).user_id), h.user(st.by_seat(4).user_id)
    for away in (pressed, typed):
        await h.command(away, "/away")
        assert not (await h.game()).state.players[away.id].active
    sends = {u.id: len(h.sent(u.id, ("sendMessage",))) for u in (pressed, typed)}

    assert await press_action(h, pressed, pressed.id, "sleep") == "💤"
    await h.dm(typed, "/back")
    st = (await h.game()).state
    assert st.players[pressed.id].active and st.players[typed.id].active
    assert h.sent_texts(pressed.id, ("sendMessage",))[sends[pressed.id]:] == []
    assert h.sent_texts(typed.id, ("sendMessage",))[sends[typed.id]:] == [
        "Done: the group has been told."]  # the answer to his /back, nothing else
    live = {mid for mid, b in h.buttons(typed.id) if (b.get("callback_data") or "")[:2] == "a:"}
    assert len(live) == 1  # his one night message, still to be pressed
    assert await press_action(h, typed, typed.id, "sleep") == "💤"


async def test_refused_judge_commands_are_answered_once_a_minute(h: Harness):
    """Issue 20, tried again: a party host's /foul 3, sent three times, was "This game has no
    fouls." three times in the group; the moderation commands' refusals follow the rule of the
    others (once a minute per user and text)."""
    await start_game(h)
    await to_day(h)
    mark = len(h.sent_texts(GROUP, ("sendMessage",)))
    for _ in range(3):
        await h.command(h.users[1], "/foul 3")
        await h.command(h.users[1], "/panel")
    await h.app.sender.drain()
    answers = h.sent_texts(GROUP, ("sendMessage",))[mark:]
    assert answers == ["This game has no fouls.",
                       "Only the host or a group admin can give fouls."], answers


def test_PARTY_X27_the_mini_app_offers_no_ready_in_a_host_run_game():
    """The page's buttons follow the bot's: with a host no «Ready» / «I have read my role»;
    without one, every living player has it at the gate."""
    for host in (True, False):
        st = started_game(5, "MCDTT", host=host).state
        assert st.phase is Phase.READY
        codes = {b["a"] for b in MafiaWebView().buttons(lambda s: s, st, Viewer(uid(2), "player"))}
        assert ("ready" in codes) is not host, (host, codes)
