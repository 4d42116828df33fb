"""Bot API methods of the stand-in for the bot itself, updates, callback queries, chats and members.

Each function is ``async (api: FakeBotAPI, p: Params) -> result`` and raises ApiError with the
description Telegram uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import TYPE_CHECKING, Any

from .messages_api import resolve_chat
from .model import PERMISSION_FIELDS, CallbackAnswer, ChatState, Member
from .protocol import ApiError, Params, api_method, bad_request

if TYPE_CHECKING:
    from .fake_api import FakeBotAPI

_COMMAND_NAME_RE = re.compile(r"^[a-z0-9_]{1,32}$")


# --- the bot ---------------------------------------------------------------------------------------


@api_method("getMe")
async def get_me(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    return {
        **api.bot_user,
        "can_join_groups": True,
        "can_read_all_group_messages": not api.privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


@api_method("setMyCommands")
async def set_my_commands(api: FakeBotAPI, p: Params) -> bool:
    commands = p.json("commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise bad_request("BOT_COMMANDS_TOO_MUCH" if isinstance(commands, list) else "commands is empty")
    for command in commands:
        name, description = str(command.get("command", "")), str(command.get("description", ""))
        if not _COMMAND_NAME_RE.match(name.lstrip("/")) or not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_INVALID")
    api.commands[_commands_key(p)] = [
        {"command": c["command"].lstrip("/"), "description": c["description"]} for c in commands
    ]
    return True


@api_method("getMyCommands")
async def get_my_commands(api: FakeBotAPI, p: Params) -> list[dict[str, str]]:
    return list(api.commands.get(_commands_key(p), []))


@api_method("deleteMyCommands")
async def delete_my_commands(api: FakeBotAPI, p: Params) -> bool:
    api.commands.pop(_commands_key(p), None)
    return True


def _commands_key(p: Params) -> tuple[str, str]:
    scope = p.json("scope") or {"type": "default"}
    return json.dumps(scope, sort_keys=True), p.text("language_code") or ""


def _setting(method: str, field: str) -> None:
    """Register a setter/getter pair for a plain bot setting, e.g. setMyDescription/getMyDescription."""

    async def setter(api: FakeBotAPI, p: Params) -> bool:
        api.settings[(field, p.text("language_code") or "")] = p.text(field) or ""
        return True

    async def getter(api: FakeBotAPI, p: Params) -> dict[str, str]:
        return {field: api.settings.get((field, p.text("language_code") or ""), "")}

    api_method(f"set{method}")(setter)
    api_method(f"get{method}")(getter)


_setting("MyDescription", "description")
_setting("MyShortDescription", "short_description")
_setting("MyName", "name")


@api_method("setChatMenuButton")
async def set_chat_menu_button(api: FakeBotAPI, p: Params) -> bool:
    api.settings[("menu_button", p.text("chat_id") or "")] = p.json("menu_button") or {"type": "default"}
    return True


# --- updates (webhooks: webhooks.py) ------------------------------------------------------------------------


@api_method("getUpdates")
async def get_updates(api: FakeBotAPI, p: Params) -> list[dict[str, Any]]:
    """Long polling: answers at once if updates are pending, else waits up to ``timeout`` seconds.

    A newer getUpdates request ends a pending one with 409, as Telegram does.
    """
    if api.webhook_url:
        raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                            "use deleteWebhook to delete the webhook first")
    limit = min(max(p.int("limit") or 100, 1), 100)
    timeout = max(p.int("timeout") or 0, 0)
    allowed = p.json("allowed_updates")
    if allowed is not None:
        api.allowed_updates = list(allowed)
    api.confirm_updates(p.int("offset"))
    api.poll_generation += 1
    generation = api.poll_generation
    api.poll_count += 1
    if timeout:
        api.long_poll_count += 1  # the dispatcher's polling (not a one-off peek)
    await api.notify()  # a pending older poll sees the new generation and ends with 409

    def ready() -> bool:
        return api.closing or generation != api.poll_generation or bool(api.deliverable_updates(limit))

    if timeout and not ready():
        async with api.changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(api.changed.wait_for(ready), timeout)
    if generation != api.poll_generation:
        raise ApiError(409, "Conflict: terminated by other getUpdates request; "
                            "make sure that only one bot instance is running")
    return api.deliverable_updates(limit)


@api_method("answerCallbackQuery")
async def answer_callback_query(api: FakeBotAPI, p: Params) -> bool:
    waiter = api.callback_waiters.get(p.text("callback_query_id", required=True) or "")
    if waiter is None or waiter.done():
        raise bad_request("query is too old and response timeout expired or query ID is invalid")
    text = p.text("text")
    if text is not None and len(text) > 200:
        raise bad_request("MESSAGE_TOO_LONG")
    waiter.set_result(CallbackAnswer(text=text, show_alert=p.flag("show_alert"), url=p.text("url"),
                                     cache_time=p.int("cache_time") or 0))
    return True


# --- chats and members ---------------------------------------------------------------------------------


@api_method("getChat")
async def get_chat(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    return resolve_chat(api, p).full_info()


@api_method("getChatMember")
async def get_chat_member(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    chat = resolve_chat(api, p)
    user_id = p.int("user_id", required=True)
    if user_id == api.bot_id:
        return chat.bot.as_dict(api.bot_user, is_bot_self=True)
    if user_id not in api.users:
        raise bad_request("PARTICIPANT_ID_INVALID")
    user = api.users[user_id].as_dict()
    if chat.is_private:
        return Member("member" if user_id == chat.id else "left").as_dict(user)
    return chat.members.get(user_id, Member("left")).as_dict(user)


@api_method("getChatAdministrators")
async def get_chat_administrators(api: FakeBotAPI, p: Params) -> list[dict[str, Any]]:
    chat = resolve_chat(api, p)
    if chat.is_private:
        raise bad_request("there are no administrators in the private chat")
    admins = [m.as_dict(api.users[uid].as_dict()) for uid, m in chat.members.items() if m.is_admin]
    if chat.bot.is_admin:
        admins.append(chat.bot.as_dict(api.bot_user, is_bot_self=True))
    return admins


@api_method("getChatMemberCount")
async def get_chat_member_count(api: FakeBotAPI, p: Params) -> int:
    chat = resolve_chat(api, p)
    if chat.is_private:
        return 2
    return sum(m.is_present for m in chat.members.values()) + int(chat.bot.is_present)


def _restricting_chat(api: FakeBotAPI, p: Params) -> ChatState:
    chat = resolve_chat(api, p)
    if chat.is_private:
        raise bad_request("method is available only for supergroups")
    if not chat.bot.can("can_restrict_members"):
        raise bad_request("not enough rights to restrict/unrestrict chat member")
    return chat


def _permissions(p: Params) -> dict[str, bool]:
    given = p.json("permissions")
    if not isinstance(given, dict):
        raise bad_request("permissions is empty")
    return {key: bool(given.get(key, False)) for key in PERMISSION_FIELDS}


@api_method("restrictChatMember")
async def restrict_chat_member(api: FakeBotAPI, p: Params) -> bool:
    chat = _restricting_chat(api, p)
    user_id = p.int("user_id", required=True)
    permissions = _permissions(p)
    if user_id == api.bot_id:
        raise bad_request("can't restrict self")
    member = chat.members.get(user_id or 0)
    if member is None:
        raise bad_request("user not found" if user_id not in api.users
                          else "user is not a member of the chat")
    if member.status == "creator":
        raise bad_request("can't remove chat owner")
    if member.status == "administrator":
        raise bad_request("user is an administrator of the chat")
    if all(permissions.values()):
        member.status, member.permissions, member.until_date = "member", permissions, 0
    else:
        member.status, member.permissions = "restricted", permissions
        member.until_date = p.int("until_date") or 0
    return True


@api_method("setChatPermissions")
async def set_chat_permissions(api: FakeBotAPI, p: Params) -> bool:
    chat = _restricting_chat(api, p)
    chat.permissions = _permissions(p)
    return True


@api_method("leaveChat")
async def leave_chat(api: FakeBotAPI, p: Params) -> bool:
    chat = resolve_chat(api, p)
    if chat.is_private:
        raise bad_request("chat member status can't be changed in private chats")
    await api.change_bot_status(chat, Member("left"), actor=api.bot_user)
    return True
