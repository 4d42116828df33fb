"""The Mini App for the other presets: the online preset's open ballot and its taps from the
page (ONLINE-16..20), the forum's table (docs/miniapp.md)."""

from __future__ import annotations

import pytest

from engine import OnlinePhase, Phase
from tests.bot.helpers import drive_until

from .support import auth, served


async def table_of(client, h, user, game_id) -> dict:
    resp = await client.get("/webapp/api/table", params={"g": str(game_id)},
                            headers=auth(h, user))
    assert resp.status == 200
    return await resp.json()


async def open_game(h, preset: str) -> int:
    await h.command(h.users[0], f"/newgame {preset}")
    g = await h.game()
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    return g.id


async def test_ONLINE_a_ballot_tap_from_the_page_shows_on_everyones_table(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await open_game(h, "online")
        st = await drive_until(h, lambda s: s.phase is OnlinePhase.DISCUSSION, seed=2)
        voter = st.alive()[0]
        target = st.alive()[1]
        data = await table_of(client, h, h.user(voter.user_id), game_id)
        taps = [b for b in data["buttons"] if b["a"] == "tv"]
        assert {b["t"] for b in taps} == {p.seat for p in st.alive()} | {0}  # + PASS
        resp = await client.post("/webapp/api/act", headers=auth(h, h.user(voter.user_id)),
                                 json={"g": game_id, "a": "tv", "t": target.seat,
                                       "s": st.phase_seq})
        assert (await resp.json()) == {"ok": True, "text": "🗳"}
        other = h.user(st.alive()[2].user_id)
        ballot = (await table_of(client, h, other, game_id))["table"]["ballot"]
        assert ballot["stage"] == "day"
        assert ballot["taps"] == [{"voter": voter.seat, "choice": target.seat, "final": False}]


async def test_FORUM_the_table_hides_the_roles_and_offers_the_shared_buttons(sqlite_url):
    async with served(sqlite_url, n_users=8) as (h, client):
        game_id = await open_game(h, "forum")
        st = (await h.game()).state
        assert st.phase is not Phase.LOBBY
        for p in st.seated():
            data = await table_of(client, h, h.user(p.user_id), game_id)
            for row in data["table"]["players"]:
                if row["seat"] != p.seat:
                    assert "role" not in row, row
            assert data["table"]["me"]["role"]["id"] == p.role.value


async def test_FORUM_37_the_sleepwalker_sees_the_mafiosi_and_stays_town(sqlite_url):
    from engine import Role, Team

    async with served(sqlite_url, n_users=10) as (h, client):
        await h.command(h.users[0], "/newgame forum sleepwalker")
        g = await h.game()
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(h.users[0], "/startgame")
        st = (await h.game()).state
        walker = next((p for p in st.seated() if p.role is Role.SLEEPWALKER), None)
        if walker is None:
            pytest.skip("this deal has no Sleepwalker")
        mafia = {p.seat for p in st.seated() if p.role is Role.MAFIA}
        t = (await table_of(client, h, h.user(walker.user_id), g.id))["table"]
        assert t["me"]["role"]["id"] == "sleepwalker"
        teams = {p["seat"]: p["team"]["id"] for p in t["players"] if "team" in p}
        assert teams == {walker.seat: Team.TOWN.value, **{s: "mafia" for s in mafia}}
        assert all("role" not in p for p in t["players"] if p["seat"] != walker.seat)


async def test_FORUM_56_the_bonus_round_form_from_the_page(sqlite_url):
    """FORUM-56, Q23: the host starts the bonus round from the page; a player fills his form
    there (``bg`` cycles a survivor's role, the same draft as his DM form) and sends it
    (``bgs``); a stale tap is out of date."""
    from engine import ForumPhase, Role
    from tests.bot.test_forum import _finish, open_forum

    async with served(sqlite_url, n_users=13) as (h, client):
        players, host = h.users[:10], h.users[12]
        game_id = await open_forum(h, "", players, host)
        await h.command(players[0], "/startgame")
        st = (await h.game()).state
        mafia = [p.user_id for p in st.seated() if p.role is Role.MAFIA]
        await _finish(h, mafia, until=lambda s: s.phase is ForumPhase.BONUS_OFFER)
        st = (await h.game()).state
        assert st.phase is ForumPhase.BONUS_OFFER
        data = await table_of(client, h, host, game_id)
        start = next(b for b in data["buttons"] if b["a"] == "bon")
        resp = await client.post("/webapp/api/act", headers=auth(h, host),
                                 json={"g": game_id, "a": "bon", "t": 0, "s": start["s"]})
        assert (await resp.json())["ok"]
        st = (await h.game()).state
        assert st.phase is ForumPhase.BONUS
        from engine import legal_actions
        guesser = next(p for p in st.seated() if legal_actions(st, p.user_id).bonus_guess)
        user = h.user(guesser.user_id)
        data = await table_of(client, h, user, game_id)
        form = [b for b in data["buttons"] if b["a"] == "bg"]
        la = legal_actions(st, guesser.user_id)
        assert {b["t"] for b in form} == {st.players[t].seat for t in la.bonus_guess}
        assert all(b["label"].endswith("❔") for b in form)
        assert {b["a"] for b in data["buttons"]} >= {"bgs", "bgx"}
        first = form[0]

        async def tap(a, t=0, s=None):
            resp = await client.post("/webapp/api/act", headers=auth(h, user), json={
                "g": game_id, "a": a, "t": t, "s": st.phase_seq if s is None else s})
            return await resp.json()

        assert await tap("bg", first["t"]) == {"ok": True, "text": "🎲"}
        data = await table_of(client, h, user, game_id)
        label = next(b["label"] for b in data["buttons"] if b["a"] == "bg"
                     and b["t"] == first["t"])
        role = la.bonus_roles[0]
        from bot.ui.texts import ROLE_NAMES
        assert label.endswith(ROLE_NAMES[role]) and "❔" not in label
        assert (await tap("bgs", s=st.phase_seq - 1))["text"] == "This button is out of date."
        assert await tap("bgs") == {"ok": True, "text": "📨"}
        st = (await h.game()).state
        guesses = dict(st.forum.guesses[guesser.user_id])
        assert guesses == {st.by_seat(first["t"]).user_id: role}
