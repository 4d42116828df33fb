"""NOIR-42: an edit of the board photo that does not go is no reason to give the picture up.

A retried ``editMessageMedia`` whose first attempt went through unheard is answered "message is
not modified" (the Sender resolves it to None, as any dropped call): the board stays one photo,
edited again at its next change.  Two edits in a row that do not go switch to the text board."""

from __future__ import annotations

import random

from bot.games.noir.deal import deal
from engine.noir import Join
from tests.bot.harness import GROUP
from tests.engine.noir.playout import random_action

NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message")


async def _started(h) -> int:
    users = h.users[:6]
    gid = await h.service.new_game(GROUP, users[0].id, "en", {}, "noir")
    for u in users:
        await h.service.execute(gid, Join(user_id=u.id, name=u.first_name))
    await h.service.execute(gid, lambda g: deal(g.state, users[0].id, random.Random(g.seed)))
    await h.app.sender.drain()
    return gid


async def _act(h, gid: int, rng: random.Random) -> None:
    st = (await h.service.live(gid)).state
    await h.service.execute(gid, random_action(rng, st, st.current))
    await h.app.sender.drain()


async def test_NOIR_42_one_edit_not_modified_keeps_the_photo_board(h):
    gid = await _started(h)
    rng = random.Random(4)
    h.session.fail("editMessageMedia", GROUP, description=NOT_MODIFIED, times=1)
    await _act(h, gid, rng)
    assert not (await h.service.live(gid)).ui.get("board_text")
    await _act(h, gid, rng)
    edits = h.sent(GROUP, ("editMessageMedia",), ok_only=False)
    assert [c.ok for c in edits] == [False, True]  # edited again at the next change
    assert len(h.sent(GROUP, ("sendPhoto",))) == 1
    assert all("<pre>" not in (c.text or "") for c in h.sent(GROUP, ("sendMessage",)))


async def test_NOIR_42_two_edits_in_a_row_that_do_not_go_switch_to_the_text_board(h):
    gid = await _started(h)
    rng = random.Random(4)
    h.session.fail("editMessageMedia", GROUP, description="Bad Request: MEDIA_EMPTY", times=None)
    await _act(h, gid, rng)
    assert not (await h.service.live(gid)).ui.get("board_text")
    await _act(h, gid, rng)
    assert (await h.service.live(gid)).ui.get("board_text")
    texts = h.sent_texts(GROUP, ("sendMessage",))
    assert texts and texts[-1].split("\n")[0].split() == ["A", "B", "C", "D", "E", "F"]  # the text grid
