"""Last words by private message (ONLINE-42), through ``feed_update``: published in a quote
block, limited in characters and messages; a lone mafioso's night messages reach nobody."""

from __future__ import annotations

import pytest

from bot.services.discipline import LAST_WORD_LIMIT, LAST_WORD_PARTS
from engine import Phase
from tests.bot.harness import GROUP, Harness
from tests.bot.helpers import drive_until, end_speech, start_game
from tests.fakes.telegram import plain_text


async def last_word_of(h: Harness, seed: int = 1):
    await start_game(h)
    return await drive_until(h, lambda s: s.phase is Phase.LAST_WORD, seed=seed)


def quoted(h: Harness) -> list[str]:
    return [c.text for c in h.sent(GROUP) if c.text is not None and "🟢 Last word of" in c.text]


async def test_ONLINE_42_a_last_word_sent_privately_is_published_in_a_quote(h: Harness):
    st = await last_word_of(h)
    speaker = h.user(st.speaker)
    seat = st.players[speaker.id].seat
    assert any("Your last word. Write it here" in t for t in h.sent_texts(speaker.id))
    await h.dm(speaker, "I was <b>red</b> & you know it")
    [text] = quoted(h)
    assert text == (f"<b>🟢 Last word of №{seat} \u2068{speaker.first_name}\u2069</b>\n"
                    "<blockquote>I was &lt;b&gt;red&lt;/b&gt; &amp; you know it</blockquote>")
    assert plain_text(text).endswith("I was <b>red</b> & you know it")
    assert "🟢 Published in the group." in h.sent_texts(speaker.id)
    # Nothing of it went to anyone else privately (no relay, no mafia chat).
    for p in st.alive():
        assert not any("you know it" in t for t in h.sent_texts(p.user_id))


async def test_a_last_word_is_limited_in_characters_and_messages(h: Harness):
    st = await last_word_of(h, seed=2)
    speaker = h.user(st.speaker)
    await h.dm(speaker, "x" * (LAST_WORD_LIMIT - 10))
    await h.dm(speaker, "y" * 50)
    assert "🟢 Published in the group. Only the first 10 characters fit." in \
        h.sent_texts(speaker.id)
    await h.dm(speaker, "z")
    assert any("used up" in t for t in h.sent_texts(speaker.id))
    published = [plain_text(t).split("\n", 1)[1] for t in quoted(h)]
    assert published == ["x" * (LAST_WORD_LIMIT - 10), "y" * 10]
    assert sum(map(len, published)) == LAST_WORD_LIMIT


async def test_a_last_word_takes_a_few_messages_at_most(h: Harness):
    st = await last_word_of(h, seed=4)
    speaker = h.user(st.speaker)
    for i in range(LAST_WORD_PARTS + 2):
        await h.dm(speaker, f"part {i}")
    assert len(quoted(h)) == LAST_WORD_PARTS
    # The next turn (a new phase) starts afresh; after the turn his texts are no last word.
    await end_speech(h)
    await h.dm(speaker, "too late")
    assert len(quoted(h)) == LAST_WORD_PARTS


async def test_a_lone_mafioso_is_told_his_night_messages_reach_nobody(h: Harness):
    """The last living mafioso writes to the bot at night (newcomer trial: no answer at all): he
    is told nobody hears him, and nothing is relayed or logged."""
    def lone_mafioso_night(st) -> bool:
        return st.phase is Phase.NIGHT and not st.over and sum(
            1 for p in st.players.values()
            if p.alive and p.seat and p.team is not None and p.team.name.lower() == "mafia") == 1

    for seed in range(12):  # the random driver's games: one reaches such a night
        await start_game(h)
        try:
            st = await drive_until(h, lone_mafioso_night, seed=seed)
            break
        except AssertionError:
            continue
    else:
        pytest.fail("no game reached a night with one mafioso left")
    (mafioso,) = [p for p in st.players.values() if p.alive and p.seat and p.team is not None
                  and p.team.name.lower() == "mafia"]
    commands = st.commands
    await h.dm(h.user(mafioso.user_id), "anyone still here?")
    assert h.texts(mafioso.user_id)[-1] == ("No teammate of yours is left to hear you: your "
                                            "messages reach nobody.")
    assert (await h.game()).state.commands == commands
