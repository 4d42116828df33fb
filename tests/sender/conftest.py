"""The Sender's fixtures: a recording session, an injected sleep and a factory of Senders
(closed after the test)."""

from __future__ import annotations

import pytest

from bot.telegram.sender import Sender
from tests.fakes import RecordingSession, make_bot
from tests.sender.support import UNLIMITED, ManualSleep


@pytest.fixture
def session() -> RecordingSession:
    return RecordingSession()


@pytest.fixture
def sleeper() -> ManualSleep:
    return ManualSleep()


@pytest.fixture
async def make_sender(session, sleeper):
    senders: list[Sender] = []

    def factory(**overrides) -> Sender:
        options = {**UNLIMITED, "sleep": sleeper, **overrides}
        sender = Sender(make_bot(session), **options)
        senders.append(sender)
        return sender

    yield factory
    for sender in senders:
        await sender.close(timeout=1.0)
