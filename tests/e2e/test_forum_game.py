"""A whole forum game (``/newgame forum`` with every optional role), end to end: the bot runs as its
own process against the stand-in Bot API; twelve simulated players and a host, who joined through
the lobby's «Be the host» deep link, play it in a supergroup (Russian, the default language).

The script (roles are dealt at random; every decision is taken from the game's log, as in
tests/bot/test_forum.py):

* the organiser shortens the Cop's turn to 10 s with /settings, so that timer fires on night 2;
* night 1: the Maniac takes the Mafia's side, the Putana the Town's, everybody taps Sleep;
* day 1: the host warns №1 from his console; everybody is ready, the Town votes out a mafioso;
* night 2: the Cop stays idle and his turn's timer moves on; the Mafia pick the Sleepwalker
  (revealed to the team chat only) and re-pick; the Journalist compares a pair;
* then the game is played to its end: the Mafia kill outside their team chat, the Town votes for
  mafiosi, last words name suspects and reveal checks; the host settles tied revotes;
* after the win the host skips the bonus round, every participant votes for the best player.

Asserted: the final group message names the winner, the winners and every card; no group message
between the deal and the win ties a player to a role, except the card of a player who leaves (shown
as he leaves) and a Commissar's check revealed in his last word (both in the rules).
"""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.handlers.game import CONFIRM
from bot.ui.callbacks import Act
from engine import ForumActions, ForumPhase, GameState, Phase, Role, Team, legal_actions
from engine.forum import team_chat, winners

from .botproc import BotProcess
from .conftest import TIMEOUT, Table, seat_label
from .fake_api import FakeBotAPI
from .model import StoredMessage, unisolated
from .users import SimUser

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000005
TITLE = "Forum night"
PLAYERS = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya", "Kira", "Lev",
           "Mira", "Oleg")
ROLES = "commissar doctor maniac putana journalist sleepwalker werewolf cop"
COP_SECONDS = 10


def plain(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "")


def forum_actions(st: GameState, uid: int | None) -> ForumActions:
    """The forum buttons of ``uid`` (the test fails for nobody or outside a forum game)."""
    assert uid is not None, "nobody to act"
    la = legal_actions(st, uid)
    assert isinstance(la, ForumActions), la
    return la


def versions(message: StoredMessage) -> list[str]:
    return [e.text for e in message.edits if e.text] + [t for t in (message.text, message.caption) if t]


class Forum:
    """The table plus the forum's buttons: each press is checked against the bot's answer."""

    def __init__(self, table: Table) -> None:
        assert table.host is not None, "the forum game has a host"
        self.t = table
        self.host: SimUser = table.host
        self.user = {**table.by_id, table.host.id: table.host}

    async def state(self) -> GameState:
        return await self.t.state()

    async def tap(self, uid: int, chat_id: int, st: GameState, action: str, t: int = 0,
                  s: int | None = None, expect: str | None = "") -> str:
        assert self.t.game_id is not None
        data = Act(g=self.t.game_id, s=st.phase_seq if s is None else s, a=action, t=t).pack()
        answer = await self.t.press(self.user[uid], chat_id, data)
        if expect == "":
            expect = CONFIRM[action]
        if expect is not None:
            assert answer.text == expect, (
                f"{self.user[uid].first_name} pressed {action} ({t}) in {st.phase.value}: "
                f"the bot answered {answer.text!r}")
        return answer.text or ""

    async def changed(self, st: GameState, what: str, timeout: float = TIMEOUT) -> GameState:
        """Wait until the log moves past ``st`` (a timer)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        n = st.phase_seq
        while True:
            new = await self.state()
            if new.phase_seq != n or new.over:
                return new
            if loop.time() > deadline or not self.t.proc.running:
                raise AssertionError(f"the game did not {what} within {timeout} s "
                                     f"({st.phase.value})\n{self.t.proc.log_tail()}")
            await asyncio.sleep(0.1)

    # --- one decision at a time ------------------------------------------------------------------

    async def night_move(self, st: GameState, victim: int | None = None) -> bool:
        """One night press (the first player who holds the night up); False if nobody can act."""
        team = set(team_chat(st))
        if victim is None or not st.is_alive(victim):
            town = [p.user_id for p in st.alive() if p.user_id not in team]
            victim = town[0]
        for p in st.alive_active():
            uid, la = p.user_id, forum_actions(st, p.user_id)
            if la.choose_side:
                side = 2 if p.role is Role.MANIAC else 1
                await self.tap(uid, uid, st, "side", side)
                return True
            if la.night_action == "kill" and p.role is not Role.SLEEPWALKER:
                if st.mafia_picks.get(uid) != victim:
                    await self.tap(uid, uid, st, "kill", st.players[victim].seat)
                    return True
                continue
            if la.compare:
                a, b = la.compare[:2]
                await self.tap(uid, uid, st, "cmp", st.players[a].seat, expect=None)
                await self.tap(uid, uid, st, "cmp", st.players[b].seat, expect="📰")
                return True
            if la.night_action and la.night_action != "kill" and uid not in st.night_actions:
                targets = list(la.night_targets)
                if la.night_action == "block":
                    doctors = [u for u in targets if st.players[u].role is Role.DOCTOR]
                    targets = doctors + targets
                await self.tap(uid, uid, st, la.night_action, st.players[targets[0]].seat)
                return True
            if la.sleep:
                await self.tap(uid, uid, st, "sleep")
                return True
        return False

    async def day(self, st: GameState, target: int | None = None) -> None:
        """DEBATE: everybody ready; BALLOT: everybody votes for ``target`` (a mafioso)."""
        for p in st.alive_active():
            now = await self.state()
            if now.phase is not ForumPhase.DEBATE:
                break
            await self.tap(p.user_id, GROUP, now, "ready")

    async def ballot(self, st: GameState) -> None:
        if st.forum.stage == "host":
            await self.tap(self.host.id, self.host.id, st, "hd", 0)
            return
        mafia = [p.user_id for p in st.alive() if p.team is Team.MAFIA]
        for p in st.alive_active():
            now = await self.state()
            if now.phase is not ForumPhase.BALLOT or now.phase_seq != st.phase_seq:
                return
            la = forum_actions(now, p.user_id)
            if not la.day_vote or la.day_vote_mark is not None:
                continue
            pick = next((m for m in mafia if m in la.day_vote), la.day_vote[0])
            await self.tap(p.user_id, GROUP, now, "vote", now.players[pick].seat)

    async def last_word(self, st: GameState) -> None:
        sp = st.speaker
        assert sp is not None
        la = forum_actions(st, sp)
        if la.reveal_check:
            await self.tap(sp, sp, st, "rchk", st.players[la.reveal_check[0]].seat)
        if la.suspect:
            await self.tap(sp, sp, st, "sus", st.players[la.suspect[0]].seat)
        await self.tap(sp, GROUP, st, "end")

    async def play_on(self, max_steps: int = 400) -> GameState:
        for _ in range(max_steps):
            st = await self.state()
            if st.over:
                return st
            if st.phase in (Phase.NIGHT, ForumPhase.COP_TURN):
                if not await self.night_move(st):
                    await self.changed(st, f"move on from {st.phase.value}")
            elif st.phase is ForumPhase.DEBATE:
                await self.day(st)
            elif st.phase is ForumPhase.BALLOT:
                await self.ballot(st)
            elif st.phase is Phase.LAST_WORD:
                await self.last_word(st)
            elif st.phase is ForumPhase.BONUS_OFFER:
                await self.tap(self.host.id, GROUP, st, "boff")
            elif st.phase is ForumPhase.BEST_PLAYER:
                voter = next(p for p in st.seated() if forum_actions(st, p.user_id).best_player)
                pick = forum_actions(st, voter.user_id).best_player[0]
                await self.tap(voter.user_id, voter.user_id, st, "best", st.players[pick].seat)
            else:
                raise AssertionError(f"the script does not cover {st.phase.value}")
        raise AssertionError("the game did not end")


async def test_forum_game_with_every_role(bot_api: FakeBotAPI, bot_proc: BotProcess, reader) -> None:
    table = Table(bot_api, bot_proc, reader, GROUP, first_user_id=5001, title=TITLE,
                  names=PLAYERS, host_name="Mark")
    _ = table._
    organiser, host = table.users[0], table.host
    assert host is not None
    game = Forum(table)

    # --- the Cop's turn short; a forum lobby with every role; the host and twelve players -------
    panel = plain(_("⚙️ <b>Settings of this chat</b>"))
    await organiser.say(GROUP, f"/settings cop {COP_SECONDS}")
    await table.wait(lambda: any(m.contains(panel) for m in bot_api.messages(GROUP)), "answer /settings")
    lobby = await table.open_lobby(f"/newgame forum {ROLES}")
    await table.become_host()
    url = next(b["url"] for b in lobby.buttons if "start=join_" in (b.get("url") or ""))
    for user in table.users:
        await user.follow_deep_link(url)
        await table.wait_message(user.id, "✅")
    # joins edit the lobby at most once per LIVE_GAP (issue 11): it lists them all within seconds
    await table.wait(lambda: all(f"{n}. {u.first_name}" in unisolated(lobby.text)
                                 for n, u in enumerate(table.users, start=1)),
                     "list every player in the lobby")
    cards = await table.start_game()

    st = await table.state()
    assert st.ruleset == "forum" and st.host == host.id and host.id not in st.players
    assert st.phase is Phase.NIGHT and st.night == 1
    assert st.timings["cop"] == COP_SECONDS
    by_role = {p.role: p.user_id for p in st.seated()}
    assert set(by_role) >= {Role.MANIAC, Role.PUTANA, Role.JOURNALIST, Role.SLEEPWALKER,
                            Role.WEREWOLF, Role.COP, Role.COMMISSAR, Role.DOCTOR, Role.MAFIA,
                            Role.CIVILIAN}
    for p in st.seated():  # each card names his own role
        assert table.role_label(p.role) in (cards[p.user_id].text or ""), cards[p.user_id].text
    lbl = {p.user_id: seat_label(st, p.user_id) for p in st.seated()}

    # --- night 1: sides, everybody sleeps --------------------------------------------------------
    while st.phase is Phase.NIGHT and st.night == 1:
        assert await game.night_move(st), "night 1 waits for nobody"
        st = await table.state()
    assert st.forum.sides.get(by_role[Role.MANIAC]) is Team.MAFIA
    assert st.phase is ForumPhase.DEBATE and st.day == 1, st.phase

    # --- day 1: a warning from the host's console; a mafioso is voted out ------------------------
    await game.tap(host.id, host.id, st, "warn", 1, s=0, expect="❗")
    await table.wait_message(GROUP, _("❗ Warning to {player} ({n}){reason}.").format(
        player=lbl[st.by_seat(1).user_id], n=1, reason="").rstrip("."))
    await game.day(st)
    st = await table.state()
    while st.phase in (ForumPhase.BALLOT, Phase.LAST_WORD):
        await (game.ballot(st) if st.phase is ForumPhase.BALLOT else game.last_word(st))
        st = await table.state()

    # --- night 2: the Cop's timer fires; the Sleepwalker is revealed to the team chat ------------
    assert st.phase is ForumPhase.COP_TURN and st.night == 2, st.phase
    st = await game.changed(st, "end the Cop's turn on its timer", timeout=COP_SECONDS + 10)
    assert st.phase is Phase.NIGHT and st.night == 2, st.phase
    sw = by_role[Role.SLEEPWALKER]
    if st.is_alive(sw) and not st.forum.mafia_blocked:
        for m in [p.user_id for p in st.alive() if p.team is Team.MAFIA]:
            await game.tap(m, m, st, "kill", st.players[sw].seat)
            st = await table.state()
        assert st.forum.revealed == sw
        team = set(team_chat(st))
        seen = plain(_("🌛 {player} is the Sleepwalker! He leaves in the morning; choose again.")
                     .format(player=lbl[sw]))

        def told(uid: int) -> bool:
            return any(seen in t for m in bot_api.messages(uid) for t in versions(m))
        for uid in team - {sw}:
            await table.wait(lambda uid=uid: told(uid), "tell the team chat")
        await bot_api.settle(quiet=1.0, timeout=15)
        assert [u.first_name for u in [*table.users, host] if told(u.id) and u.id not in team - {sw}] == []
        assert not any(seen in t for m in bot_api.messages(GROUP) for t in versions(m))
    final = await game.play_on()

    # --- the end ---------------------------------------------------------------------------------
    assert final.phase is Phase.ENDED and final.winner is not None
    finale = await table.wait_message(GROUP, _("Roles:"))
    await bot_api.settle(quiet=1.5, timeout=20)
    group = bot_api.messages(GROUP)
    assert group[-1] is finale, "the results are the last message in the group"
    head = _("🏆 <b>Town wins!</b>") if final.winner is Team.TOWN else _("🏆 <b>Mafia wins!</b>")
    assert plain(head) in (finale.text or "")
    won = winners(final)
    assert won and _("Winners: {list}").format(list=", ".join(lbl[u] for u in won)) in (finale.text or "")
    for p in final.seated():
        assert f"{lbl[p.user_id]} — {table.role_label(p.role)}" in (finale.text or ""), finale.text
    assert any(plain(_("🏅 Best player: {list}.")).split("{")[0] in (m.text or "") for m in group)

    # No role named in the group from the table to the win, but a leaving player's card.
    assert any(m.contains(_("🎭 Roles are dealt in private messages. Seats are drawn at random."))
               for m in group)
    dealt = next(i for i, m in enumerate(group) if m.message_id == lobby.message_id) + 1
    win = next(i for i, m in enumerate(group) if m.contains(plain(head)))
    card_word = _("Card: {card}.").split("{")[0]
    reveal = _("🔎 {player} reveals his check: {target} is <b>mafia</b>.").split("{")[1].split("}")[1]
    reveal = reveal.split("{")[0].strip()
    leaks = []
    for line in table.role_leaks(group[dealt:win]):
        if reveal and reveal in line:
            continue
        if card_word in line:
            named = [p for p in final.seated()
                     if re.search(re.escape(unisolated(lbl[p.user_id])) + r"\b", unisolated(line))]
            assert named and not named[0].alive, line
            assert table.role_label(named[0].role) in line, line
            continue
        leaks.append(line)
    assert leaks == []
    assert bot_proc.problems() == []
