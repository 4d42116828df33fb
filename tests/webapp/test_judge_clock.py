"""The judge's clock and Undo from the Mini App (issue 21 part 5; CLUB-X16..X20, CLUB-X17):
the console's buttons are always there (disabled where they do not apply: nothing moves),
destructive ones carry the page's question, a press runs the same codec and engine as the
group console's, a stale or a stranger's press is refused; the record per seat and today's
protocol are public and name no role (issue 21 part 6)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.ui.texts import ROLE_NAMES
from engine import Phase
from engine.club.state import fouls_of
from tests.bot.harness import GROUP
from tests.bot.test_judge_console import drive

from .support import auth, served
from .test_act import JUDGE, club_with_judge, post

CLOCK = ["add", "rst", "endt", "undo"]


async def table(client, h, user, game_id) -> dict:
    return await (await client.get("/webapp/api/table", params={"g": str(game_id)},
                                   headers=auth(h, user))).json()


def clock(data: dict) -> list[dict]:
    return [b for b in data["buttons"] if b.get("clock")]


async def test_CLUB_X18_X19_X20_bot_layer_the_clock_from_the_page(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        night = await table(client, h, JUDGE, game_id)  # the mafia's meeting: no turn
        assert [b["a"] for b in clock(night)] == CLOCK
        assert all(b["disabled"] for b in clock(night))  # there, but disabled
        assert (await post(client, h, JUDGE, game_id, a="add"))["text"] == \
            "No speech, defence or last word is running now."
        st = await drive(h, lambda s: s.phase is Phase.SPEECH and s.timer.kind == "speech")
        data = await table(client, h, JUDGE, game_id)
        buttons = {b["a"]: b for b in clock(data)}
        assert [b["a"] for b in clock(data)] == CLOCK
        assert not buttons["add"]["disabled"] and not buttons["endt"]["disabled"]
        assert buttons["undo"]["disabled"]  # nothing to take back yet
        speaker = st.players[st.speaker]
        assert buttons["endt"]["confirm"] == f"End the turn of №{speaker.seat} now?"
        assert buttons["rst"]["s"] == buttons["endt"]["s"] == st.phase_seq
        assert "confirm" not in buttons["add"]
        seq, at = h.deadlines.pending[game_id]
        assert await post(client, h, JUDGE, game_id, a="add") == {"ok": True, "text": "⏱"}
        new_seq, new_at = h.deadlines.pending[game_id]
        assert new_seq != seq and new_at == at + timedelta(seconds=30)
        data = await table(client, h, JUDGE, game_id)
        assert data["deadline"] == new_at.timestamp()  # the page's clock follows
        # a confirmation for another turn is out of date; the right one ends it
        stale = await post(client, h, JUDGE, game_id, a="endt", s=st.phase_seq - 1)
        assert stale == {"ok": False, "text": "This button is out of date."}
        assert await post(client, h, JUDGE, game_id, a="endt", s=st.phase_seq) == \
            {"ok": True, "text": "⏭"}
        assert (await h.game()).state.speaker != speaker.user_id


async def test_CLUB_X16_bot_layer_undo_from_the_page_and_a_player_cannot(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        st = (await h.game()).state
        target = st.seated()[4]
        player = h.user(st.seated()[0].user_id)
        assert await post(client, h, JUDGE, game_id, a="foul", t=target.seat) == \
            {"ok": True, "text": "⚠️"}
        undo = next(b for b in clock(await table(client, h, JUDGE, game_id)) if b["a"] == "undo")
        assert not undo["disabled"] and undo["confirm"].startswith("Take back your last action")
        for code in ("undo", "add", "endt", "pl"):
            answer = await post(client, h, player, game_id, a=code, t=target.seat if code == "pl"
                                 else 0)
            assert answer == {"ok": False, "text": "Only the judge can do that."}, code
        assert await post(client, h, JUDGE, game_id, a="undo") == {"ok": True, "text": "↩️"}
        assert fouls_of((await h.game()).state, target.user_id) == 0
        assert any("takes back the foul" in t for t in h.texts(GROUP))
        again = await post(client, h, JUDGE, game_id, a="undo")
        assert again["ok"] is False and again["text"].startswith("Nothing to take back")


async def test_CLUB_X17_bot_layer_a_procedural_loss_asks_first_and_ends_the_game(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        st = (await h.game()).state
        target = st.seated()[1]
        pl = next(b for b in (await table(client, h, JUDGE, game_id))["buttons"]
                  if b["a"] == "pl" and b["t"] == target.seat)
        assert pl["confirm"].startswith(f"A procedural loss for the team of №{target.seat} "
                                        f"{target.name}?")
        assert await post(client, h, JUDGE, game_id, a="pl", t=target.seat) == \
            {"ok": True, "text": "🏳"}
        end = (await h.service.live(game_id)).state
        assert any(t.startswith(f"🏳 Procedural loss: the judge rules the breach of №{target.seat}")
                   for t in h.texts(GROUP))
        assert end.over and end.winner is not None and end.winner is not target.team


async def test_the_record_is_public_and_names_no_role_but_for_the_judge(sqlite_url):
    """Issue 21 part 6: nominated by, votes, how and when a seat left, today's protocol --
    for everybody; the roles only in the judge's (the host's) view."""
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        st = await drive(h, lambda s: s.day >= 2 and s.phase is Phase.SPEECH and s.nominations)
        player = h.user(next(p for p in st.alive()).user_id)
        judge, mine, other = (await table(client, h, JUDGE, game_id),
                                 await table(client, h, player, game_id),
                                 await table(client, h, h.users[0], game_id))
        assert all("role" in p for p in judge["table"]["players"])
        target = st.players[st.nominations[0]]
        for data in (judge, mine, other):
            t = data["table"]
            row = next(p for p in t["players"] if p["seat"] == target.seat)
            assert row["nominated_by"] == st.players[st.nominated_by[target.user_id]].seat
            gone = [p for p in t["players"] if not p["alive"]]
            assert gone and all(p["left_when"]["kind"] in ("night", "day") for p in gone)
            assert t["protocol"]["title"] == f"Day {st.day}" and t["protocol"]["lines"]
            words = " ".join(t["protocol"]["lines"])
            assert not any(ROLE_NAMES[r] in words for r in ROLE_NAMES)
            if data is not judge:  # redaction: nobody's role but his own
                me = data["viewer"]["kind"] == "player"
                assert all("role" not in p for p in t["players"] if not (me and p["me"]))
        assert "fouls_legend" in mine["texts"]


@pytest.mark.parametrize("preset", ["party", "online", "forum"])
async def test_ONLINE_X16_bot_layer_no_judges_clock_where_the_engine_has_none(sqlite_url, preset):
    """Only the club's judge has the clock, Undo and the procedural loss (ONLINE-X16: online
    refuses them; party and forum hosts have their own tools): no such button on the host's
    page, and a forged press changes nothing."""
    async with served(sqlite_url, n_users=10) as (h, client):
        await h.command(h.users[0], f"/newgame {preset}")
        g = await h.game()
        h.session.register_user(JUDGE)
        await h.dm(JUDGE, f"/start host_{g.id}")
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(h.users[0], "/startgame")
        st = (await h.game()).state
        assert st.phase is not Phase.LOBBY and st.host == JUDGE.id
        data = await table(client, h, JUDGE, g.id)
        assert not {b["a"] for b in data["buttons"]} & {*CLOCK, "pl"}
        for code in (*CLOCK, "pl"):
            answer = await post(client, h, JUDGE, g.id, a=code, t=1)
            assert answer["ok"] is False, (code, answer)
        assert (await h.game()).state.commands == st.commands
