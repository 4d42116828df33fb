"""A crash in the middle of a vote: the bot process is SIGKILLed after some votes are cast and
started again on the same database.  The game goes on in the same voting round, with the votes
already cast kept (a second press by someone who voted is refused), and is played to the end."""

from __future__ import annotations

import pytest

from engine import Phase, Role, Team

from .botproc import BotProcess
from .conftest import Plan, Table, ids, seat_label, vote_round
from .fake_api import FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000002


async def test_game_survives_a_crash_during_a_vote(bot_api: FakeBotAPI, bot_proc: BotProcess, reader) -> None:
    table = Table(bot_api, bot_proc, reader, GROUP, first_user_id=2001)
    organiser = table.users[0]
    _ = table._

    # The chat switches to English and gives each vote window 120 s, so the window opened
    # before the crash is still open after the restart.
    await organiser.say(GROUP, "/settings")
    panel = await table.wait(lambda: _with_button(bot_api, GROUP, "English"), "show /settings")
    answer = await organiser.press(GROUP, panel.message_id, "English")
    assert answer is not None and answer.text == "✅"
    table.locale = "en"
    await table.wait(lambda: "Language: English" in (panel.text or ""), "switch to English")
    await organiser.say(GROUP, "/settings vote 120")
    await table.wait_message(GROUP, "vote 120 s")

    await table.join_all()
    await table.start_game()
    st = await table.state()
    mafia, civilians = ids(st, Role.MAFIA), ids(st, Role.CIVILIAN)
    (commissar,), (doctor,) = ids(st, Role.COMMISSAR), ids(st, Role.DOCTOR)
    # Day 1: a mafioso and a civilian are nominated; the town votes out the mafioso (half the
    # votes before the crash, half after).  Night 2: the other mafioso shoots that civilian.
    # Day 2: the last mafioso is the only nominee and leaves: the town wins.
    plan = Plan(nominations={1: [lambda s: mafia[0], lambda s: civilians[0]], 2: [lambda s: mafia[1]]},
                kill=lambda s: civilians[0], heal=lambda s: doctor, check=lambda s: mafia[1])
    st = await table.play(plan, until=lambda s: s.phase is Phase.VOTING)
    assert vote_round(st).candidates == [mafia[0], civilians[0]] and vote_round(st).current == mafia[0]

    vote_button = table.act(st, "vote", mafia[0])
    voters = [table.by_id[p.user_id] for p in st.alive_active()]
    before, after = voters[:3], voters[3:]
    for user in before:
        await table.do(user, GROUP, st, "vote", mafia[0])
    vote_id = table.message_with(GROUP, vote_button)
    assert vote_id is not None
    vote_message = bot_api.message(GROUP, vote_id)
    target = seat_label(st, mafia[0])
    await table.wait(lambda: f"{target} — 3" in (vote_message.text or ""), "show 3 votes")
    await table.wait(lambda: not bot_api.pending_updates, "fetch every update")

    assert await bot_proc.kill() == -9
    crashed = await table.state()
    assert crashed.phase is Phase.VOTING and set(vote_round(crashed).votes) == {u.id for u in before}

    # One vote is pressed while the bot is down: Telegram keeps the update for the restarted bot.
    await after[0].press(GROUP, vote_message.message_id, vote_button, wait_answer=False)
    queued = list(bot_api.callback_waiters.values())[-1]
    await bot_proc.start()
    assert queued.done(), "answered before the bot even began polling (bot.telegram.prestart)"
    assert "answered 1 of 1 press(es) queued while the bot was down" in bot_proc.log_text()
    # it polls first (the queued press is answered at once) and recovers meanwhile
    await table.wait(lambda: "1 open game(s) recovered" in bot_proc.log_text(), "recover the game")
    # the steps whose messages had not all left when it was killed (the players' private lanes go
    # at 1 call/s) are shown again (bot/telegram/shown.py): the vote may stand in a fresh message now
    def newest_vote():
        return bot_api.message(GROUP, table.message_with(GROUP, vote_button))

    await table.wait(lambda: f"{target} — 4" in (newest_vote().text or ""), "count the vote sent while down")
    vote_message = newest_vote()
    again = await before[0].press(GROUP, vote_message.message_id, vote_button, timeout=20)
    assert again is not None and again.text == _("You have already voted in this round.")
    st = await table.state()
    assert st.phase is Phase.VOTING and set(vote_round(st).votes) == {u.id for u in before + after[:1]}

    for user in after[1:]:  # the others complete the round: the same message, the same button
        answer = await user.press(GROUP, vote_message.message_id, vote_button, timeout=20)
        assert answer is not None and answer.text == "🗳", f"{user.first_name}: {answer}"
    await table.wait(lambda: "Result of the vote" in (vote_message.text or ""), "close the vote")
    assert f"{target} — 6" in vote_message.text, vote_message.text
    st = await table.state()
    assert not st.players[mafia[0]].alive and st.phase is Phase.LAST_WORD

    end = await table.play(plan)
    assert end.phase is Phase.ENDED and end.winner is Team.TOWN and end.day == 2
    assert {p.user_id for p in end.seated() if not p.alive} == {mafia[0], mafia[1], civilians[0]}
    finale = await table.wait_message(GROUP, "Roles:")
    assert "🏆 Town wins!" in (finale.text or "")
    for p in end.seated():
        label = f"{seat_label(end, p.user_id)} — {table.role_label(p.role)}"
        assert label in (finale.text or ""), finale.text
    assert table.role_leaks([m for m in bot_api.messages(GROUP) if m.message_id < finale.message_id]) == []
    # The table was pinned before the crash; the restarted bot still knows it, edits and unpins it.
    table_message = bot_api.message(GROUP, (await reader.get_game(table.game_id)).ui["table"])
    await table.wait(lambda: not bot_api.pinned_messages(GROUP), "unpin the table")
    assert (table_message.text or "").startswith("🏁 Game over") and table_message.reply_markup is None
    await table.wait_message(commissar, _("🔎 {player} is <b>mafia</b>.").format(
        player=seat_label(end, mafia[1])).replace("<b>", "").replace("</b>", ""))
    assert bot_proc.problems() == []


def _with_button(api: FakeBotAPI, chat_id: int, text: str):
    for message in reversed(api.messages(chat_id)):
        if any(text in b["text"] for b in message.buttons):
            return message
    return None
