"""The cheap ways of building keyboards (issue 11, target 1) build exactly what aiogram builds:
``FastPack.pack`` gives aiogram's callback data string and errors, ``button`` and ``markup_of``
give objects equal to (and serialised like) validated ones, and anything outside their fast
path is still validated by aiogram's constructors."""

from __future__ import annotations

import random

import pytest
from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from pydantic import ValidationError

from bot.ui.callbacks import Act, Cfg, FastPack, Hist, LobbyAct
from bot.ui.keyboards import InlineKeyboardBuilder, button, markup_of


class Mixed(FastPack, CallbackData, prefix="t"):
    """A data class with fields our own classes do not have (they go to aiogram's pack)."""

    flag: bool
    n: int | None = None
    word: str = ""


def samples(rng: random.Random) -> list[CallbackData]:
    words = ["", "vote", "nom", "ready", "tempo", "fast", "ru", "x" * 20, "ä", "№", "l"]
    out: list[CallbackData] = []
    for _ in range(300):
        g, s, t = rng.randrange(0, 2**40), rng.randrange(0, 10**6), rng.randrange(0, 13)
        word = rng.choice(words)
        out += [Act(g=g, s=s, a=word, t=t), LobbyAct(g=g, a=word, v=rng.choice(words)),
                Cfg(a=word, v=rng.choice(words)), Hist(a=word, g=g, p=s, b=t),
                Mixed(flag=rng.random() < 0.5, n=rng.choice([None, s]), word=word)]
    return out


def test_fast_pack_gives_aiograms_string_for_every_class():
    for data in samples(random.Random(11)):
        assert data.pack() == CallbackData.pack(data), data
        assert type(data).unpack(data.pack()) == data


def test_fast_pack_raises_aiograms_errors():
    for data in (Act(g=1, s=2, a="a:b"), LobbyAct(g=1, a="tempo", v="1:2"), Cfg(a="ä" * 40),
                 Act(g=1, s=2, a="x" * 60), Mixed(flag=True, word="x:y")):
        with pytest.raises(ValueError) as fast:
            data.pack()
        with pytest.raises(ValueError) as slow:
            CallbackData.pack(data)
        assert str(fast.value) == str(slow.value)


def assert_same(made: InlineKeyboardButton | InlineKeyboardMarkup,
                validated: InlineKeyboardButton | InlineKeyboardMarkup) -> None:
    assert type(made) is type(validated)
    assert made == validated
    assert made.model_fields_set == validated.model_fields_set
    assert made.model_dump_json() == validated.model_dump_json()
    assert made.model_dump(exclude_none=True) == validated.model_dump(exclude_none=True)
    assert made.bot is validated.bot is None


def test_a_new_callback_button_is_what_validation_builds():
    made = button.__wrapped__("№3 Anna", Act(g=5, s=9, a="vote", t=3).pack())
    assert_same(made, InlineKeyboardButton(text="№3 Anna", callback_data="a:5:9:vote:3"))
    other = button.__wrapped__("№4 Boris", "a:5:9:vote:4")
    assert made.text == "№3 Anna" and other.text == "№4 Boris"  # copies, not one shared object
    assert button("x", "a:1:1:end:0") is button("x", "a:1:1:end:0")  # still shared when cached


def test_buttons_off_the_fast_path_are_validated() -> None:
    assert_same(button.__wrapped__("Open", url="https://t.me/bot"),
                InlineKeyboardButton(text="Open", url="https://t.me/bot"))
    with pytest.raises(ValidationError):
        button.__wrapped__(None, "a:1:1:end:0")
    with pytest.raises(ValidationError):
        button.__wrapped__("x", 42)


def test_markup_of_buttons_is_what_validation_builds():
    rows = [[button("a", "a:1:1:vote:1"), button("b", "a:1:1:vote:2")], [button("c", "x")]]
    made = markup_of([list(r) for r in rows])
    assert_same(made, InlineKeyboardMarkup(inline_keyboard=rows))
    assert_same(markup_of([]), InlineKeyboardMarkup(inline_keyboard=[]))
    kb = InlineKeyboardBuilder()
    for seat in range(1, 8):
        kb.button(text=f"№{seat}", callback_data=Act(g=2, s=3, a="kill", t=seat))
    kb.adjust(3)
    assert_same(kb.as_markup(), InlineKeyboardMarkup(inline_keyboard=[
        [InlineKeyboardButton(text=f"№{s}", callback_data=f"a:2:3:kill:{s}") for s in seats]
        for seats in ((1, 2, 3), (4, 5, 6), (7,))]))


def test_markup_of_anything_else_is_validated() -> None:
    made = markup_of([[{"text": "a", "callback_data": "x"}]])  # type: ignore[list-item]  # deliberately not a button: validated
    assert_same(made, InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="a", callback_data="x")]]))
    with pytest.raises(ValidationError):
        markup_of([["not a button"]])  # type: ignore[list-item]  # deliberately not a button: validated
