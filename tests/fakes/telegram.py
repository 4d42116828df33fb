"""Bot API facts the fakes reproduce: error descriptions, chat member shapes, the HTML subset."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

TEST_TOKEN = "123456:TEST-TOKEN-NOT-REAL"
BOT_USERNAME = "mafia_test_bot"
BOT_FIRST_NAME = "Mafia Test Bot"

# Descriptions exactly as the Bot API words them.
BLOCKED = "Forbidden: bot was blocked by the user"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
KICKED = "Forbidden: bot was kicked from the supergroup chat"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CHAT_NOT_FOUND = "Bad Request: chat not found"
MESSAGE_TO_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"

DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    403: BLOCKED,
    404: "Not Found",
    409: "Conflict: terminated by other getUpdates request",
    429: "Too Many Requests: retry after {retry_after}",
    500: "Internal Server Error",
}

_TAG = re.compile(r"<[^>]+>")


def plain_text(text: str, *, strict: bool = True, isolates: bool = False) -> str:
    """What Telegram shows for HTML ``text``: tags dropped, entities unescaped, and (unless
    ``isolates``) the invisible bidi isolation marks around user names (U+2066..U+2069,
    bot/ui/names.py) dropped, so tests compare what users read; the raw request text keeps them.

    With ``strict``, malformed HTML raises :class:`EntityError` like Telegram's "can't parse
    entities" (this is what an unescaped user name such as ``Bob <b>`` causes)."""
    if strict:
        HtmlChecker().check(text)
    shown = html.unescape(_TAG.sub("", text))
    return shown if isolates else shown.translate(_NO_ISOLATES)


_NO_ISOLATES = {0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None}


class EntityError(ValueError):
    """Malformed HTML; ``str()`` is the Bot API description."""


class HtmlChecker(HTMLParser):
    """Validates Telegram's HTML subset: known tags only, properly nested and closed."""

    ALLOWED = frozenset(
        {
            "b",
            "strong",
            "i",
            "em",
            "u",
            "ins",
            "s",
            "strike",
            "del",
            "span",
            "tg-spoiler",
            "a",
            "tg-emoji",
            "code",
            "pre",
            "blockquote",
            "tg-time",
        }
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []

    def check(self, text: str) -> None:
        self.feed(text)
        self.close()
        if self.open:
            self._fail(f'Can\'t find end tag corresponding to start tag "{self.open[-1]}"')

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.ALLOWED:
            self._fail(f'Unsupported start tag "{tag}"')
        if tag == "tg-time":  # a date_time entity: a Unix time, the Bot API's format letters
            given = dict(attrs)
            if not re.fullmatch(r"[0-9]{1,12}", given.get("unix") or ""):
                self._fail("Invalid unix time in the tag")
            if given.get("format") is not None and \
                    not re.fullmatch(r"r|w?[dD]?[tT]?", given["format"] or ""):
                self._fail("Invalid date-time format in the tag")
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self._fail(f'Unmatched end tag "{tag}"')
        self.open.pop()

    @staticmethod
    def _fail(reason: str) -> None:
        raise EntityError(f"Bad Request: can't parse entities: {reason}")


_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
    "can_send_welcome_messages",
)
_MEMBER_PERMISSIONS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)


def member_dict(user: dict[str, Any], status: str, **fields: Any) -> dict[str, Any]:
    """JSON shape of a ChatMember with ``status``; admins get full rights, the restricted none,
    unless ``fields`` override them."""
    member: dict[str, Any] = {"status": status, "user": user}
    if status == "creator":
        member["is_anonymous"] = False
    elif status == "administrator":
        member.update({"can_be_edited": False, "is_anonymous": False})
        member.update(dict.fromkeys(_ADMIN_RIGHTS, True))
    elif status == "restricted":
        member.update({"is_member": True, "until_date": 0})
        member.update(dict.fromkeys(_MEMBER_PERMISSIONS, False))
    elif status == "kicked":
        member["until_date"] = 0
    elif status not in {"member", "left"}:
        raise ValueError(f"unknown chat member status {status!r}")
    member.update(fields)
    return member
