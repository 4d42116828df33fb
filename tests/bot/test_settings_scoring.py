"""/settings scoring (issue 21; docs/rules/scoring.md SCORE-X20..X23): a group picks a named
system or sets its own figures, a bad figure is refused by name and range, only group admins
change it, the settings panel offers FIIM / Plain, and a game keeps the system stamped at its
/newgame."""

from __future__ import annotations

from bot.ui.callbacks import Cfg
from bot.ui.scoring import chat_system
from engine.scoring import FIIM, PLAIN, system_from_settings
from tests.bot.harness import GROUP, Harness, make_harness
from tests.fakes.telegram import plain_text


def last(h: Harness) -> str:
    return h.sent_texts(GROUP, ("sendMessage",))[-1]


async def stored(h: Harness) -> dict:
    return dict((await h.app.storage.get_chat_settings(GROUP)).data)


async def test_SCORE_X20_X21_a_group_sets_its_system_and_a_bad_figure_is_named(h: Harness):
    admin = h.users[0]
    h.session.set_member(GROUP, admin.id, "administrator")
    await h.command(h.users[3], "/settings scoring")  # anyone may look: FIIM by default
    shown = last(h)
    assert "Scoring of club and online games: FIIM" in shown
    assert "The best move, by 0/1/2/3 blacks named: 0 / 0 / 0.25 / 0.5" in shown
    assert "The judge's additional points: 0 … 0.7, step 0.1" in shown
    assert "Penalties: disqualification −0.5 · fourth foul −0.5" in shown  # a true minus

    await h.command(admin, "/settings scoring plain")
    assert last(h).startswith("✅ 📋 Scoring of club and online games: Plain (a win = 1)")
    assert (await stored(h))["scoring"] == PLAIN.to_settings()

    await h.command(admin, "/settings scoring ФИИМ")  # the Russian screens' name of it
    assert (await stored(h))["scoring"] == FIIM.to_settings()
    await h.command(admin, "/settings scoring win 2")
    assert "Own figures" in last(h) and "A win: 2" in last(h)
    await h.command(admin, "/settings scoring best_move 0 0,1 0.3 0.6")  # a decimal comma
    system = system_from_settings((await stored(h))["scoring"])
    assert system.name == "custom" and system.win == 2.0
    assert system.best_move == (0.0, 0.1, 0.3, 0.6) and system.disqualification == -0.5
    figures = (await stored(h))["scoring"]

    refusals = {
        "/settings scoring win 20":
            "❌ A win (win): 20 is out of range. Allowed: a number from 0 to 10. Nothing changed.",
        "/settings scoring disqualification 0.5":
            "❌ Leaving by disqualification (disqualification): 0.5 is out of range. Allowed: a "
            "number from -10 to 0. Nothing changed.",
        "/settings scoring win lots":
            "❌ A win (win): «lots» is not a number. Allowed: a number from 0 to 10. Nothing "
            "changed.",
        "/settings scoring best_move 0 0.5 0.25 1":
            "❌ The best move (best_move): the points must not decrease from 0 to 3 blacks.",
        "/settings scoring best_move 0 1":
            "❌ The best move (best_move): four numbers are needed",
        "/settings scoring additional_step 0.3":
            "❌ The step of additional points (additional_step): the step does not divide",
        "/settings scoring colour 3": "❌ Scoring (scoring): there is no figure «colour». Allowed: "
                                      "one of win, best_move,",
        "/settings scoring elo": "❌ The scoring system (base): there is no system «elo». "
                                 "Allowed: fiim or plain.",
        # trial21: a figure without its value was answered "there is no system «win»"
        "/settings scoring win": "❌ A win (win): «» is not a number. Allowed: a number from 0 to 10.",
        "/settings scoring best_move": "❌ The best move (best_move): four numbers are needed",
    }
    for command, answer in refusals.items():
        await h.command(admin, command)
        assert last(h).startswith(answer), (command, last(h))
    assert (await stored(h))["scoring"] == figures  # nothing changed


async def test_SCORE_X23_only_group_admins_change_it(h: Harness):
    organiser, admin = h.users[0], h.users[1]
    h.session.set_member(GROUP, admin.id, "administrator")
    await h.command(organiser, "/newgame club")  # the lobby's organiser is not enough
    await h.command(organiser, "/settings scoring plain")
    assert last(h) == "Only a group admin can do that."
    assert "scoring" not in await stored(h)

    await h.command(admin, "/settings")
    panel = h.messages(GROUP)[-1]
    assert "Scoring of club and online games: FIIM (/settings scoring)" in panel["text"]
    labels = [b["text"] for row in panel["reply_markup"]["inline_keyboard"] for b in row]
    assert "✅ FIIM" in labels and "📋 Plain" in labels
    mid = panel["message_id"]
    assert await h.press(organiser, GROUP, mid, Cfg(a="score", v="plain").pack()) == \
        "Only a group admin can do that."
    assert "scoring" not in await stored(h)
    assert await h.press(admin, GROUP, mid, Cfg(a="score", v="plain").pack()) == "✅"
    assert chat_system(await stored(h)) == PLAIN
    assert "Scoring of club and online games: Plain (a win = 1)" in \
        plain_text(h.message(GROUP, mid)["text"])
    assert await h.press(admin, GROUP, mid, Cfg(a="score", v="elo").pack()) == \
        "This button is out of date."


async def test_SCORE_X22_a_game_keeps_the_system_of_its_newgame(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/settings scoring win 2")
        await h.command(admin, "/newgame club")
        g = await h.game()
        assert system_from_settings(g.state.settings["scoring"]).win == 2.0
        assert "Scoring: Own figures" in h.message(GROUP, g.ui["lobby"])["text"]
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(admin, "/startgame")
        await h.command(admin, "/settings scoring plain")  # changed while the game runs
        st = (await h.game()).state
        assert not st.over and system_from_settings(st.settings["scoring"]).win == 2.0
        log = await h.app.storage.load_log(g.id)
        assert log[0]["settings"]["scoring"]["win"] == 2.0  # in the log: a replay scores alike
        await h.command(admin, "/cancel")

        await h.command(admin, "/newgame online")
        g = await h.game()
        assert chat_system(g.state.settings) == PLAIN
        assert "Scoring: Plain (a win = 1)" in h.message(GROUP, g.ui["lobby"])["text"]
        await h.command(admin, "/cancel")
        await h.command(admin, "/newgame")  # a party game is not scored
        g = await h.game()
        assert "scoring" not in g.state.settings
        assert "Scoring" not in h.message(GROUP, g.ui["lobby"])["text"]
    finally:
        await h.stop()


def test_SCORE_X20_a_chat_without_a_system_or_with_a_broken_one_scores_fiim():
    assert chat_system({}) == FIIM and chat_system(None) == FIIM
    assert chat_system({"scoring": {"win": 99}}) == FIIM
    assert chat_system({"scoring": PLAIN.to_settings()}) == PLAIN
