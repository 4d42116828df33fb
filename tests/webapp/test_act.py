"""Acting from the Mini App (POST /webapp/api/act): the same path as a button press -- the
game's codec, the engine's checks, the log -- with the same answers: the confirmation, "This
button is out of date." for a stale phase, the engine's refusals, the judge's rights."""

from __future__ import annotations

from engine import Phase
from engine.club.state import fouls_of
from tests.bot.harness import GROUP
from tests.bot.helpers import start_game, to_day, to_voting
from tests.fakes.updates import FakeUser

from .support import auth, served

JUDGE = FakeUser(900_000_000_901, "Judge")
ADMIN = FakeUser(900_000_000_902, "Admin")


async def post(client, h, user, game_id, **body) -> dict:
    resp = await client.post("/webapp/api/act", json={"g": game_id, **body},
                             headers=auth(h, user))
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def test_a_vote_from_the_page_is_a_vote(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        await to_day(h)
        st = await to_voting(h)
        voter = next(p for p in st.alive() if p.user_id != st.vote.current)
        seat = st.players[st.vote.current].seat
        before = await h.log_len(game_id)
        stale = await post(client, h, h.user(voter.user_id), game_id, a="vote", t=seat,
                           s=st.phase_seq - 1)
        assert stale == {"ok": False, "text": "This button is out of date."}
        assert await h.log_len(game_id) == before  # nothing stored
        answer = await post(client, h, h.user(voter.user_id), game_id, a="vote", t=seat,
                            s=st.phase_seq)
        assert answer == {"ok": True, "text": "🗳"}
        st = (await h.game()).state
        assert st.vote.votes[voter.user_id] == st.vote.current
        assert await h.log_len(game_id) == before + 1
        again = await post(client, h, h.user(voter.user_id), game_id, a="vote", t=seat,
                           s=st.phase_seq)
        assert again == {"ok": False, "text": "You have already voted in this round."}
        assert any(f"№{voter.seat}" in t for t in h.texts(GROUP)[-2:])  # the group's vote message


async def test_forged_presses_get_the_buttons_answers(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await to_day(h)
        u = h.user(st.speaker)
        before = await h.log_len(game_id)
        assert (await post(client, h, u, game_id, a="nom", t=99, s=st.phase_seq))["text"] \
            == "You can't choose that player now."
        assert (await post(client, h, u, game_id, a="zzz"))["text"] \
            == "This button is out of date."  # a code no button carries
        assert (await post(client, h, u, game_id, a="vote", t="x"))["text"] \
            == "This button is out of date."
        assert (await post(client, h, u, game_id, a="x" * 100))["text"] \
            == "This button is out of date."
        assert await h.log_len(game_id) == before
        resp = await client.post("/webapp/api/act", data=b"{", headers=auth(h, u))
        assert resp.status == 400


async def test_the_speaker_ends_his_speech_and_anyone_pauses(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await to_day(h)
        speaker = st.speaker
        assert await post(client, h, h.user(speaker), game_id, a="end", s=st.phase_seq) == \
            {"ok": True, "text": "⏹"}
        assert (await h.game()).state.speaker != speaker
        other = h.users[0]
        assert (await post(client, h, other, game_id, a="pause"))["text"] == "⏸"
        assert (await h.game()).state.pause is not None
        assert (await post(client, h, other, game_id, a="resume"))["text"] == "▶️"
        assert (await h.game()).state.pause is None


async def club_with_judge(h, host: FakeUser | None):
    await h.command(h.users[0], "/newgame club")
    g = await h.game()
    if host is not None:
        h.session.register_user(host)
        await h.dm(host, f"/start host_{g.id}")
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    return g.id


async def test_the_judge_fouls_from_his_console_and_a_player_cannot(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        st = (await h.game()).state
        target = st.seated()[2]
        player = h.user(st.seated()[0].user_id)
        refused = await post(client, h, player, game_id, a="foul", t=target.seat)
        assert refused["ok"] is False and fouls_of((await h.game()).state, target.user_id) == 0
        tools = (await (await client.get("/webapp/api/table", params={"g": str(game_id)},
                                         headers=auth(h, JUDGE))).json())["buttons"]
        assert {"a": "foul", "t": target.seat, "label": f"⚠️ №{target.seat}", "icon": "⚠️",
                "kind": "judge", "s": 0,
                "title": f"Foul: №{target.seat} {target.name}"} in tools
        dq = next(b for b in tools if b["a"] == "dq" and b["t"] == target.seat)
        assert dq["title"] == f"Disqualify: №{target.seat} {target.name}"
        assert dq["confirm"].startswith(f"Disqualify №{target.seat} {target.name}?")
        assert await post(client, h, JUDGE, game_id, a="foul", t=target.seat) == \
            {"ok": True, "text": "⚠️"}
        st = (await h.game()).state
        assert fouls_of(st, target.user_id) == 1
        assert any("Foul to" in t for t in h.texts(GROUP))
        table = (await (await client.get("/webapp/api/table", params={"g": str(game_id)},
                                          headers=auth(h, player))).json())["table"]
        assert next(p for p in table["players"] if p["seat"] == target.seat)["fouls"] == 1
        assert await post(client, h, JUDGE, game_id, a="unfoul", t=target.seat) == \
            {"ok": True, "text": "↩️"}
        assert fouls_of((await h.game()).state, target.user_id) == 0
        assert await post(client, h, JUDGE, game_id, a="dq", t=target.seat) == \
            {"ok": True, "text": "🟥"}
        assert not (await h.game()).state.players[target.user_id].alive


async def test_without_a_host_a_group_admin_judges_and_takes_a_nomination_back(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, None)
        h.session.register_user(ADMIN)
        h.session.set_member(GROUP, ADMIN.id, "administrator")
        from tests.bot.helpers import drive_until

        st = await drive_until(h, lambda s: s.phase is Phase.SPEECH and not s.nominations
                               and s.speaker is not None, seed=1)
        target = next(p for p in st.alive() if p.user_id != st.speaker)
        assert (await post(client, h, h.user(st.speaker), game_id, a="nom", t=target.seat,
                           s=st.phase_seq))["text"] == "🎯"
        assert (await h.game()).state.nominations == [target.user_id]
        player = h.user(next(p for p in st.alive() if p.user_id != st.speaker).user_id)
        assert await post(client, h, player, game_id, a="unnom", t=target.seat) == \
            {"ok": False, "text": "Only the host or a group admin can give fouls."}
        data = await (await client.get("/webapp/api/table", params={"g": str(game_id)},
                                       headers=auth(h, ADMIN))).json()
        assert data["viewer"] == {"kind": "onlooker", "judge": True}
        assert any(b["a"] == "unnom" and b["t"] == target.seat for b in data["buttons"])
        assert all("role" not in p for p in data["table"]["players"])  # a judge, not a host
        assert (await post(client, h, ADMIN, game_id, a="unnom", t=target.seat))["ok"]
        assert (await h.game()).state.nominations == []


async def test_the_judge_sees_the_timings_read_only_and_a_player_does_not(sqlite_url):
    """The judge's console shows the game's timings and the running timer (docs/miniapp.md);
    a running turn's clock is moved with the console's buttons (+30 s, restart, end turn:
    tests/webapp/test_judge_clock.py), the timings themselves by no tool."""
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        st = (await h.game()).state

        async def table(user) -> dict:
            return await (await client.get("/webapp/api/table", params={"g": str(game_id)},
                                           headers=auth(h, user))).json()

        judge = await table(JUDGE)
        assert f"speech {st.timings['speech']} s" in judge["timings"]["all"]
        assert judge["timings"]["current"] == f"mafia meeting {st.timer.seconds} s"
        assert judge["texts"]["timings"] == "Timings"
        assert not {b["a"] for b in judge["buttons"]} & {"time", "timer", "addtime"}
        assert "timings" not in await table(h.user(st.seated()[0].user_id))


async def test_CLUB_38_the_pages_foul_button_asks_before_the_fourth_foul(sqlite_url):
    """Issue 21: the fourth foul removes the player (CLUB-38), so the page asks first (the
    button carries ``confirm``, as a disqualification's does); fewer fouls: one tap."""
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h, JUDGE)
        target = (await h.game()).state.seated()[2]

        async def foul_button() -> dict:
            tools = (await (await client.get("/webapp/api/table", params={"g": str(game_id)},
                                             headers=auth(h, JUDGE))).json())["buttons"]
            return next(b for b in tools if b["a"] == "foul" and b["t"] == target.seat)

        for _ in range(3):
            assert "confirm" not in await foul_button()
            assert await post(client, h, JUDGE, game_id, a="foul", t=target.seat) == \
                {"ok": True, "text": "⚠️"}
        assert (await foul_button())["confirm"] == (
            f"⚠️ Fourth foul to №{target.seat} {target.name}? He leaves the game at once, "
            "without a last word.")
        assert await post(client, h, JUDGE, game_id, a="foul", t=target.seat) == \
            {"ok": True, "text": "⚠️"}
        assert not (await h.game()).state.players[target.user_id].alive
        gone = await foul_button()
        assert gone.get("disabled") is True and "confirm" not in gone
