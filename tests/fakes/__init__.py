"""Test doubles for Telegram: an in-process Bot API session and builders of incoming updates."""

from tests.fakes.calls import Call, CallLog, FailRule, button_data, buttons
from tests.fakes.session import RecordingSession, make_bot
from tests.fakes.telegram import (
    BLOCKED,
    BOT_USERNAME,
    CANT_INITIATE,
    CHAT_NOT_FOUND,
    KICKED,
    MESSAGE_TO_EDIT_NOT_FOUND,
    MIGRATED,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    TEST_TOKEN,
    member_dict,
    plain_text,
)
from tests.fakes.updates import GROUP_ANONYMOUS_BOT_ID, FakeUser, Updates

__all__ = [
    "BLOCKED",
    "BOT_USERNAME",
    "CANT_INITIATE",
    "CHAT_NOT_FOUND",
    "GROUP_ANONYMOUS_BOT_ID",
    "KICKED",
    "MESSAGE_TO_EDIT_NOT_FOUND",
    "MIGRATED",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "TEST_TOKEN",
    "Call",
    "CallLog",
    "FailRule",
    "FakeUser",
    "RecordingSession",
    "Updates",
    "button_data",
    "buttons",
    "make_bot",
    "member_dict",
    "plain_text",
]
