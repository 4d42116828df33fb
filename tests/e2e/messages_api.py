"""Bot API methods of the stand-in that send, edit, delete and pin messages.

Each function is ``async (api: FakeBotAPI, p: Params) -> result`` and raises ApiError with the
description Telegram uses.  Checks shared by several methods live at the top.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from typing import TYPE_CHECKING, Any

from .markup import MAX_CAPTION_LENGTH, MAX_TEXT_LENGTH, MarkupError, inline_keyboard, render_text
from .model import ChatState, Edit, StoredMessage, now
from .protocol import ApiError, Params, api_method, bad_request, forbidden

if TYPE_CHECKING:
    from .fake_api import FakeBotAPI

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)
FLOOD_METHODS = frozenset(
    {"sendmessage", "senddocument", "sendphoto", "copymessage", "forwardmessage", "editmessagetext",
     "editmessagereplymarkup"}
)


# --- shared checks ---------------------------------------------------------------------------------


def resolve_chat(api: FakeBotAPI, p: Params, name: str = "chat_id") -> ChatState:
    """The chat a request addresses, if the bot may act in it.

    Raises 400 "chat not found" / "group chat was upgraded..." (with migrate_to_chat_id),
    403 for a user who never started or blocked the bot, and for groups the bot is not in.
    """
    ref = p.chat_ref(name)
    if isinstance(ref, str):
        chat = next((c for c in api.chats.values() if c.username and f"@{c.username}" == ref), None)
    else:
        chat = api.chats.get(ref)
    if chat is None:
        if isinstance(ref, int) and ref in api.users:
            raise forbidden("bot can't initiate conversation with a user")
        raise bad_request("chat not found")
    if chat.migrated_to is not None:
        raise ApiError(
            400, "Bad Request: group chat was upgraded to a supergroup chat",
            {"migrate_to_chat_id": chat.migrated_to},
        )
    if chat.is_private:
        if chat.blocked:
            raise forbidden("bot was blocked by the user")
    elif chat.bot.status == "kicked":
        raise forbidden(f"bot was kicked from the {chat.type} chat")
    elif not chat.bot.is_present:
        raise forbidden(f"bot is not a member of the {chat.type} chat")
    return chat


def sendable_chat(api: FakeBotAPI, p: Params, method: str, *, right: str = "can_send_messages",
                  what: str = "text messages") -> ChatState:
    """resolve_chat plus the group's send permission ``right`` (``what``: its name in the error)
    and, if enabled, flood control."""
    chat = resolve_chat(api, p)
    check_send_right(chat, right, what)
    check_flood(api, chat, method)
    return chat


def check_send_right(chat: ChatState, right: str, what: str) -> None:
    """Raise 400 "not enough rights to send <what> to the chat" where the bot lacks ``right``: in a
    group where it is no administrator, the group's permission (its own when restricted)."""
    if chat.is_private or chat.bot.is_admin:
        return
    allowed = chat.permissions.get(right, True)
    if chat.bot.status == "restricted":
        allowed = chat.bot.permissions.get(right, False)
    if not allowed:
        raise bad_request(f"not enough rights to send {what} to the chat")


def check_flood(api: FakeBotAPI, chat: ChatState, method: str) -> None:
    """Raise 429 with retry_after if ``api.flood_limits`` is set and this call would exceed it."""
    limits = api.flood_limits
    if limits is None or method not in FLOOD_METHODS:
        return
    moment = time.monotonic()
    window, limit = (1.0, limits["private_per_second"])
    if not chat.is_private:
        window, limit = limits.get("group_window", 60.0), limits["group_per_minute"]
    buckets = ((("chat", chat.id), window, limit), (("global",), 1.0, limits["global_per_second"]))
    for key, span, cap in buckets:
        stamps = api.flood_log.setdefault(key, [])
        stamps[:] = [t for t in stamps if moment - t < span]
        if len(stamps) >= cap:
            retry_after = max(1, math.ceil(stamps[0] + span - moment))
            raise ApiError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})
    for key, _, _ in buckets:
        api.flood_log[key].append(moment)


def render(text: str | None, p: Params, *, limit: int = MAX_TEXT_LENGTH,
           entities_name: str = "entities") -> tuple[str, list[dict[str, Any]] | None]:
    try:
        return render_text(text, p.text("parse_mode"), p.json(entities_name), limit=limit)
    except MarkupError as error:
        raise bad_request(str(error)) from None


def keyboard(p: Params) -> dict[str, Any] | None:
    try:
        return inline_keyboard(p.json("reply_markup"))
    except MarkupError as error:
        raise bad_request(str(error)) from None


def find_message(chat: ChatState, message_id: int | None, missing: str) -> StoredMessage:
    message = chat.messages.get(message_id or 0)
    if message is None or message.deleted:
        raise bad_request(missing)
    return message


def reply_target(chat: ChatState, p: Params) -> StoredMessage | None:
    parameters = p.json("reply_parameters") or {}
    message_id = parameters.get("message_id") or p.int("reply_to_message_id")
    if not message_id:
        return None
    message = chat.messages.get(int(message_id))
    if message is None or message.deleted:
        if parameters.get("allow_sending_without_reply") or p.flag("allow_sending_without_reply"):
            return None
        raise bad_request("message to be replied not found")
    return message


def edit(message: StoredMessage, **changes: Any) -> None:
    """Record the current state in ``message.edits`` and apply ``changes``."""
    message.edits.append(Edit(now(), message.text, message.entities, message.reply_markup,
                              message.caption, message.photo_bytes))
    for key, value in changes.items():
        setattr(message, key, value)
    message.edit_date = now()


def own_message_to_edit(api: FakeBotAPI, p: Params) -> StoredMessage:
    if p.has("inline_message_id"):
        raise bad_request("inline messages are not supported by the stand-in")
    chat = resolve_chat(api, p)
    message = find_message(chat, p.int("message_id", required=True), "message to edit not found")
    if not message.from_bot:
        raise bad_request("message can't be edited")
    check_flood(api, chat, "editmessagetext")
    return message


# --- sending ---------------------------------------------------------------------------------------


@api_method("sendMessage")
async def send_message(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    chat = sendable_chat(api, p, "sendmessage")
    text, entities = render(p.text("text"), p)
    message = chat.add_message(
        sender=api.bot_user, text=text, entities=entities, reply_markup=keyboard(p),
        reply_to=reply_target(chat, p), raw_markup=p.json("reply_markup"),
    )
    return message.as_dict()


@api_method("sendDocument")
async def send_document(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    chat = sendable_chat(api, p, "senddocument")
    reference = p.text("document")
    upload = p.files.get("document")
    if upload is None and reference and reference.startswith("attach://"):
        upload = p.files.get(reference[len("attach://"):])
    if upload is not None:
        file_id = "BQAC" + secrets.token_urlsafe(24)
        api.files[file_id] = upload
    elif reference in api.files:
        file_id, upload = reference, api.files[reference]
    else:
        raise bad_request("wrong file identifier/HTTP URL specified")
    caption, entities = (None, None)
    if p.has("caption"):
        caption, entities = render(p.text("caption"), p, limit=MAX_CAPTION_LENGTH,
                                   entities_name="caption_entities")
    document = {
        "file_id": file_id,
        "file_unique_id": hashlib.sha1(upload.data).hexdigest()[:16],
        "file_name": upload.filename or "document",
        "mime_type": upload.content_type or "application/octet-stream",
        "file_size": len(upload.data),
    }
    message = chat.add_message(
        sender=api.bot_user, caption=caption, entities=entities, document=document,
        document_bytes=upload.data,
        reply_markup=keyboard(p), reply_to=reply_target(chat, p), raw_markup=p.json("reply_markup"),
    )
    return message.as_dict()


@api_method("copyMessage")
async def copy_message(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    source = find_message(resolve_chat(api, p, "from_chat_id"), p.int("message_id", required=True),
                          "message to copy not found")
    chat = sendable_chat(api, p, "copymessage")
    caption, entities = source.caption, source.entities
    if p.has("caption"):
        caption, entities = render(p.text("caption"), p, limit=MAX_CAPTION_LENGTH,
                                   entities_name="caption_entities")
    message = chat.add_message(
        sender=api.bot_user, text=source.text, caption=caption, entities=entities, document=source.document,
        document_bytes=source.document_bytes, photo=source.photo, photo_bytes=source.photo_bytes,
        reply_markup=keyboard(p), reply_to=reply_target(chat, p),
    )
    return {"message_id": message.message_id}


@api_method("forwardMessage")
async def forward_message(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    source = find_message(resolve_chat(api, p, "from_chat_id"), p.int("message_id", required=True),
                          "message to forward not found")
    chat = sendable_chat(api, p, "forwardmessage")
    if source.sender_chat is not None:
        origin = {"type": "chat", "date": source.date, "sender_chat": source.sender_chat}
    else:
        origin = {"type": "user", "date": source.date, "sender_user": source.sender}
    message = chat.add_message(
        sender=api.bot_user, text=source.text, caption=source.caption, entities=source.entities,
        document=source.document, document_bytes=source.document_bytes, photo=source.photo,
        photo_bytes=source.photo_bytes, forward_origin=origin,
    )
    return message.as_dict()


@api_method("sendChatAction")
async def send_chat_action(api: FakeBotAPI, p: Params) -> bool:
    sendable_chat(api, p, "sendchataction")
    p.text("action", required=True)
    return True


# --- editing -----------------------------------------------------------------------------------------


@api_method("editMessageText")
async def edit_message_text(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    message = own_message_to_edit(api, p)
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    text, entities = render(p.text("text"), p)
    markup = keyboard(p)  # Telegram drops the inline keyboard when an edit omits reply_markup
    if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
        raise bad_request(NOT_MODIFIED)
    edit(message, text=text, entities=entities, reply_markup=markup)
    return message.as_dict()


@api_method("editMessageReplyMarkup")
async def edit_message_reply_markup(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    message = own_message_to_edit(api, p)
    markup = keyboard(p)
    if markup == message.reply_markup:
        raise bad_request(NOT_MODIFIED)
    edit(message, reply_markup=markup)
    return message.as_dict()


@api_method("deleteMessage")
async def delete_message(api: FakeBotAPI, p: Params) -> bool:
    chat = resolve_chat(api, p)
    message = find_message(chat, p.int("message_id", required=True), "message to delete not found")
    _delete(chat, message)
    return True


@api_method("deleteMessages")
async def delete_messages(api: FakeBotAPI, p: Params) -> bool:
    chat = resolve_chat(api, p)
    identifiers = p.json("message_ids") or []
    if not 1 <= len(identifiers) <= 100:
        raise bad_request("message_ids must contain 1-100 identifiers")
    for message_id in identifiers:
        message = chat.messages.get(int(message_id))
        if message is not None and not message.deleted:
            _delete(chat, message)
    return True


def _delete(chat: ChatState, message: StoredMessage) -> None:
    if not chat.is_private and not message.from_bot and not chat.bot.can("can_delete_messages"):
        raise bad_request("message can't be deleted")
    message.deleted = True
    if message.message_id in chat.pins:
        chat.pins.remove(message.message_id)


# --- pins --------------------------------------------------------------------------------------------


def _pinnable_chat(api: FakeBotAPI, p: Params) -> ChatState:
    chat = resolve_chat(api, p)
    if chat.is_private or chat.bot.can("can_pin_messages"):
        return chat
    if chat.bot.status == "member" and chat.permissions.get("can_pin_messages"):
        return chat
    raise bad_request("not enough rights to manage pinned messages in the chat")


@api_method("pinChatMessage")
async def pin_chat_message(api: FakeBotAPI, p: Params) -> bool:
    chat = _pinnable_chat(api, p)
    message = find_message(chat, p.int("message_id", required=True), "message to pin not found")
    if message.message_id in chat.pins:
        chat.pins.remove(message.message_id)
    chat.pins.append(message.message_id)
    return True


@api_method("unpinChatMessage")
async def unpin_chat_message(api: FakeBotAPI, p: Params) -> bool:
    chat = _pinnable_chat(api, p)
    message_id = p.int("message_id")
    if message_id is None:
        if not chat.pins:
            raise bad_request("message to unpin not found")
        message_id = chat.pins[-1]
    if message_id not in chat.pins:
        raise bad_request("message to unpin not found")
    chat.pins.remove(message_id)
    return True


@api_method("unpinAllChatMessages")
async def unpin_all_chat_messages(api: FakeBotAPI, p: Params) -> bool:
    _pinnable_chat(api, p).pins.clear()
    return True
