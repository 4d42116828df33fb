"""Issue 20's NOIR items through the bot: the identity card names cells (NOIR-03), the chain
prompt (X15), the picker's names and cells (Q22), the pinned board (NOIR-42), a stale timeout
kept out of the log (X19)."""

from __future__ import annotations

import asyncio

from aiogram.methods import PinChatMessage, UnpinChatMessage

from bot.games.noir import board, menus, picker
from bot.games.noir.names import SUSPECTS
from bot.ui.i18n import Translator
from engine.noir import TABLES, Role, cell_name, legal_actions, positions
from tests.bot import noir_driver as nd
from tests.bot.harness import GROUP, Harness
from tests.engine.noir.helpers import G, sid
from tests.fakes.telegram import plain_text


async def _start(h: Harness, n: int = 6) -> int:
    gid = await nd.open_lobby(h, n)
    await nd.press_start(h)
    await h.app.sender.drain()
    return gid


async def test_NOIR_03_the_identity_card_names_each_suspect_with_his_cell(h: Harness):
    gid = await _start(h)
    st = (await h.service.live(gid)).state
    at = positions(st)
    for uid in st.order:
        cards = [plain_text(t) for t in h.sent_texts(uid) if "Your role:" in t]
        assert cards, uid
        me, card = st.players[uid], cards[-1]
        assert me.identity is not None
        assert f"You are {SUSPECTS[me.identity]} ({cell_name(*at[me.identity])})." in card, card
        mates = [p for p in st.players.values() if p is not me and p.team == me.team]
        assert mates
        for mate in mates:
            s = mate.identity
            assert f"is {SUSPECTS[s]} ({cell_name(*at[s])})." in card, card


def _det_view(g, d: dict) -> tuple[str, list[str]]:
    text, markup = menus.view(lambda s: s, g.st, g.u(Role.BOMBER), {"k": "det", **d}, 1)
    assert markup is not None
    return text, [b.text for row in markup.inline_keyboard for b in row]


def test_NOIR_X15_the_chain_prompt_offers_detonate_only_with_its_button():
    g = G(6)
    g.turn_to(Role.BOMBER)
    bomb, linked, plain = sid("C3"), sid("D3"), sid("B2")
    g.st.bombs.update({bomb, linked})
    text, buttons = _det_view(g, {"b": bomb})  # a neighbour is open: the blast must take one
    assert "Pick the neighbour the blast takes." in text
    assert "«Detonate»" not in text and "💥 Detonate" not in buttons
    text, buttons = _det_view(g, {"b": bomb, "c": [linked]})  # a bomb on the link: it may go on
    assert "Pick the next suspect the blast takes, or «Detonate»." in text
    assert "💥 Detonate" in buttons
    text, buttons = _det_view(g, {"b": bomb, "c": [plain]})  # no bomb on the link: it stops
    assert "It goes no further: press «Detonate»." in text and "Pick" not in text
    assert "💥 Detonate" in buttons


async def test_NOIR_X19_a_stale_timeout_is_neither_stored_nor_counted(h: Harness):
    gid = await _start(h)
    seq = (await h.service.live(gid)).state.timer.seq
    await h.app.sender.drain()  # BOT-X01: a deadline fires once its messages have left
    await h.service.visible.settle()
    await h.service.on_deadline(gid, seq)  # the running timer: the turn passes, one command
    st = (await h.service.live(gid)).state
    logged = await h.log_len(gid)
    assert st.timer.seq != seq and logged == st.commands
    await h.service.on_deadline(gid, seq)  # its deadline again: stale
    later = (await h.service.live(gid)).state
    assert await h.log_len(gid) == logged and later.commands == st.commands
    assert (later.current, later.turn_seq, later.timer) == (st.current, st.turn_seq, st.timer)


def _pins(h: Harness, method: str = "pinChatMessage") -> list[int | None]:
    """The message ids of the group's successful ``method`` calls (pin or unpin; an unpin
    without one, None, would unpin every message)."""
    out: list[int | None] = []
    for c in h.session.calls.calls_to(method, GROUP, ok_only=True):
        assert isinstance(c.request, PinChatMessage | UnpinChatMessage), c.method
        out.append(c.request.message_id)
    return out


async def test_NOIR_42_the_board_is_pinned_and_unpinned_when_the_game_is_cancelled(h: Harness):
    gid = await _start(h)
    board = (await h.service.live(gid)).ui["board"]
    assert _pins(h) == [board]  # the photo, pinned once; its edits pin nothing more
    st = (await h.service.live(gid)).state
    await h.service.on_deadline(gid, st.timer.seq)
    await h.app.sender.drain()
    assert _pins(h) == [board] and not _pins(h, "unpinChatMessage")
    await h.command(h.users[0], "/cancel")
    await h.app.sender.drain()
    assert _pins(h, "unpinChatMessage") == [board]


async def test_NOIR_42_the_text_board_is_pinned_too(h: Harness):
    h.session.fail("sendPhoto", GROUP, description="Bad Request: not enough rights to send photos "
                   "to the chat", times=None)
    gid = await _start(h)
    for _ in range(3):  # the text board goes once the photo has failed, then its pin
        await asyncio.sleep(0)
        await h.app.sender.drain()
    g = await h.service.live(gid)
    assert g.ui.get("board_text") and _pins(h) == [g.ui["board"]]
    assert "Arrests 0/4" in h.message(GROUP, g.ui["board"])["text"]


#: first names a player may well have (the old list's among them): no suspect is called so
FIRST_NAMES = {"anna", "boris", "carla", "clara", "karl", "klara", "igor", "ivan", "olga", "nina",
               "vera", "tom", "paul", "mark", "leon", "oscar", "victor", "simon", "hugo", "felix",
               "анна", "борис", "клара", "карла", "карл", "игорь", "иван", "ольга", "нина", "вера",
               "том", "павел", "марк", "лев", "оскар", "виктор", "семён", "алекс", "макс", "саша"}


def _one_letter_apart(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def test_NOIR_Q22_suspect_names_tell_apart_by_their_first_letters_in_both_languages():
    """Issue 20: no near-twins (Клара / Карла / Карл), no common first names, no two alike at a
    glance; every name fits the picker's width whole (NOIR-X33) in both languages."""
    assert max(t.size for t in TABLES.values()) ** 2 == len(SUSPECTS) == 49  # the largest grid
    for locale in ("en", "ru"):
        _ = Translator().get(locale)
        names = [_(n).lower() for n in SUSPECTS]
        assert len(names) == 49 and len(set(names)) == 49, locale
        assert all(len(n) <= picker.WIDTH for n in names), (locale, max(names, key=len))
        assert not FIRST_NAMES & set(names), locale
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert a[:3] != b[:3], (a, b)
                assert sorted(a) != sorted(b), (a, b)  # anagrams
                assert not _one_letter_apart(a, b), (a, b)


def test_NOIR_Q22_the_picker_shows_each_cell_with_its_short_name():
    g = G(6)
    killer = g.u(Role.KILLER)
    legal = set(legal_actions(g.st, killer).kill)
    rows = picker.cell_rows(lambda s: s, g.st, killer, 1, 0, legal)
    for r, line in enumerate(g.st.grid):
        for c, s in enumerate(line):
            text = rows[r][c].text
            assert text.endswith(f"{cell_name(r, c)} {SUSPECTS[s]}"), text
            assert text.startswith("·") == (s not in legal)
    assert rows[0][0].text == f"·⭐A1 {SUSPECTS[g.st.grid[0][0]]}"  # his own


def test_NOIR_X33_every_picker_label_carries_the_whole_name_on_the_largest_grid():
    """Issue 20 ("Кинжа", "Боцма"): on the 7x7 grid of 8 players, in Russian and English, each
    button ends with the cell and the suspect's whole translated name."""
    g = G(8)
    assert len(g.st.grid) == 7
    killer = g.u(Role.KILLER)
    for locale in ("ru", "en"):
        _ = Translator().get(locale)
        rows = picker.cell_rows(_, g.st, killer, 1, 0, legal_actions(g.st, killer).kill)
        for r, line in enumerate(g.st.grid):
            for c, s in enumerate(line):
                assert rows[r][c].text.endswith(f"{cell_name(r, c)} {_(SUSPECTS[s])}"), locale


def test_NOIR_X33_every_name_fits_a_cell_of_the_board_picture():
    """The picture draws the whole name in its cell (17 px DejaVu Sans, 92 px cells): each name
    is narrower than the cell with a margin on both sides, in both languages."""
    font = board._font(17)
    for locale in ("ru", "en"):
        _ = Translator().get(locale)
        widest = max((_(n) for n in SUSPECTS), key=font.getlength)
        assert font.getlength(widest) <= board.CELL - 2 * 10, (locale, widest)
