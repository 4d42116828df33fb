"""A deadline as the clock time each viewer reads in his own time zone (docs/rules/README.md,
BOT-X03; catalogue §7, "End speech button next to the timer": the timer is the deadline shown
as clock time).

Telegram gives bots no user's time zone, but its ``date_time`` message entity (Bot API HTML:
``<tg-time unix="1700000670" format="T">22:24:30 UTC</tg-time>``) carries a Unix time that
each client renders in its viewer's time zone and locale; format ``T`` is the long time, with
seconds. The tag's text is what a client without the entity shows: the UTC time, marked
"UTC", so it is true everywhere.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from aiogram.utils.text_decorations import html_decoration

if TYPE_CHECKING:
    from .i18n import Gettext

#: seconds: a deadline moved on by less (BOT-X01) leaves the messages showing it as they are;
#: by this much or more they are edited once to show the new end
MOVED_MIN = 2.0
#: the entity's format: the time with seconds (Bot API "date-time entity formatting")
LONG_TIME = "T"


def clock_time(at: datetime) -> str:
    """``at`` (aware) as HTML: a ``<tg-time>`` entity of its Unix time (whole seconds, rounded
    down), its fallback text "HH:MM:SS UTC"."""
    unix = int(at.timestamp())
    fallback = datetime.fromtimestamp(unix, UTC).strftime("%H:%M:%S UTC")
    return html_decoration.date_time(fallback, unix, LONG_TIME)


def until(_: Gettext, at: datetime) -> str:
    """"Until <clock time>." in the locale of ``_`` (gettext)."""
    return _("Until {time}.").format(time=clock_time(at))


__all__ = ["LONG_TIME", "MOVED_MIN", "clock_time", "until"]
