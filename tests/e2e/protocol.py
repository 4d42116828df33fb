"""Request and error plumbing of the stand-in Bot API: decoded parameters, API errors, method registry."""

from __future__ import annotations

import builtins
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

METHODS: dict[str, Callable[..., Awaitable[Any]]] = {}
"""Bot API method implementations by lower-cased method name (Telegram ignores the case)."""


def api_method(name: str) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
    """Register the decorated coroutine ``(api, params) -> result`` as Bot API method ``name``."""

    def register(function: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        METHODS[name.lower()] = function
        return function

    return register


class ApiError(Exception):
    """An unsuccessful Bot API answer; HTTP status equals ``code``."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            data["parameters"] = self.parameters
        return data


def bad_request(text: str) -> ApiError:
    return ApiError(400, f"Bad Request: {text}")


def forbidden(text: str) -> ApiError:
    return ApiError(403, f"Forbidden: {text}")


@dataclass
class UploadedFile:
    """A file part of a multipart request."""

    data: bytes
    filename: str | None
    content_type: str | None


class Params:
    """Parameters of one request, whatever its encoding.

    aiogram sends form fields whose values are strings, with nested objects (reply_markup,
    entities, permissions, ...) JSON-encoded; other clients send a JSON body with typed values.
    The accessors accept both.  Missing required or malformed values raise ApiError(400).
    """

    def __init__(self, data: dict[str, Any], files: dict[str, UploadedFile] | None = None) -> None:
        self.data = data
        self.files = files or {}

    def has(self, name: str) -> bool:
        return self.data.get(name) not in (None, "")

    def text(self, name: str, *, required: bool = False) -> str | None:
        value = self.data.get(name)
        if value is None or value == "":
            if required:
                raise bad_request(f"{name} is empty")
            return None
        return value if isinstance(value, str) else json.dumps(value)

    def int(self, name: str, *, required: bool = False) -> int | None:
        value = self.data.get(name)
        if value is None or value == "":
            if required:
                raise bad_request(f"{name} is empty")
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {name} specified") from None

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if isinstance(value, str):
            return value.lower() in ("true", "1")
        return bool(value)

    def json(self, name: str) -> Any:
        value = self.data.get(name)
        if isinstance(value, str):
            if value == "":
                return None
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(f"can't parse {name} JSON object") from None
        return value

    def chat_ref(self, name: str = "chat_id") -> builtins.int | str:  # ``int`` here is the method above
        """A chat identifier: an int, or an ``@username`` string."""
        value = self.data.get(name)
        if value is None or value == "":
            raise bad_request(f"{name} is empty")
        if isinstance(value, str) and value.startswith("@"):
            return value
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request("chat not found") from None

    def loggable(self) -> dict[str, Any]:
        """Decoded parameters for the call log: JSON strings parsed, files summarised."""
        out: dict[str, Any] = {}
        for key, value in self.data.items():
            if isinstance(value, str) and value[:1] in "[{":
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            out[key] = value
        for key, upload in self.files.items():
            out[key] = {"filename": upload.filename, "size": len(upload.data)}
        return out
