"""A whole club game (``/newgame club``), end to end: the bot runs as its own process against the
stand-in Bot API; ten simulated players and a human judge, who joined through the lobby's «Be the
host» deep link, play it in a supergroup (Russian, the default language).

The script (roles are dealt at random; the cast below is picked from the deal):

* before the game the organiser sets short timings (meeting and nights 20 s, vote window and
  silenced turn 5 s) so the timers that must fire do so quickly;
* the judge gets every role and the foul console by private message;
* night 1, the meeting: a black's private text reaches the other two blacks and nobody else; a
  red's is not passed on; the judge gives №P a foul from his console; the meeting's timer ends it;
* day 1: the first two speakers nominate (the turn says «Accepted»); the judge gives №P two more
  fouls (3 of 4: his next speech is lost), a group admin's /foul is refused (only the judge fouls
  when there is one), the judge answers №Q's group message with /foul; №P's turn is the silenced
  one (announced; his group post is deleted; its 5-s timer moves on); the club vote: one window for
  the first nominee, none for the last, who gets every silent vote and leaves; the judge's «Next»
  ends his last word;
* night 2: the blacks shoot the same red from their private chats, the Don looks for the Sheriff,
  the Sheriff checks a black; nothing is answered before the night's timer closes it; at dawn the
  answers reach the checkers only;
* day 2: the judge disqualifies a player with /disqualify N (no last word, the day's vote is
  cancelled), moves one speech on with /next in the group;
* night 3: the blacks shoot again, the judge ends the night with /next; three blacks against three
  reds after the victim's last word: the mafia wins.  The final group message names the winner and
  every role; no group message before it names a role or a check result.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.ui.callbacks import Act
from bot.ui.texts import ROLE_NAMES
from engine import GameState, Phase, Role, Team
from engine.club.state import fouls_of

from .botproc import BotProcess
from .conftest import ONCE, TIMEOUT, Table, ids, seat_label
from .fake_api import FakeBotAPI
from .model import StoredMessage, unisolated

pytestmark = [pytest.mark.asyncio(loop_scope="module"), ONCE]

GROUP = -1001000000003
TITLE = "Club night"
PLAYERS = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya", "Kira", "Lev")
TIMINGS = {"meeting": 20, "night": 20, "vote": 5, "silenced": 5}


def plain(text: str) -> str:
    """A message as Telegram shows it (the bot sends HTML; the stand-in stores the plain text)."""
    return text.replace("<b>", "").replace("</b>", "")


def versions(message: StoredMessage) -> list[str]:
    return [e.text for e in message.edits if e.text] + [t for t in (message.text, message.caption) if t]


def button_data(message: StoredMessage) -> list[str]:
    """Callback data of every button the message ever had (edits included)."""
    markups = [e.reply_markup for e in message.edits] + [message.reply_markup]
    return [b.get("callback_data", "") for m in markups if m
            for row in m["inline_keyboard"] for b in row]


async def wait_state(table: Table, predicate, what: str, timeout: float = TIMEOUT) -> GameState:
    """Poll the game's log until ``predicate(state)``; fails (with the bot's log) after ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        st = await table.state()
        if predicate(st):
            return st
        if loop.time() > deadline or not table.proc.running:
            raise AssertionError(f"the game did not {what} within {timeout} s "
                                 f"(phase {st.phase.value}, day {st.day}, night {st.night})\n"
                                 f"{table.proc.log_tail()}")
        await asyncio.sleep(0.1)


def dm_texts(api: FakeBotAPI, user_id: int) -> list[str]:
    return [text for m in api.messages(user_id) for text in versions(m)]


async def test_club_game_with_a_judge(bot_api: FakeBotAPI, bot_proc: BotProcess, reader) -> None:
    table = Table(bot_api, bot_proc, reader, GROUP, first_user_id=3001, title=TITLE,
                  names=PLAYERS, host_name="Mark")
    _ = table._
    organiser, host = table.users[0], table.host
    assert host is not None
    everyone = [*table.users, host]

    # --- the organiser sets short timings, opens a club lobby; the judge and ten players join -----
    panel = plain(_("⚙️ <b>Settings of this chat</b>"))
    for n, (key, seconds) in enumerate(TIMINGS.items(), start=1):
        await organiser.say(GROUP, f"/settings {key} {seconds}")
        await table.wait(lambda n=n: sum(m.contains(panel) for m in bot_api.messages(GROUP)) == n,
                         f"answer /settings {key}")
    lobby = await table.open_lobby("/newgame club")
    assert _("Club sport mafia") in (lobby.text or "")
    hosting = await table.become_host()
    assert plain(_("🎩 You host the game in «{chat}». You will see every role and move the game on "
                   "with «Next».").format(chat=TITLE)) in (hosting.text or "")
    await table.wait(lambda: _("Host: {name}").format(name="Mark") in unisolated(lobby.text),
                     "name the host in the lobby")
    url = next(b["url"] for b in lobby.buttons if "start=join_" in (b.get("url") or ""))
    for player in table.users:
        await player.follow_deep_link(url)
        await table.wait_message(player.id, "✅")
    # joins edit the lobby at most once per LIVE_GAP (issue 11): it lists them all within seconds
    await table.wait(lambda: all(f"{n}. {u.first_name}" in unisolated(lobby.text)
                                 for n, u in enumerate(table.users, start=1)),
                     "list every player in the lobby")
    cards = await table.start_game()

    st = await table.state()
    gid = table.game_id
    assert gid is not None
    assert st.ruleset == "club" and st.host == host.id and host.id not in st.players
    assert st.timer is not None
    assert st.phase is Phase.NIGHT and st.night == 1 and st.timer.kind == "meeting"
    assert st.timer.seconds == TIMINGS["meeting"]
    assert {k: st.timings[k] for k in TIMINGS} == TIMINGS
    assert sorted(p.seat for p in st.seated()) == list(range(1, 11))
    for p in st.seated():  # each card names his own role only
        card = cards[p.user_id].text or ""
        assert table.role_label(p.role) in card, card
        assert [r for r in ROLE_NAMES if r is not p.role and table.role_label(r) in card] == []

    # The cast, from the deal.
    (don,), mafia, (sheriff,) = ids(st, Role.DON), ids(st, Role.MAFIA), ids(st, Role.SHERIFF)
    civilians = ids(st, Role.CIVILIAN)
    blacks = [don, *mafia]
    assert len(mafia) == 2 and len(civilians) == 6
    # №P: three fouls, loses his speech on day 1; not the organiser, whose posts as a group admin
    # are never deleted; his seat is 5 or more, after the two nominators and №Q.
    silenced = [c for c in civilians if c != organiser.id][-1]
    q = st.by_seat(3).user_id  # №Q: fouled by a reply to his group message in his speech
    reds = [c for c in civilians if c != silenced]
    first_nominee, voted_out = sheriff, reds[0]
    night2_victim, disqualified, night3_victim, survivor = reds[1:5]
    user = table.by_id
    seat = {p.user_id: p.seat for p in st.seated()}
    lbl = {p.user_id: seat_label(st, p.user_id) for p in st.seated()}

    # The judge: every role by DM, the «Next» button and the foul console.
    roles_dm = await table.wait_message(host.id, _("🎩 You host this game. Roles:"))
    for p in st.seated():
        assert f"{lbl[p.user_id]} — {table.role_label(p.role)}" in (roles_dm.text or "")
    assert roles_dm.button_texts == [_("⏭ Next")]
    console = await table.wait_message(host.id, plain(_("⚖️ <b>Judge's console</b> · {phase}"))
                                       .split(" · ")[0])
    foul_data = {uid: Act(g=gid, s=0, a="foul", t=s).pack() for uid, s in seat.items()}
    assert set(foul_data.values()) <= {b.get("callback_data") for b in console.buttons}
    # a disqualification asks first (issue 21): the console's cell carries «?dq»
    assert Act(g=gid, s=0, a="?dq", t=seat[disqualified]).pack() in button_data(console)
    await table.wait_message(GROUP, plain(_("🌙 <b>Night</b>. The mafia meets for {s} s; everyone "
                                            "else sleeps: nobody else has anything to press.")
                                          .format(s=TIMINGS["meeting"])))

    # --- night 1: the meeting ----------------------------------------------------------------------
    for uid in blacks:
        await table.wait_message(uid, _("🕶 Your team: {list}.").split("{")[0])
    plan = "Стреляем 7, 3, 9."
    await user[don].say(don, plan)
    relayed = f"🕶 {lbl[don]}: {plan}"
    for uid in mafia:
        await table.wait_message(uid, relayed)
    red_text = "Я мирный, честно"
    await user[survivor].say(survivor, red_text)
    await table.wait_message(survivor, _("Talk in the group; I pass private messages only "
                                             "between mafiosi at night."))
    answer = await table.press(host, host.id, foul_data[silenced])  # №P talked at night
    assert answer.text == "⚠️"
    await table.wait_message(GROUP, _("⚠️ Foul to {player} ({n} of 4).").format(player=lbl[silenced], n=1))
    await bot_api.settle(quiet=1.2, timeout=15)
    for other in everyone:
        if other.id not in mafia:
            assert not any(plan in t for t in dm_texts(bot_api, other.id)), other
        assert not any(red_text in t for m in bot_api.messages(other.id) for t in versions(m)), other
    assert not any(plan in t for m in bot_api.messages(GROUP) for t in versions(m))
    st = await table.state()
    assert st.phase is Phase.NIGHT and st.night == 1, "the meeting runs its full time"

    # The meeting's timer ends the night; nobody was killed; day 1 opens with seat 1.
    st = await wait_state(table, lambda s: s.phase is Phase.SPEECH, "end the meeting", timeout=30)
    await table.wait_message(GROUP, _("☀️ Morning. On the first night the mafia only met: "
                                      "nobody was shot."))
    assert st.day == 1 and st.speaker == st.by_seat(1).user_id

    # --- day 1 ---------------------------------------------------------------------------------------
    nominees = [first_nominee, voted_out]
    while st.phase is Phase.SPEECH:
        speaker = st.speaker
        turn_id = table.message_with(GROUP, table.act(st, "end")) or await table.wait(
            lambda st=st: table.message_with(GROUP, table.act(st, "end")), "post the turn")
        turn = bot_api.message(GROUP, turn_id)
        if speaker == silenced:
            head = _("🤐 Day {day}. {player} has 3 fouls and loses this speech; he may only "
                     "nominate — {s} s.").format(day=1, player=lbl[silenced], s=TIMINGS["silenced"])
            assert (turn.text or "").startswith(head), turn.text
            post = await user[silenced].say(GROUP, "Подождите, мне есть что сказать!")
            await table.wait(lambda post=post: bot_api.message(GROUP, post.message_id).deleted,
                             "delete the silenced player's post")
            seq = st.phase_seq
            st = await wait_state(table, lambda s, seq=seq: s.phase_seq != seq, "end the silenced turn",
                                  timeout=15)
            assert fouls_of(st, silenced) == 3
            continue
        assert _("🎙 Day {day}. Speech of {player} — {s} s.").format(
            day=1, player=lbl[speaker], s=60) in (turn.text or "")
        if seat[speaker] <= 2:  # the first two speakers nominate
            target = nominees[seat[speaker] - 1]
            await table.do(user[speaker], GROUP, st, "nom", target)
            accepted = _("🎯 {player} nominated {target}. Accepted.").format(
                player=lbl[speaker], target=lbl[target])
            await table.wait(lambda accepted=accepted, turn=turn: accepted in (turn.text or ""),
                             "say «Accepted»")
            st = await table.state()
        if seat[speaker] == 1:
            # The judge gives №P two more fouls from his console: 3 of 4.
            for n in (2, 3):
                answer = await table.press(host, host.id, foul_data[silenced])
                assert answer.text == "⚠️"
                await table.wait_message(GROUP, _("⚠️ Foul to {player} ({n} of 4).").format(
                    player=lbl[silenced], n=n))
            await table.wait_message(GROUP, _("He loses his next speech but may still nominate."))
            await table.wait(lambda: f"⚠️ №{seat[silenced]} ⚠️⚠️⚠️" in console.button_texts,
                             "show the three fouls on the judge's console")
            # A group admin may not foul while the game has a judge.
            await organiser.say(GROUP, f"/foul {seat[q]}")
            await table.wait_message(GROUP, _("This game has a host: only he gives fouls."))
            st = await table.state()
            assert fouls_of(st, q) == 0
        if speaker == q:
            post = await user[q].say(GROUP, f"№{seat[silenced]} точно мафия, клянусь мамой!")
            await host.say(GROUP, "/foul", reply_to=post.message_id)
            await table.wait_message(GROUP, _("⚠️ Foul to {player} ({n} of 4).").format(player=lbl[q], n=1))
            assert not bot_api.message(GROUP, post.message_id).deleted, "the speaker may talk"
            st = await table.state()
            assert fouls_of(st, q) == 1
        await table.do(user[speaker], GROUP, st, "end")
        st = await table.state()

    # The club vote: a window for the first nominee only; the silent votes go to the last one.
    assert st.vote is not None and st.timer is not None
    assert st.phase is Phase.VOTING and st.vote.candidates == nominees
    vote_message_id = await table.wait(
        lambda: table.message_with(GROUP, table.act(st, "vote", first_nominee)), "post the vote")
    assert st.vote.current == first_nominee and st.timer.kind == "vote"
    for voter in (first_nominee, blacks[1]):  # the nominee votes against himself too
        await table.do(user[voter], GROUP, st, "vote", first_nominee)
    vote_message = bot_api.message(GROUP, vote_message_id)
    st = await wait_state(table, lambda s: s.phase is Phase.LAST_WORD, "close the vote", timeout=15)
    assert st.speaker == voted_out and not st.players[voted_out].alive
    await table.wait(lambda: _("🗳 Result of the vote:") in (vote_message.text or ""), "show the result")
    assert f"{lbl[first_nominee]} — 2" in (vote_message.text or ""), vote_message.text
    assert f"{lbl[voted_out]} — 8" in (vote_message.text or ""), vote_message.text
    no_window = re.compile(rf"^a:{gid}:\d+:vote:{seat[voted_out]}$")
    assert not [d for m in bot_api.messages(GROUP) for d in button_data(m) if no_window.match(d)], \
        "the last nominee gets no vote window"
    await table.wait_message(GROUP, _("{player} is voted out.").format(player=lbl[voted_out]))
    # The judge's «Next» (his private console, bound to the running phase) ends the last word.
    st = await wait_state(table, lambda s: s.phase is Phase.LAST_WORD, "give the last word")
    answer = await table.press(host, host.id, Act(g=gid, s=st.phase_seq, a="next").pack())
    assert answer.text == "⏭"

    # --- night 2: blind shots and checks, answered at dawn ------------------------------------------
    st = await wait_state(table, lambda s: s.phase is Phase.NIGHT, "fall night 2")
    assert st.timer is not None
    assert st.night == 2 and st.timer.kind == "night" and st.timer.seconds == TIMINGS["night"]
    await table.wait_message(GROUP, plain(_("🌙 <b>Night {n}</b>. The town sleeps; night roles act in "
                                            "private chat (up to {s} s).").format(n=2, s=20)))
    for uid in blacks:
        await table.do(user[uid], uid, st, "kill", night2_victim)
    await table.do(user[don], don, st, "dcheck", sheriff)
    await table.do(user[sheriff], sheriff, st, "scheck", mafia[0])
    shot = _("🔫 You shot {player}.").format(player=lbl[night2_victim])
    for uid in blacks:  # each shooter sees his own shot, nobody else's
        await table.wait_message(uid, shot)
    await table.wait_message(sheriff, _("⭐ You check {player}; the answer comes at dawn.").format(
        player=lbl[mafia[0]]))
    await table.wait_message(don, _("🎩 You check {player} for the Sheriff; the answer comes at "
                                    "dawn.").format(player=lbl[sheriff]))
    don_verdict = plain(_("🎩 {player} <b>is the Sheriff</b>.").format(player=lbl[sheriff]))
    sheriff_verdict = plain(_("⭐ {player} is <b>black</b>.").format(player=lbl[mafia[0]]))
    await bot_api.settle(quiet=1.2, timeout=15)
    st = await table.state()
    assert st.phase is Phase.NIGHT and st.night == 2, "a club night never closes early"
    for chat in [*(u.id for u in everyone), GROUP]:  # no answer while the night runs
        assert not any(v in t for v in (don_verdict, sheriff_verdict) for t in dm_texts(bot_api, chat))
    st = await wait_state(table, lambda s: s.phase is Phase.LAST_WORD, "close night 2", timeout=30)
    assert st.speaker == night2_victim and not st.players[night2_victim].alive
    await table.wait_message(GROUP, _("☀️ Morning. {player} was killed tonight.").format(
        player=lbl[night2_victim]))
    await table.wait_message(don, don_verdict)
    await table.wait_message(sheriff, sheriff_verdict)
    await table.do(user[night2_victim], GROUP, st, "end")

    # --- day 2: a disqualification, the judge's /next ------------------------------------------------
    st = await wait_state(table, lambda s: s.phase is Phase.SPEECH and s.day == 2, "open day 2")
    await host.say(GROUP, f"/disqualify {seat[disqualified]}")
    await table.wait_message(GROUP, _("🟥 {player} is disqualified and leaves at once, without a last "
                                      "word.").format(player=lbl[disqualified]))
    await table.wait_message(disqualified, _("🟥 You are disqualified. Please watch without posting; "
                                             "roles are revealed at the end."))
    # the console keeps its grid (issue 21: nothing moves under the judge's finger): a gone
    # seat's row keeps its place, its foul and disqualification cells turned to placeholders
    await table.wait(lambda: f"🟥 №{seat[disqualified]}" not in console.button_texts
                     and f"🟥 №{seat[night2_victim]}" not in console.button_texts
                     and f"✖ №{seat[disqualified]}" in console.button_texts
                     and len(console.button_texts) == 4 + 3 * 10, "keep the grid on the console")
    st = await table.state()
    assert not st.players[disqualified].alive and st.phase is Phase.SPEECH
    assert st.speaker != disqualified and disqualified not in st.queue
    speakers = []
    while st.phase is Phase.SPEECH:
        assert st.speaker is not None
        speakers.append(st.speaker)
        if len(speakers) == 1:  # the first speaker nominates: the vote is cancelled anyway
            await table.do(user[st.speaker], GROUP, st, "nom", mafia[1])
            await table.do(user[st.speaker], GROUP, st, "end")
        elif len(speakers) == 2:  # the judge moves this speech on from the group
            seq = st.phase_seq
            await host.say(GROUP, "/next")
            await wait_state(table, lambda s, seq=seq: s.phase_seq != seq, "move on after /next")
        else:
            await table.do(user[st.speaker], GROUP, st, "end")
        st = await table.state()
    assert disqualified not in speakers and len(speakers) == 7
    await table.wait_message(GROUP, _("A disqualification cancelled today's vote: nobody leaves."))
    assert st.phase is Phase.NIGHT and st.night == 3

    # --- night 3: the blacks shoot, the judge ends the night with /next in the group -----------------
    for uid in blacks:
        await table.do(user[uid], uid, st, "kill", night3_victim)
    await table.do(user[don], don, st, "dcheck", survivor)
    await table.do(user[sheriff], sheriff, st, "scheck", don)
    await bot_api.settle(quiet=1.2, timeout=15)
    await host.say(GROUP, "/next")
    st = await wait_state(table, lambda s: s.phase is Phase.LAST_WORD, "close night 3 on /next")
    assert st.speaker == night3_victim
    await table.wait_message(don, plain(_("🎩 {player} is not the Sheriff.").format(player=lbl[survivor])))
    await table.wait_message(sheriff, plain(_("⭐ {player} is <b>black</b>.").format(player=lbl[don])))
    await table.do(user[night3_victim], GROUP, st, "end")

    # --- the end ---------------------------------------------------------------------------------------
    end = await wait_state(table, lambda s: s.over, "end the game")
    assert end.phase is Phase.ENDED and end.winner is Team.MAFIA
    dead = {voted_out, night2_victim, disqualified, night3_victim}
    assert {p.user_id for p in end.seated() if not p.alive} == dead
    finale = await table.wait_message(GROUP, _("Roles:"))
    await bot_api.settle(quiet=1.5, timeout=20)
    group = bot_api.messages(GROUP)
    assert group[-1] is finale, "the results are the last message in the group"
    assert plain(_("🏆 <b>Mafia wins!</b>")) in (finale.text or "")
    for p in end.seated():
        assert f"{lbl[p.user_id]} — {table.role_label(p.role)}" in (finale.text or ""), finale.text
    earlier = group[:-1]
    assert table.role_leaks(earlier) == []
    verdicts = [don_verdict, sheriff_verdict]
    assert not [t for m in earlier for t in versions(m) if any(v in t for v in verdicts)]
    assert not bot_api.pinned_messages(GROUP), "the table is unpinned at the end"
    # The check answers went to their checkers only.
    for other in everyone:
        if other.id != don:
            assert not any(don_verdict in t for t in dm_texts(bot_api, other.id)), other
        if other.id != sheriff:
            assert not any(sheriff_verdict in t for t in dm_texts(bot_api, other.id)), other
    assert bot_proc.problems() == []

