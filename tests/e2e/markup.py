"""Text and keyboard rules of the stand-in Bot API: HTML parse mode, entities, inline keyboards.

The stand-in is deliberately strict where Telegram is strict, so that an e2e run catches the bugs
the real server would reject: an unescaped ``<`` in a user name, an unknown tag, a ``callback_data``
over 64 bytes, a keyboard over 100 buttons.  Offsets and lengths of entities are in UTF-16 code
units, as in the Bot API.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_INLINE_BUTTONS = 100

BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


class MarkupError(ValueError):
    """A text or keyboard Telegram would refuse; ``str(error)`` is the Bot API description."""


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (the unit of entity offsets)."""
    return len(text.encode("utf-16-le")) // 2


# --- HTML parse mode ----------------------------------------------------------------------------

_TAG_RE = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)"
    r"((?:\s+[a-zA-Z_][-a-zA-Z0-9_]*(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*>"
)
_ATTR_RE = re.compile(r"([a-zA-Z_][-a-zA-Z0-9_]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_CHAR_REF_RE = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_NAMED_REFS = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}


def _byte_offset(source: str, index: int) -> int:
    return len(source[:index].encode("utf-8"))


def _unescape_attr(value: str | None) -> str | None:
    if value is None:
        return None
    if value[:1] in "\"'":
        value = value[1:-1]
    return _CHAR_REF_RE.sub(_char_ref, value)


def _char_ref(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _NAMED_REFS:
        return _NAMED_REFS[name]
    code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
    return chr(code) if 0 < code <= 0x10FFFF else match.group(0)


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram-flavoured HTML into ``(plain_text, entities)``.

    Raises MarkupError("can't parse entities: ...") for an unsupported tag, a stray ``<``,
    a mismatched or unclosed tag, or an ``<a>`` without ``href``.
    """
    out: list[str] = []
    length = 0  # UTF-16 length of the text produced so far
    stack: list[dict[str, Any]] = []  # open tags: {"tag", "entity" or None, "start"}
    entities: list[dict[str, Any]] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "&":
            ref = _CHAR_REF_RE.match(source, i)
            piece = _char_ref(ref) if ref else "&"
            i = ref.end() if ref else i + 1
        elif char == "<":
            tag = _TAG_RE.match(source, i)
            if tag is None:
                word = re.match(r"</?([^\s<>]*)", source[i:])
                name = word.group(1) if word else ""
                msg = (f'can\'t parse entities: Unsupported start tag "{name}" '
                       f'at byte offset {_byte_offset(source, i)}')
                raise MarkupError(msg)
            closing, name, attrs = tag.group(1) == "/", tag.group(2).lower(), tag.group(3)
            at = _byte_offset(source, i)
            i = tag.end()
            if closing:
                if not stack or stack[-1]["tag"] != name:
                    msg = f'can\'t parse entities: Unexpected end tag at byte offset {at}'
                    raise MarkupError(msg)
                opened = stack.pop()
                entity = opened["entity"]
                if entity is not None and length > opened["start"]:
                    entity["offset"], entity["length"] = opened["start"], length - opened["start"]
                    entities.append(entity)
                continue
            entity = _open_tag(name, dict(
                (key.lower(), _unescape_attr(value)) for key, value in _ATTR_RE.findall(attrs)
            ) if attrs else {}, at, stack)
            stack.append({"tag": name, "entity": entity, "start": length})
            continue
        else:
            piece = char
            i += 1
        out.append(piece)
        length += utf16_len(piece)
    if stack:
        msg = f'can\'t parse entities: Can\'t find end tag corresponding to start tag "{stack[-1]["tag"]}"'
        raise MarkupError(msg)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _open_tag(
    name: str, attrs: dict[str, str | None], at: int, stack: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The entity a start tag opens (filled in on its end tag); None for no entity."""
    if name == "code" and stack and stack[-1]["tag"] == "pre":
        language = attrs.get("class") or ""
        if language.startswith("language-") and stack[-1]["entity"] is not None:
            stack[-1]["entity"]["language"] = language[len("language-"):]
            return None
    if name in _SIMPLE_TAGS:
        return {"type": _SIMPLE_TAGS[name]}
    if name == "span" and attrs.get("class") == "tg-spoiler":
        return {"type": "spoiler"}
    if name == "a":
        href = attrs.get("href")
        if not href:
            msg = f"can't parse entities: Can't find href for the tag at byte offset {at}"
            raise MarkupError(msg)
        return {"type": "text_link", "url": href}
    if name == "blockquote":
        return {"type": "expandable_blockquote" if "expandable" in attrs else "blockquote"}
    if name == "tg-emoji" and attrs.get("emoji-id"):
        return {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}
    if name == "tg-time":
        return _date_time(attrs, at)
    msg = f'can\'t parse entities: Unsupported start tag "{name}" at byte offset {at}'
    raise MarkupError(msg)


#: the Bot API's "date-time entity formatting": relative, or weekday / date / time parts
DATE_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")


def _date_time(attrs: dict[str, str | None], at: int) -> dict[str, Any]:
    """The ``date_time`` entity of ``<tg-time unix="…" format="…">``: ``unix`` a whole number
    of seconds, ``format`` (optional) as the Bot API specifies it."""
    unix, fmt = attrs.get("unix") or "", attrs.get("format")
    if not re.fullmatch(r"[0-9]{1,12}", unix):
        msg = f"can't parse entities: Invalid unix time in the tag at byte offset {at}"
        raise MarkupError(msg)
    if fmt is not None and not DATE_TIME_FORMAT.fullmatch(fmt):
        msg = f"can't parse entities: Invalid date-time format in the tag at byte offset {at}"
        raise MarkupError(msg)
    entity: dict[str, Any] = {"type": "date_time", "unix_time": int(unix)}
    if fmt:
        entity["date_time_format"] = fmt
    return entity


def render_text(
    text: str | None, parse_mode: str | None, entities: list[dict[str, Any]] | None, *, limit: int
) -> tuple[str, list[dict[str, Any]] | None]:
    """Apply a parse mode the way Telegram does before storing a message.

    Returns ``(text, entities or None)``.  Raises MarkupError for an empty text, a text over
    ``limit`` characters, or invalid HTML.  MarkdownV2/Markdown texts are stored verbatim
    (the bot under test is expected to use HTML).
    """
    text = text or ""
    if parse_mode and parse_mode.upper() == "HTML":
        text, parsed = parse_html(text)
        entities = parsed or None
    elif parse_mode and parse_mode.lower() not in ("markdown", "markdownv2"):
        msg = f"unsupported parse_mode {parse_mode!r}"
        raise MarkupError(msg)
    if not text.strip():
        raise MarkupError("message text is empty")
    if len(text) > limit:
        raise MarkupError("message is too long" if limit == MAX_TEXT_LENGTH
                          else "message caption is too long")
    return text, entities or None


# --- Entities of user messages --------------------------------------------------------------------

_COMMAND_RE = re.compile(r"(?<![\w/@])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w@])")
_MENTION_RE = re.compile(r"(?<![\w@/])@[A-Za-z0-9_]{5,32}(?!\w)")


def user_entities(text: str) -> list[dict[str, Any]]:
    """The entities a Telegram client attaches to a typed text: bot commands and @mentions."""
    found = [("bot_command", m) for m in _COMMAND_RE.finditer(text)]
    found += [("mention", m) for m in _MENTION_RE.finditer(text)]
    found.sort(key=lambda item: item[1].start())
    return [
        {"type": kind, "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group(0))}
        for kind, m in found
    ]


def leading_command(text: str | None) -> tuple[str, str | None] | None:
    """``("cmd", "botname" or None)`` if ``text`` starts with a bot command, else None."""
    match = _COMMAND_RE.match(text or "")
    if match is None:
        return None
    command, _, mention = match.group(0)[1:].partition("@")
    return command.lower(), (mention or None)


# --- Keyboards -------------------------------------------------------------------------------------


def inline_keyboard(reply_markup: Any) -> dict[str, Any] | None:
    """Validate ``reply_markup`` and return it if it is an inline keyboard (else None).

    Raises MarkupError with Telegram's description for an invalid inline keyboard.
    """
    if not isinstance(reply_markup, dict) or "inline_keyboard" not in reply_markup:
        return None
    rows = reply_markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise MarkupError("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
    if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS:
        raise MarkupError("reply markup is too long")
    for row in rows:
        for button in row:
            _check_button(button)
    rows = [row for row in rows if row]
    return {"inline_keyboard": rows} if rows else None


def _check_button(button: Any) -> None:
    if not isinstance(button, dict) or not button.get("text"):
        raise MarkupError("can't parse inline keyboard button: "
                          "Text buttons are unallowed in the inline keyboard")
    actions = [key for key in BUTTON_ACTIONS if button.get(key) is not None]
    if len(actions) != 1:
        raise MarkupError("can't parse inline keyboard button: "
                          "Text buttons are unallowed in the inline keyboard")
    data = button.get("callback_data")
    if data is not None and not 1 <= len(str(data).encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES:
        raise MarkupError("BUTTON_DATA_INVALID")
    url = button.get("url")
    if url is not None and not re.match(r"^(https?|tg)://\S+$", str(url)):
        raise MarkupError(f"inline keyboard button URL '{url}' is invalid: Wrong HTTP URL")
