"""The update queue of the stand-in Bot API and the world events that fill it.

Users' actions (messages, button presses, blocking, joining and leaving) and changes of the bot's
own status become Bot API ``Update`` objects here; ``getUpdates`` hands them out in order and
forgets them once confirmed by a higher ``offset``.  Delivery honours ``allowed_updates`` (by
default everything except chat_member and reactions), privacy mode, and whether the bot is in the
chat at all.
"""

from __future__ import annotations

import asyncio
import copy
from typing import TYPE_CHECKING, Any

from .markup import leading_command, user_entities
from .model import GROUP_ANONYMOUS_BOT, CallbackAnswer, ChatState, Member, StoredMessage, now

if TYPE_CHECKING:
    from .users import SimUser

_DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


class UpdatesMixin:
    """Update queue and event producers of FakeBotAPI (which provides chats, users, bot_user, notify)."""

    if TYPE_CHECKING:
        chats: dict[int, ChatState]
        users: dict[int, SimUser]
        bot_user: dict[str, Any]
        bot_id: int
        privacy_mode: bool

        async def notify(self) -> None: ...
        def chat(self, chat_id: int) -> ChatState: ...
        def find_button(self, chat_id: int, text: str) -> tuple[int, dict[str, Any]]: ...

    def __init__(self) -> None:
        self.pending_updates: list[dict[str, Any]] = []
        """Updates not yet confirmed by the bot, oldest first."""
        self.updates_log: list[dict[str, Any]] = []
        """Every update ever queued."""
        self.allowed_updates: list[str] | None = None
        self.poll_generation = 0
        self.callback_waiters: dict[str, asyncio.Future[CallbackAnswer]] = {}
        self._next_update_id = 700_000_001
        self._next_callback_id = 1

    # --- queue -------------------------------------------------------------------------------------

    async def enqueue_update(self, update: dict[str, Any]) -> int:
        """Queue a raw update (without ``update_id``, which is assigned and returned)."""
        update = {"update_id": self._next_update_id, **copy.deepcopy(update)}
        self._next_update_id += 1
        self.pending_updates.append(update)
        self.updates_log.append(update)
        await self.notify()
        return update["update_id"]

    def confirm_updates(self, offset: int | None) -> None:
        """Forget updates below ``offset``; a negative offset keeps only the last ``-offset``."""
        if offset is None:
            return
        if offset < 0:
            self.pending_updates = self.pending_updates[offset:]
        else:
            self.pending_updates = [u for u in self.pending_updates if u["update_id"] >= offset]

    def deliverable_updates(self, limit: int = 100) -> list[dict[str, Any]]:
        """The first ``limit`` pending updates of allowed types (others are dropped, as Telegram does)."""
        self.pending_updates = [u for u in self.pending_updates if self._allowed(u)]
        return self.pending_updates[:limit]

    def drop_pending_updates(self) -> None:
        self.pending_updates.clear()

    def _allowed(self, update: dict[str, Any]) -> bool:
        kind = next(key for key in update if key != "update_id")
        if self.allowed_updates:
            return kind in self.allowed_updates
        return kind not in _DEFAULT_EXCLUDED_UPDATES

    # --- users' actions ---------------------------------------------------------------------------------

    def private_chat(self, user: SimUser, *, create: bool = False) -> ChatState | None:
        """The user's private chat with the bot; it exists once the user wrote to (or blocked) the bot."""
        chat = self.chats.get(user.id)
        if chat is None and create:
            chat = self.chats[user.id] = ChatState(id=user.id, type="private", user=user.as_dict())
        return chat

    async def user_message(self, user: SimUser, chat_id: int, text: str | None = None, *,
                           reply_to: int | None = None, anonymous: bool = False,
                           service: dict[str, Any] | None = None) -> StoredMessage:
        """Store a message from ``user`` in ``chat_id`` and queue it if the bot would receive it.

        Raises LookupError for an unknown chat or reply target, PermissionError if the user may not
        write there (not a member, muted, someone else's private chat, upgraded group).
        """
        if chat_id == user.id:
            chat = self.private_chat(user, create=True)
            assert chat is not None
            if chat.blocked:
                await self.set_blocked(user, False)
        else:
            chat = self.chats.get(chat_id)
            if chat is None:
                raise LookupError(f"no chat {chat_id}")
            if service is None:
                self._check_can_write(user, chat, anonymous=anonymous)
        target = None
        if reply_to is not None:
            target = chat.messages.get(reply_to)
            if target is None or target.deleted:
                raise LookupError(f"no message {reply_to} in chat {chat_id} to reply to")
        message = chat.add_message(
            sender=GROUP_ANONYMOUS_BOT if anonymous else user.as_dict(),
            sender_chat=chat.as_dict() if anonymous else None,
            text=text, entities=(user_entities(text) or None) if text else None,
            reply_to=target, service=service or {},
        )
        if self._bot_sees(chat, message):
            await self.enqueue_update({"message": message.as_dict()})
        else:
            await self.notify()
        return message

    @staticmethod
    def _check_can_write(user: SimUser, chat: ChatState, *, anonymous: bool) -> None:
        if chat.is_private:
            raise PermissionError(f"user {user.id} cannot write in the private chat of user {chat.id}")
        if chat.migrated_to is not None:
            raise PermissionError(f"group {chat.id} was upgraded to supergroup {chat.migrated_to}")
        member = chat.members.get(user.id)
        if member is None or not member.is_present:
            raise PermissionError(f"user {user.id} is not a member of chat {chat.id}")
        if anonymous and not member.is_admin:
            raise PermissionError(f"user {user.id} is not an administrator of chat {chat.id}")
        if member.is_admin:
            return
        allowed = chat.permissions.get("can_send_messages", True)
        if member.status == "restricted":
            allowed = allowed and member.permissions.get("can_send_messages", False)
        if not allowed:
            raise PermissionError(f"user {user.id} may not send messages in chat {chat.id}")

    def _bot_sees(self, chat: ChatState, message: StoredMessage) -> bool:
        """Whether Telegram would deliver ``message`` to the bot (privacy mode, membership, blocking)."""
        if chat.is_private:
            return not chat.blocked
        if not chat.bot.is_present:
            return False
        if message.service or not self.privacy_mode or chat.bot.is_admin:
            return True
        command = leading_command(message.text)
        if command is not None:
            return command[1] is None or command[1].lower() == str(self.bot_user["username"]).lower()
        return message.reply_to is not None and message.reply_to.from_bot

    async def press_button(self, user: SimUser, chat_id: int, message_id: int | None, query: str, *,
                           timeout: float = 10.0, wait_answer: bool = True) -> CallbackAnswer | None:
        """Queue a callback query for the inline button ``query`` of a message (the newest with such a
        button if ``message_id`` is None) and wait up to ``timeout`` seconds for answerCallbackQuery.

        Raises LookupError (no such message or button), ValueError (ambiguous or not a callback
        button), PermissionError (user cannot see the chat), TimeoutError (no answer).
        """
        chat = self.chat(chat_id)
        if chat.is_private and chat.id != user.id:
            raise PermissionError(f"user {user.id} cannot see the private chat of user {chat.id}")
        if not chat.is_private and not chat.members.get(user.id, Member("left")).is_present:
            raise PermissionError(f"user {user.id} is not a member of chat {chat.id}")
        if message_id is None:
            message_id, button = self.find_button(chat_id, query)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise LookupError(f"no message {message_id} in chat {chat_id}")
        button = message.find_button(query)
        data = button.get("callback_data")
        if data is None:
            raise ValueError(f"button {button['text']!r} is not a callback button: {button}")
        query_id = str(4_000_000_000_000 + self._next_callback_id)
        self._next_callback_id += 1
        waiter: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
        self.callback_waiters[query_id] = waiter
        await self.enqueue_update({"callback_query": {
            "id": query_id, "from": user.as_dict(), "message": message.as_dict(),
            "chat_instance": chat.chat_instance, "data": data,
        }})
        if not wait_answer:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"the bot did not answer the callback query {data!r} within {timeout} s") from None

    async def set_blocked(self, user: SimUser, blocked: bool) -> None:
        """Block or unblock the bot for ``user``; queues the my_chat_member update Telegram sends."""
        chat = self.private_chat(user, create=True)
        assert chat is not None
        if chat.blocked == blocked:
            return
        chat.blocked = blocked
        old, new = (Member("member"), Member("kicked")) if blocked else (Member("kicked"), Member("member"))
        await self.enqueue_update(
            {"my_chat_member": self._member_update(chat, self.bot_user, old, new, user.as_dict())})

    async def set_membership(self, user: SimUser, chat_id: int, joined: bool) -> None:
        """``user`` joins or leaves group ``chat_id``: a service message (new_chat_members or
        left_chat_member) and, if the bot is an administrator, a chat_member update."""
        chat = self.chat(chat_id)
        if chat.is_private:
            raise ValueError("users join and leave groups only")
        old = chat.members.get(user.id, Member("left"))
        if old.is_present == joined:
            raise ValueError(f"user {user.id} is {'already' if joined else 'not'} in chat {chat_id}")
        if joined and old.status == "kicked":
            raise PermissionError(f"user {user.id} is banned from chat {chat_id}")
        new = chat.members[user.id] = Member("member" if joined else "left")
        me = user.as_dict()
        if chat.bot.is_admin:
            await self.enqueue_update({"chat_member": self._member_update(chat, me, old, new, me)})
        service = {"new_chat_members": [me], "new_chat_member": me, "new_chat_participant": me} if joined \
            else {"left_chat_member": me, "left_chat_participant": me}
        await self.user_message(user, chat_id, service=service)

    # --- the bot's own status ----------------------------------------------------------------------------

    async def change_bot_status(self, chat: ChatState, new: Member, actor: dict[str, Any]) -> None:
        """Set the bot's membership in a group and queue my_chat_member (plus new_chat_members when added)."""
        old, chat.bot = chat.bot, new
        await self.enqueue_update(
            {"my_chat_member": self._member_update(chat, self.bot_user, old, new, actor)})
        if new.is_present and not old.is_present:
            message = chat.add_message(sender=actor, service={
                "new_chat_members": [self.bot_user], "new_chat_member": self.bot_user,
                "new_chat_participant": self.bot_user})
            await self.enqueue_update({"message": message.as_dict()})

    async def set_bot_status(self, chat_id: int, status: str, *, by: SimUser | None = None,
                             **rights: bool) -> None:
        """An administrator (``by``, default the group's creator or first admin) adds, promotes,
        demotes or removes the bot: ``status`` is administrator (``rights`` override the default
        all-granted rights), member, restricted, left or kicked."""
        chat = self.chat(chat_id)
        if by is None:
            admins = sorted(chat.members.items(), key=lambda item: item[1].status != "creator")
            admins = [(uid, m) for uid, m in admins if m.is_admin]
            if not admins:
                raise ValueError(f"chat {chat_id} has no administrator to act; pass by=")
            by = self.users[admins[0][0]]
        member = Member(status)
        member.rights.update(rights)
        if status == "restricted":
            member.permissions.update(can_send_messages=False)
        await self.change_bot_status(chat, member, by.as_dict())

    async def migrate_group(self, chat_id: int, new_chat_id: int, *, by: SimUser) -> ChatState:
        """Upgrade basic group ``chat_id`` to supergroup ``new_chat_id`` as Telegram does: service
        messages with migrate_to_chat_id / migrate_from_chat_id, and 400 with ``migrate_to_chat_id``
        for any later call to the old id."""
        old = self.chat(chat_id)
        if old.type != "group" or new_chat_id in self.chats:
            raise ValueError("only a basic group can migrate, to a new chat id")
        new = ChatState(id=new_chat_id, type="supergroup", title=old.title, bot=copy.deepcopy(old.bot),
                        members=copy.deepcopy(old.members), permissions=dict(old.permissions))
        self.chats[new_chat_id] = new
        old.migrated_to = new_chat_id
        for chat, service in ((old, {"migrate_to_chat_id": new_chat_id}),
                              (new, {"migrate_from_chat_id": chat_id})):
            message = chat.add_message(sender=by.as_dict(), service=service)
            if chat.bot.is_present:
                await self.enqueue_update({"message": message.as_dict()})
        return new

    @staticmethod
    def _member_update(chat: ChatState, subject: dict[str, Any], old: Member, new: Member,
                       actor: dict[str, Any]) -> dict[str, Any]:
        return {"chat": chat.as_dict(), "from": actor, "date": now(),
                "old_chat_member": old.as_dict(subject), "new_chat_member": new.as_dict(subject)}
