"""What the stand-in Bot API's own tests share: the token and group, a running
:class:`FakeBotAPI` and a real aiogram ``Bot`` on it over HTTP (the fixtures ``api`` and ``bot``;
import ``api_fixture, bot_fixture`` to use them), a vote keyboard and a PNG picture."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest_asyncio
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import ChatMemberUpdated, InlineKeyboardMarkup, Message, Update
from aiogram.utils.keyboard import InlineKeyboardBuilder
from PIL import Image

from .fake_api import FakeBotAPI

TOKEN = "123456:TEST"


GROUP = -1001234567890


def message_of(update: Update) -> Message:
    """The update's message (the test fails if it has none)."""
    assert update.message is not None, update
    return update.message


def new_status(change: ChatMemberUpdated | None) -> str:
    """The new status of a (my_)chat_member update (the test fails if there is none)."""
    assert change is not None
    return change.new_chat_member.status


@pytest_asyncio.fixture(name="api")
async def api_fixture() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI(TOKEN)
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture(name="bot")
async def bot_fixture(api: FakeBotAPI) -> AsyncIterator[Bot]:
    assert api.base_url is not None
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    instance = Bot(TOKEN, session=session, default=DefaultBotProperties(parse_mode="HTML"))
    yield instance
    await instance.session.close()


def vote_keyboard() -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text="Vote Alice", callback_data="vote:1")
    builder.button(text="Vote Bob", callback_data="vote:2")
    builder.button(text="Rules", url="https://example.org/rules")
    return builder.as_markup()


def png(width: int = 40, height: int = 30, colour: str = "navy") -> bytes:
    """A small PNG picture (bytes)."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()
