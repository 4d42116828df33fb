"""Bot API methods of the stand-in for photos: sendPhoto, editMessageMedia, editMessageCaption.

aiogram sends an upload (``BufferedInputFile``, ``FSInputFile``) as a multipart/form-data part
named by a random key and refers to it as ``attach://<key>``, both in a top-level field
(``photo``) and inside the ``media`` JSON of an ``InputMediaPhoto``; a ``file_id`` returned by an
earlier upload works too.  The stand-in keeps the picture as uploaded on the message
(``StoredMessage.photo_bytes``, earlier pictures in ``edits``) so a test can open it with Pillow.

Telegram's rules kept here: a picture must be an image Telegram can decode (else
``IMAGE_PROCESS_FAILED``), at most 10 MB, width + height at most 10000 and a side ratio at most 20
(``PHOTO_INVALID_DIMENSIONS``); in a group, a bot that is not an administrator needs the
``can_send_photos`` permission (the group's, or its own when restricted), else 400 "not enough
rights to send photos to the chat"; a caption is at most 1024 characters after parsing.
Editing a photo to the same picture, caption and keyboard is "message is not modified" (stricter
than Telegram, which may accept a re-upload of the same bytes: the bot should not send it).
"""

from __future__ import annotations

import hashlib
import io
import secrets
from typing import TYPE_CHECKING, Any

from PIL import Image, UnidentifiedImageError

from .markup import MAX_CAPTION_LENGTH
from .messages_api import (
    NOT_MODIFIED,
    check_send_right,
    edit,
    keyboard,
    own_message_to_edit,
    render,
    reply_target,
    sendable_chat,
)
from .model import ChatState
from .protocol import Params, UploadedFile, api_method, bad_request

if TYPE_CHECKING:
    from .fake_api import FakeBotAPI

MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000  # width + height
MAX_PHOTO_RATIO = 20
_SIZES = (90, 320, 800, 1280)  # the longer side of each PhotoSize Telegram makes, at most


# --- shared checks ----------------------------------------------------------------------------------


def check_photo_rights(chat: ChatState) -> None:
    """Raise 400 "not enough rights to send photos to the chat" where the bot may not post photos."""
    check_send_right(chat, "can_send_photos", "photos")


def resolve_upload(api: FakeBotAPI, p: Params, reference: Any, field: str) -> tuple[str, UploadedFile]:
    """``(file_id, upload)`` for ``reference``: ``attach://<part>``, a file part named ``field``,
    or a ``file_id`` of an earlier upload.  New uploads get a new file id in ``api.files``.

    Raises 400 "wrong file identifier/HTTP URL specified" for anything else (URLs included:
    the stand-in downloads nothing)."""
    upload = None
    if isinstance(reference, str) and reference.startswith("attach://"):
        upload = p.files.get(reference[len("attach://"):])
        if upload is None:
            raise bad_request(f"can't find attached file \"{reference[len('attach://'):]}\"")
    elif reference in (None, "") and field in p.files:
        upload = p.files[field]
    if upload is not None:
        file_id = "AgAC" + secrets.token_urlsafe(24)
        api.files[file_id] = upload
        return file_id, upload
    if isinstance(reference, str) and reference in api.files:
        return reference, api.files[reference]
    if reference in (None, ""):
        raise bad_request(f"there is no {field} in the request")
    raise bad_request("wrong file identifier/HTTP URL specified")


def photo_sizes(file_id: str, data: bytes) -> list[dict[str, Any]]:
    """The Bot API ``PhotoSize`` list Telegram would make of ``data``, smallest first.

    Raises 400 ``IMAGE_PROCESS_FAILED`` for bytes that are no image, ``PHOTO_INVALID_DIMENSIONS``
    for sides beyond Telegram's limits, "file is too big" over 10 MB."""
    if len(data) > MAX_PHOTO_BYTES:
        raise bad_request("file is too big")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
            width, height = image.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    if width < 1 or height < 1 or width + height > MAX_PHOTO_SIDES \
            or max(width, height) > MAX_PHOTO_RATIO * min(width, height):
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    unique = hashlib.sha1(data).hexdigest()[:12]
    longest = max(width, height)
    sizes = []
    for n, side in enumerate(_SIZES):
        scale = min(1.0, side / longest)
        sizes.append({"file_id": f"{file_id}_{n}", "file_unique_id": f"AQAD{unique}{n}",
                      "width": max(1, round(width * scale)), "height": max(1, round(height * scale)),
                      "file_size": len(data) if scale == 1.0 else len(data) * side // longest})
        if scale == 1.0:
            break
    sizes[-1]["file_id"] = file_id
    return sizes


def _caption(p: Params, source: dict[str, Any] | None = None
             ) -> tuple[str | None, list[dict[str, Any]] | None]:
    """The parsed caption of a request (or of an ``InputMedia`` object ``source``); (None, None)
    for none."""
    values = Params({**p.data, **source}) if source is not None else p
    if not values.has("caption"):
        return None, None
    return render(values.text("caption"), values, limit=MAX_CAPTION_LENGTH, entities_name="caption_entities")


# --- sending and editing ------------------------------------------------------------------------------


@api_method("sendPhoto")
async def send_photo(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    chat = sendable_chat(api, p, "sendphoto", right="can_send_photos", what="photos")
    file_id, upload = resolve_upload(api, p, p.data.get("photo"), "photo")
    sizes = photo_sizes(file_id, upload.data)
    caption, entities = _caption(p)
    message = chat.add_message(
        sender=api.bot_user, caption=caption, entities=entities, photo=sizes, photo_bytes=upload.data,
        reply_markup=keyboard(p), reply_to=reply_target(chat, p), raw_markup=p.json("reply_markup"),
    )
    return message.as_dict()


@api_method("editMessageMedia")
async def edit_message_media(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Replace a message's photo (or turn a text message into a photo) with its caption and
    keyboard; only ``InputMediaPhoto`` is supported.  Omitted caption or reply_markup remove them."""
    message = own_message_to_edit(api, p)
    media = p.json("media")
    if not isinstance(media, dict):
        raise bad_request("can't parse input media JSON object")
    if media.get("type") != "photo":
        raise bad_request(f"the stand-in edits photos only, not {media.get('type')!r}")
    if message.document is not None:
        raise bad_request("the stand-in does not turn documents into photos")
    check_photo_rights(message.chat)
    if not media.get("media"):
        raise bad_request("MEDIA_EMPTY")
    file_id, upload = resolve_upload(api, p, media["media"], "media")
    sizes = photo_sizes(file_id, upload.data)
    caption, entities = _caption(Params({}, p.files), media)
    markup = keyboard(p)
    if (upload.data, caption, entities, markup) == (message.photo_bytes, message.caption, message.entities,
                                                    message.reply_markup):
        raise bad_request(NOT_MODIFIED)
    edit(message, text=None, caption=caption, entities=entities, photo=sizes, photo_bytes=upload.data,
         reply_markup=markup)
    return message.as_dict()


@api_method("editMessageCaption")
async def edit_message_caption(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    """A new caption (none if omitted) and keyboard of a photo or document message."""
    message = own_message_to_edit(api, p)
    if message.photo is None and message.document is None:
        raise bad_request("there is no caption in the message to edit")
    caption, entities = _caption(p)
    markup = keyboard(p)
    if (caption, entities, markup) == (message.caption, message.entities, message.reply_markup):
        raise bad_request(NOT_MODIFIED)
    edit(message, caption=caption, entities=entities, reply_markup=markup)
    return message.as_dict()
