"""What the table tells as it happens (issue 20): the judge sees the Don's and the Sheriff's
checks the moment they are made, with their night (CLUB-31..33: the checkers hear at dawn); an
eliminated player is told how he left; the page shows the morning's result."""

from __future__ import annotations

from pathlib import Path

from engine import Phase, Role, legal_actions
from tests.bot.helpers import drive_until, start_game
from tests.fakes.updates import FakeUser

from .support import auth, served

JUDGE = FakeUser(900_000_000_901, "Judge")


async def table_of(client, h, user, game_id) -> dict:
    resp = await client.get("/webapp/api/table", params={"g": str(game_id)},
                            headers=auth(h, user))
    assert resp.status == 200
    return (await resp.json())["table"]


async def club_with_judge(h) -> int:
    h.session.register_user(JUDGE)
    await h.command(h.users[0], "/newgame club")
    g = await h.game()
    await h.dm(JUDGE, f"/start host_{g.id}")
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    return g.id


def checking(role: Role, action: str):
    def done(st) -> bool:
        p = next((p for p in st.alive() if p.role is role), None)
        la = legal_actions(st, p.user_id) if p is not None else None
        return st.phase is Phase.NIGHT and la is not None \
            and action in (la.night_action, la.night_extra)  # the Don: kill, then his check
    return done


async def test_CLUB_33_the_judge_sees_the_checks_as_they_are_made_with_their_night(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await club_with_judge(h)
        for role, action, code, kind in ((Role.SHERIFF, "sheriff_check", "scheck", "mafia"),
                                         (Role.DON, "don_check", "dcheck", "sheriff")):
            st = await drive_until(h, checking(role, action), seed=2)
            checker = next(p for p in st.alive() if p.role is role)
            la = legal_actions(st, checker.user_id)
            targets = la.night_targets if la.night_action == action else la.night_extra_targets
            target = st.players[sorted(targets)[0]]
            resp = await client.post("/webapp/api/act", headers=auth(h, h.user(checker.user_id)),
                                     json={"g": game_id, "a": code, "t": target.seat,
                                           "s": st.phase_seq})
            assert (await resp.json())["ok"] is True
            st = (await h.game()).state
            assert st.phase is Phase.NIGHT  # before dawn
            result = (target.role is Role.SHERIFF if kind == "sheriff"
                      else target.team.value == "mafia")
            judge = await table_of(client, h, JUDGE, game_id)
            assert {"checker": checker.seat, "target": target.seat, "kind": kind,
                    "result": result, "night": st.night} in judge["checks"]
            own = await table_of(client, h, h.user(checker.user_id), game_id)
            assert not any(c["night"] == st.night for c in own["checks"])  # he hears at dawn


async def test_an_eliminated_player_is_told_how_he_left_and_everyone_sees_the_morning(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await drive_until(h, lambda s: s.phase is Phase.SPEECH and s.day >= 2
                               and any(not p.alive for p in s.seated()), seed=4)
        for p in (p for p in st.seated() if not p.alive):
            table = await table_of(client, h, h.user(p.user_id), game_id)
            assert table["me"]["alive"] is False and table["me"]["left"] in ("killed", "voted")
        killed = [p for p in st.seated() if not p.alive]
        table = await table_of(client, h, h.users[0], game_id)
        morning = table["morning"]
        assert morning is not None and morning["night"] == st.night
        if morning["killed"] is not None:
            victim = st.by_seat(morning["killed"])
            assert victim in killed
            row = next(r for r in table["players"] if r["seat"] == victim.seat)
            assert row["left"] == "killed"


async def test_the_first_morning_says_the_mafia_only_met(sqlite_url):
    """Fresh trial of issue 20: after night 1 (the meeting: no shot possible) the page's morning
    says so, not "Nobody was killed at night" (app.js picks ``morning_met`` for night 1)."""
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await drive_until(h, lambda s: s.phase is Phase.SPEECH and s.day == 1, seed=4)
        resp = await client.get("/webapp/api/table", params={"g": str(game_id)},
                                headers=auth(h, h.users[0]))
        body = await resp.json()
        assert body["table"]["morning"]["night"] == st.night == 1
        assert body["texts"]["morning_met"] == "On the first night the mafia only met: nobody was shot."
    js = (Path(__file__).parents[2] / "bot/webapp/static/app.js").read_text(encoding="utf-8")
    assert 'm.night <= 1 ? T("morning_met")' in js
