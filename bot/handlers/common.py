"""Helpers shared by the routers: locale lookup, rights checks, refusal texts."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message, TelegramObject, Update, User

from engine import GameState, IllegalCommand

from ..storage.people import PeopleStorage
from ..ui.i18n import SUPPORTED_LOCALES, Translator
from ..ui.replies import answering, reply_kwargs
from ..ui.texts import ERRORS, REASONS

if TYPE_CHECKING:
    from ..storage import Storage
    from ..telegram.sender import Sender

if TYPE_CHECKING:
    from ..telegram.sender import Sender

logger = logging.getLogger(__name__)
ADMIN_STATUSES = ("creator", "administrator")
#: a gettext function (:meth:`bot.ui.i18n.Translator.get`) and its plural twin (``nget``)
Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]


def refusal(tr: Translator, locale: str | None, error: IllegalCommand) -> str:
    """The answer to a refused command in ``locale``: the reason the engine gave, where the
    bot words it (``REASONS``: the judge's tools), else its class's (``ERRORS``)."""
    _ = tr.get(locale)
    reason = REASONS.get(str(error))
    return _(reason if reason is not None else ERRORS.get(error.code, ERRORS["illegal"]))


def author(message: Message) -> User:
    """Who sent ``message``. ``LookupError`` for a message without a sender (a channel post:
    the routers' commands never get one)."""
    if message.from_user is None:
        raise LookupError(f"message {message.message_id} has no sender")
    return message.from_user


def display_name(user: User) -> str:
    """The user's name as Telegram gives it now (raw: neither escaped nor isolated; an invisible
    one stays invisible here and gets its fallback where it is shown, bot/ui/names.py)."""
    name = user.full_name.strip() or (user.username or str(user.id))
    return name[:64]


async def watch_users(handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
                      event: TelegramObject, data: dict[str, Any]) -> Any:
    """Outer update middleware: every update from a user tells the service his current name
    (renames, issue 10 item 4) and brings a lost host back (``GameService.seen``)."""
    user = data.get("event_from_user")
    service = data.get("service")
    sender = data.get("sender")
    if user is not None and sender is not None and user.id in sender.blocked \
            and _heard_from(event, user.id):
        sender.blocked.reachable(user.id)  # private messages go to him again (issue 19)
    if user is not None and not user.is_bot and service is not None:
        message = getattr(event, "message", None)
        text = (getattr(message, "text", None) or "").split("@")[0].split(" ")[0]
        try:  # a lost host's /resume resumes the game itself (and answers nothing odd)
            await service.seen(user.id, display_name(user), back=text != "/resume")
        except Exception:  # noqa: BLE001 - a name is never a reason to drop the update
            logger.exception("watching user %s failed", user.id)
    return await handler(event, data)


def _heard_from(update: TelegramObject, user_id: int) -> bool:
    """Whether ``update`` shows that ``user_id`` can be written to: he pressed a button, wrote
    to the bot in private, or unblocked it (``my_chat_member``: member again)."""
    if not isinstance(update, Update):  # an outer update middleware sees Updates only
        return False
    if update.callback_query is not None:
        return True
    message = update.message
    if message is not None and message.chat.id == user_id:
        return True
    member = update.my_chat_member
    return member is not None and member.chat.id == user_id and \
        member.new_chat_member.status == "member"


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


async def may_manage(bot: Bot, message_or_chat_id: Message | int, user_id: int, st: GameState | None) -> bool:
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


async def chat_locale(storage: Storage, chat_id: int) -> str | None:
    """The language a group chose in /settings (None for a private chat: the bot's default)."""
    if chat_id > 0:
        return None
    return (await storage.get_chat_settings(chat_id)).locale


def sender_locale(message: Message) -> str | None:
    """The sender's Telegram language if the bot speaks it (``language_code`` "en-GB" -> "en"),
    else None (the bot's default)."""
    code = (message.from_user.language_code or "") if message.from_user else ""
    lang = code.split("-")[0].lower()
    return lang if lang in SUPPORTED_LOCALES else None


async def adopt_sender_locale(storage: PeopleStorage, message: Message) -> None:
    """A group that never chose a language takes the Telegram language of the first command's
    sender (issue 20: an English group started in Russian); /settings changes it later."""
    if message.chat.type == "private":
        return
    lang = sender_locale(message)
    if lang is not None and (await storage.get_chat_settings(message.chat.id)).locale is None:
        await storage.save_chat_settings(message.chat.id, locale=lang)


def say(sender: Sender, chat_id: int, text: str, reply_markup: Any = None,
        **kwargs: Any) -> asyncio.Future[Any]:
    """Reply through the Sender (rate limits, retries, per-recipient errors), never directly."""
    return sender.send(chat_id, text, reply_markup, merge=False, **kwargs)


def reply(sender: Sender, message: Message, text: str, reply_markup: Any = None,
          **kwargs: Any) -> asyncio.Future[Any]:
    """Answer a command: in a group as a reply to the command message (so after several
    /foul's each answer shows whose it is; sent anyway if the command was deleted), in a
    private chat as a plain message. Through the Sender like :func:`say`."""
    with answering(message):
        kwargs = {**reply_kwargs(message.chat.id), **kwargs}
    return say(sender, message.chat.id, text, reply_markup, **kwargs)


#: seconds: the same refusal to the same user in the same group is said once in this time
REFUSAL_GAP = 60.0
#: per Sender (one per bot process; a test's own): (chat, user, text) -> when it was said
_refused: weakref.WeakKeyDictionary[Any, dict[tuple[int, int, str], float]] = \
    weakref.WeakKeyDictionary()


def once_a_minute(sender: Sender, message: Message, what: str) -> bool:
    """Whether ``what`` (a refusal's text, a panel's name) may be said to the sender of
    ``message`` in its group now: at most once per :data:`REFUSAL_GAP` seconds per group, user
    and ``what`` (this process's clock); True in a private chat. A True answer counts as said."""
    if message.chat.type == "private":
        return True
    now = time.monotonic()
    said = _refused.setdefault(sender, {})
    key = (message.chat.id, message.from_user.id if message.from_user else 0, what)
    if now - said.get(key, -REFUSAL_GAP) < REFUSAL_GAP:
        return False
    if len(said) > 10_000:  # old entries go; the gap is short
        for old in [k for k, at in said.items() if now - at >= REFUSAL_GAP]:
            del said[old]
    said[key] = now
    return True


def refuse(sender: Sender, message: Message, text: str) -> asyncio.Future[Any] | None:
    """Answer a refused command (a repeated /pause, /resume by a stranger, /settings by a
    player ...) without spending the group's budget on repeats (issue 20: eight commands, eight
    messages, the game's own messages 9.8 s behind): in a group, the same ``text`` to the same
    user is said at most once per :data:`REFUSAL_GAP` seconds (:func:`once_a_minute`); in a
    private chat always. Returns the send's future, or None when it was held back."""
    if not once_a_minute(sender, message, text):
        return None
    return reply(sender, message, text)


def seat_user(st: GameState, seat_no: int) -> int | None:
    """The user on seat ``seat_no`` (1-based), or None if nobody sits there."""
    for p in st.players.values():
        if getattr(p, "seat", 0) == seat_no and seat_no:  # NOIR: no seats
            return p.user_id
    return None


def no_seat_text(_: Gettext, st: GameState, seat_no: int) -> str:
    """"There is no seat 99 (seats 1–10)." for every command that takes a seat."""
    seats = [p.seat for p in st.players.values() if getattr(p, "seat", 0)]
    if not seats:
        return _("Seats are not dealt yet.")
    return _("There is no seat №{n} at this table (seats {lo}–{hi}).").format(
        n=seat_no, lo=min(seats), hi=max(seats))
