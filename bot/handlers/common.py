"""Helpers shared by the routers: locale lookup, rights checks, refusal texts."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message, User

from engine import GameState, IllegalCommand

from ..i18n import Translator
from ..texts import ERRORS

logger = logging.getLogger(__name__)
ADMIN_STATUSES = ("creator", "administrator")


def refusal(tr: Translator, locale: str | None, error: IllegalCommand) -> str:
    _ = tr.get(locale)
    return _(ERRORS.get(error.code, ERRORS["illegal"]))


def display_name(user: User) -> str:
    name = user.full_name.strip() or (user.username or str(user.id))
    return name[:64]


async def is_chat_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """True if the user administers the group (a failed lookup counts as no)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramAPIError:
        logger.info("getChatMember failed for chat %s", chat_id)
        return False
    return member.status in ADMIN_STATUSES


async def is_group_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """True if the user is in the group (member, admin, creator or restricted). A failed lookup
    counts as yes: Telegram answers "member not found" only for real strangers."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramAPIError as exc:
        return "not found" not in str(exc).lower() and "participant" not in str(exc).lower()
    return member.status in ("member", "administrator", "creator", "restricted")


async def may_manage(bot: Bot, message_or_chat_id, user_id: int, st: GameState | None) -> bool:
    """Organiser, host, or a group admin (anonymous admins post as the group itself)."""
    if isinstance(message_or_chat_id, Message):
        msg = message_or_chat_id
        if msg.sender_chat is not None and msg.sender_chat.id == msg.chat.id:
            return True
        chat_id = msg.chat.id
    else:
        chat_id = message_or_chat_id
    if st is not None and user_id in (st.organiser, st.host):
        return True
    return await is_chat_admin(bot, chat_id, user_id)


async def chat_locale(storage, chat_id: int) -> str | None:
    """The language a group chose in /settings (None for a private chat: the bot's default)."""
    if chat_id > 0:
        return None
    return (await storage.get_chat_settings(chat_id)).locale


def say(sender, chat_id: int, text: str, reply_markup=None, **kwargs):
    """Reply through the Sender (rate limits, retries, per-recipient errors), never directly."""
    return sender.send(chat_id, text, reply_markup, merge=False, **kwargs)
