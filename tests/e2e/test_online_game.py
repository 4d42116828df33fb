"""A whole online sport game (``/newgame online``), end to end: the bot runs as its own process
against the stand-in Bot API; six simulated players play it in a supergroup (Russian, the
default language) by pressing the buttons the bot sends them (docs/rules/online-sport.md).

The script (roles are dealt at random; the cast below is picked from the deal):

* before the game the organiser shortens the discussion to 30 s, the one timer that must fire
  (every other phase is closed by the players' taps; the nights keep their 60 s so that a slow
  machine never closes one before everybody has acted);
* night 1: the Don writes to the bot and the mafioso gets it (the relay); a civilian's text goes
  nowhere; the two blacks tap Ready (Sleep) in private (X17) and day 1 opens at once;
* day 1: the ballot is live in the group: the Don, the mafioso and the Sheriff vote for civilian
  №A, first a preliminary tap (·), then a final one (✔); a third tap is refused; civilian №B
  taps №A once and never confirms; civilian №C passes.  Not every vote is final, so the
  discussion's 30-s timer closes it; №B's preliminary tap counts: №A has 4 votes and leaves
  after his last word;
* night 2: both blacks shoot civilian №B; the Sheriff's check (the mafioso: black) and the Don's
  search (the Sheriff) are answered at once, while the night still runs; №C's Sleep closes it;
* morning: №B, the first victim, makes the best move with three taps in his private chat (the
  Don, the mafioso, the Sheriff), published at once; then his last word; two blacks against two
  reds: the mafia wins.  The final group message is red, names every role and scores the best
  move (2 of 3 black); no group message before it names a role or a check result.
"""

from __future__ import annotations

import asyncio

import pytest

from engine import GameState, OnlinePhase, Phase, Role, Team

from .botproc import BotProcess
from .conftest import ONCE, TIMEOUT, Table, ids, seat_label
from .fake_api import FakeBotAPI
from .model import StoredMessage

pytestmark = [pytest.mark.asyncio(loop_scope="module"), ONCE]

GROUP = -1001000000004
TITLE = "Online night"
TIMINGS = {"discussion": 30}


def plain(text: str) -> str:
    """A message as Telegram shows it (the bot sends HTML; the stand-in stores the plain text)."""
    return text.replace("<b>", "").replace("</b>", "")


def versions(message: StoredMessage) -> list[str]:
    return [e.text for e in message.edits if e.text] + [t for t in (message.text, message.caption)
                                                         if t]


def texts(api: FakeBotAPI, chat_id: int) -> list[str]:
    """Every version of every bot message in the chat."""
    return [t for m in api.messages(chat_id) for t in versions(m)]


async def wait_state(table: Table, predicate, what: str, timeout: float = TIMEOUT) -> GameState:
    """Poll the game's log until ``predicate(state)``; fails (with the bot's log) after
    ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        st = await table.state()
        if predicate(st):
            return st
        if loop.time() > deadline or not table.proc.running:
            raise AssertionError(f"the game did not {what} within {timeout} s (phase "
                                 f"{st.phase.value}, day {st.day}, night {st.night})\n"
                                 f"{table.proc.log_tail()}")
        await asyncio.sleep(0.1)


async def test_online_game_to_the_end(bot_api: FakeBotAPI, bot_proc: BotProcess, reader) -> None:
    table = Table(bot_api, bot_proc, reader, GROUP, first_user_id=4001, title=TITLE)
    _ = table._
    organiser = table.users[0]

    # --- short timings, the online lobby, six joins by deep link --------------------------------
    panel = plain(_("⚙️ <b>Settings of this chat</b>"))
    for n, (key, seconds) in enumerate(TIMINGS.items(), start=1):
        await organiser.say(GROUP, f"/settings {key} {seconds}")
        await table.wait(lambda n=n: sum(m.contains(panel) for m in bot_api.messages(GROUP)) == n,
                         f"answer /settings {key}")
    await table.join_all("/newgame online")
    lobby = table._lobby_message()
    assert lobby is not None and _("Online sport mafia") in (lobby.text or "")
    cards = await table.start_game()

    st = await table.state()
    assert st.ruleset == "online" and st.phase is Phase.NIGHT and st.night == 1
    assert st.timer is not None and st.timer.kind == "meeting"
    assert {k: st.timings[k] for k in TIMINGS} == TIMINGS
    for p in st.seated():
        assert table.role_label(p.role) in (cards[p.user_id].text or "")
    (don,), (mafioso,), (sheriff,) = ids(st, Role.DON), ids(st, Role.MAFIA), ids(st, Role.SHERIFF)
    voted_out, victim, passer = ids(st, Role.CIVILIAN)
    user = table.by_id
    lbl = {p.user_id: seat_label(st, p.user_id) for p in st.seated()}
    seat = {p.user_id: p.seat for p in st.seated()}

    # --- night 1: the blacks meet through the bot and tap Ready (the reds have nothing to do) ----
    await table.wait_message(mafioso, _("🕶 Your team: {list}.").split("{")[0])
    await user[don].say(don, "Стреляем по очереди слева.")
    await table.wait_message(mafioso, f"🕶 {lbl[don]}: Стреляем по очереди слева.")
    await user[passer].say(passer, "Я мирный")
    await table.wait_message(passer, _("Talk in the group; I pass private messages only between "
                                       "mafiosi at night."))
    for uid in (don, mafioso):  # ONLINE-02, X17
        await table.do(user[uid], uid, st, "sleep")
    st = await wait_state(table, lambda s: s.phase is OnlinePhase.DISCUSSION, "open day 1")
    assert st.day == 1 and st.timer is not None and st.timer.seconds == TIMINGS["discussion"]

    # --- day 1: preliminary and final taps on the live ballot ------------------------------------
    ballot_id = await table.wait(lambda: table.message_with(GROUP, table.act(st, "tv", voted_out)),
                                 "post the ballot")
    ballot = bot_api.message(GROUP, ballot_id)
    assert plain(_("☀️ <b>Day {day}</b>: discussion and vote.").format(day=1)) in (ballot.text or "")
    offered = {b["callback_data"] for b in ballot.buttons}
    assert table.act(st, "tv") in offered  # PASS (t=0)
    assert {table.act(st, "tv", uid) for uid in seat} <= offered

    def shows(fragment: str):
        return lambda: fragment in (bot_api.message(GROUP, ballot_id).text or "")

    await table.do(user[don], GROUP, st, "tv", voted_out)
    await table.wait(shows(f"{lbl[voted_out]} — 1: №{seat[don]}·"), "show a preliminary tap")
    await table.do(user[don], GROUP, st, "tv", voted_out)
    await table.wait(shows(f"{lbl[voted_out]} — 1: №{seat[don]}✔"), "show a final tap")
    answer = await table.press(user[don], GROUP, table.act(st, "tv", victim))
    assert answer.text == _("You have already voted in this round.")
    for voter in (mafioso, sheriff):
        await table.do(user[voter], GROUP, st, "tv", voted_out)
        await table.do(user[voter], GROUP, st, "tv", voted_out)
    await table.do(user[victim], GROUP, st, "tv", voted_out)  # preliminary, never confirmed
    for _tap in range(2):
        await table.do(user[passer], GROUP, st, "tv")  # PASS, final
    await table.do(user[voted_out], GROUP, st, "tv")
    await table.do(user[voted_out], GROUP, st, "tv")
    marks = {don: "✔", mafioso: "✔", sheriff: "✔", victim: "·"}
    voters = ", ".join(f"№{seat[u]}{marks[u]}" for u in sorted(marks, key=seat.__getitem__))
    await table.wait(shows(f"{lbl[voted_out]} — 4: {voters}"), "show the four taps")
    pass_line = _("PASS — {n}: {list}").format(
        n=2, list=", ".join(f"№{seat[u]}✔" for u in sorted((passer, voted_out), key=seat.__getitem__)))
    await table.wait(shows(pass_line), "show the PASS taps")
    assert (await table.state()).phase is OnlinePhase.DISCUSSION, "an unconfirmed tap keeps it open"

    st = await wait_state(table, lambda s: s.phase is Phase.LAST_WORD, "close the vote at 30 s",
                          timeout=TIMINGS["discussion"] + 15)
    assert st.speaker == voted_out and not st.players[voted_out].alive
    await table.wait(shows(_("🗳 Result of the vote:")), "show the result")
    assert f"{lbl[voted_out]} — 4" in (bot_api.message(GROUP, ballot_id).text or "")
    await table.wait_message(GROUP, _("{player} is voted out.").format(player=lbl[voted_out]))
    await table.do(user[voted_out], GROUP, st, "end")

    # --- night 2: shots, the Sheriff's check and the Don's search answered at once ----------------
    st = await wait_state(table, lambda s: s.phase is Phase.NIGHT and s.night == 2, "fall night 2")
    for uid in (don, mafioso):
        await table.do(user[uid], uid, st, "kill", victim)
    await table.do(user[sheriff], sheriff, st, "scheck", mafioso)
    sheriff_verdict = plain(_("⭐ {player} is <b>black</b>.").format(player=lbl[mafioso]))
    await table.wait_message(sheriff, sheriff_verdict)
    await table.do(user[don], don, st, "dcheck", sheriff)
    don_verdict = plain(_("🎩 {player} <b>is the Sheriff</b>.").format(player=lbl[sheriff]))
    await table.wait_message(don, don_verdict)
    assert (await table.state()).phase is Phase.NIGHT, "the answers come while the night runs"
    await table.do(user[victim], victim, st, "sleep")
    await table.do(user[passer], passer, st, "sleep")

    # --- the best move: three taps by the victim, published at once -------------------------------
    st = await wait_state(table, lambda s: s.phase is OnlinePhase.BEST_MOVE, "start the best move")
    assert st.speaker == victim
    await table.wait_message(GROUP, _("☀️ Morning. {player} was killed tonight.").format(
        player=lbl[victim]))
    picks = [don, mafioso, sheriff]
    for n, uid in enumerate(picks, start=1):
        answer = await table.press(user[victim], victim, table.act(st, "bm", uid))
        assert answer.text == ("🎯" if n == 3 else _("{n} of 3 chosen.").format(n=n))
    await table.wait_message(GROUP, _("🎯 Best move of {player}: {list}.").format(
        player=lbl[victim], list=", ".join(lbl[u] for u in picks)))
    st = await wait_state(table, lambda s: s.phase is Phase.LAST_WORD, "open the last word")
    assert st.speaker == victim
    await table.do(user[victim], GROUP, st, "end")

    # --- the end: red, every role, the best move's score ---------------------------------------
    end = await wait_state(table, lambda s: s.over, "end the game")
    assert end.winner is Team.MAFIA and end.day == 1
    finale = await table.wait_message(GROUP, _("Roles:"))
    await bot_api.settle(quiet=1.5, timeout=20)
    group = bot_api.messages(GROUP)
    # after the results: the score sheet, published at once without a judge (SCORE-X10, X14):
    # the protocol picture captioned with every seat's total
    sheet = group[-1]
    assert group[-2] is finale, "the results, then the score sheet, end the game"
    assert sheet.photo and all(f"{p.seat}. " in (sheet.caption or "") for p in end.seated())
    assert (finale.text or "").startswith(plain(_("🔴 <b>Mafia wins!</b>")))
    for p in end.seated():
        assert f"{lbl[p.user_id]} — {table.role_label(p.role)}" in (finale.text or ""), finale.text
    score = _("🎯 Best move of {player}: {k} of 3 were black.").format(player=lbl[victim], k=2)
    assert score in (finale.text or "")
    earlier = group[:-2]
    assert table.role_leaks(earlier) == []
    assert not [t for m in earlier for t in versions(m)
                if sheriff_verdict in t or don_verdict in t or score in t]
    for other in table.users:  # the answers went to their checkers only
        if other.id != sheriff:
            assert not [t for t in texts(bot_api, other.id) if sheriff_verdict in t], other
        if other.id != don:
            assert not [t for t in texts(bot_api, other.id) if don_verdict in t], other
    assert bot_proc.problems() == []
