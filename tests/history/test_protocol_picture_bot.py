"""/history's protocol picture through the whole bot (updates fed to the dispatcher, buttons
pressed as sent): a club game's protocol offers 🖼, which sends the clubs' picture as a photo,
or its text pages when the photo cannot go; a party game has no picture."""

from __future__ import annotations

import io

from aiogram.methods import SendPhoto
from aiogram.types import BufferedInputFile
from PIL import Image

from bot.history import protocol as P
from bot.history.protocol_card import build_card
from bot.history.protocol_picture import draw
from bot.ui.callbacks import Hist
from tests.bot.harness import GROUP, Harness, make_harness
from tests.history.helpers import bulk_store, sample_playouts
from tests.history.test_bot import button, buttons_of, last_group_message

OUT_OF_DATE = "This button is out of date."


def shown(h: Harness, mid: int) -> dict:
    message = h.session.message(GROUP, mid)
    assert message is not None
    return message


async def record(h: Harness, *games: int) -> None:
    assert h.app.history is not None
    for gid in games:
        assert await h.app.history.record(gid)


def club_and_party():
    pos = sample_playouts()
    return next(po for po in pos if po.log[0].ruleset == "club"), pos[0]


async def test_a_club_protocol_goes_as_a_picture_and_a_party_one_does_not(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=2)
    try:
        club_po, party_po = club_and_party()
        club = await bulk_store(h.app.storage, GROUP, club_po)
        party = await bulk_store(h.app.storage, GROUP, party_po)
        await record(h, club, party)
        await h.command(h.users[0], "/history")
        mid = last_group_message(h)["message_id"]

        await h.press(h.users[0], GROUP, mid, Hist(a="p", g=club).pack())
        protocol = shown(h, mid)
        assert "🖼 Protocol picture" in [b["text"] for b in buttons_of(protocol)]
        await h.press(h.users[1], GROUP, mid, button(protocol, "Protocol picture"))
        await h.app.sender.drain()
        photo = h.sent(GROUP, ("sendPhoto",))[-1].request
        assert isinstance(photo, SendPhoto) and isinstance(photo.photo, BufferedInputFile)
        png = photo.photo.data
        entries = P.entries_from(await h.app.storage.load_entries(club))
        _ = h.app.translator.get("en")
        assert png == draw(build_card(_, "en", P.build_protocol(entries), None, game_id=club))
        assert Image.open(io.BytesIO(png)).format == "PNG"
        assert photo.caption == f"📜 Protocol of game #{club} · Club (sport)"
        assert shown(h, mid)["text"] == protocol["text"]  # the protocol stays

        await h.press(h.users[0], GROUP, mid, Hist(a="p", g=party).pack())
        assert "🖼 Protocol picture" not in [b["text"] for b in buttons_of(shown(h, mid))]
        sent = len(h.sent(GROUP, ("sendPhoto",)))
        assert await h.press(h.users[0], GROUP, mid, Hist(a="pp", g=party).pack()) == OUT_OF_DATE
        assert len(h.sent(GROUP, ("sendPhoto",))) == sent
    finally:
        await h.stop()


async def test_the_picture_falls_back_to_its_text(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=2)
    try:
        club = await bulk_store(h.app.storage, GROUP, club_and_party()[0])
        await record(h, club)
        await h.command(h.users[0], "/history")
        mid = last_group_message(h)["message_id"]
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400,
                       description="Bad Request: not enough rights to send photos to the chat")
        await h.press(h.users[0], GROUP, mid, Hist(a="pp", g=club).pack())
        await h.app.sender.drain()
        texts = "\n".join(m.get("text", "") for m in h.messages(GROUP))
        assert f"Protocol of game #{club} · Club (sport)" in texts and "Night 1" in texts
        assert "photo" not in last_group_message(h)
    finally:
        await h.stop()
