"""No table leaks a role: whole party, club and online games played by the driver, and
after every step every seated player's table (as the server builds it for him) shows a role or a
team only for himself, for his own team once it met (the mafia), and for everyone after the end
(the public GameEnded) -- the per-audience filtering of bot/webapp/log.py and the games' views."""

from __future__ import annotations

import random

import pytest

from engine import Team
from tests.bot.driver import step
from tests.bot.helpers import start_game

from .support import served


async def check_every_table(h, game_id: int) -> None:
    g = await h.service.live(game_id)
    st = g.state
    for p in st.seated():
        viewer = await h.app.webapp.viewer(g, p.user_id)
        table = (await h.app.webapp.table(g, viewer))["table"]
        for row in table["players"]:
            if "role" not in row and "team" not in row:
                continue
            other = st.by_seat(row["seat"])
            if st.over:
                continue  # GameEnded is public: every role
            assert viewer.kind == "player", (p.seat, row)
            assert other.user_id == p.user_id or (
                p.team is Team.MAFIA and other.team is Team.MAFIA), (p.seat, row)
            if "role" in row and other.user_id != p.user_id:
                assert row["role"]["id"] == other.role.value


@pytest.mark.parametrize("preset, players", [("party", 7), ("club", 10), ("online", 10)])
async def test_no_table_shows_a_role_its_viewer_was_not_told(sqlite_url, preset, players):
    async with served(sqlite_url, n_users=players) as (h, _client):
        if preset == "party":
            game_id = await start_game(h)
        else:
            await h.command(h.users[0], f"/newgame {preset}")
            game_id = (await h.game()).id
            for u in h.users:
                await h.dm(u, f"/start join_{game_id}")
            await h.command(h.users[0], "/startgame")
        rng = random.Random(11)
        steps = 0
        while await step(h, rng):
            steps += 1
            await check_every_table(h, game_id)
            assert steps < 3000
        await check_every_table(h, game_id)
        assert (await h.service.live(game_id)).state.over
