"""Secrets out of the server's logs (docs/miniapp.md): the stream's ticket rides in its URL
(``EventSource`` sends no headers), which aiohttp's access log writes whole; and aiohttp's own 400
for an oversize header line quotes the line's start -- for ``Authorization: tma <initData>``, the
user's signed ``initData``. :func:`install` puts a :class:`Redact` filter on both loggers."""

from __future__ import annotations

import logging
import re

#: ``ticket=<value>`` in a logged URL (up to the next ``&``, space or quote)
TICKET = re.compile(r"(ticket=)[^&\s\"']+")
#: what a redacted value becomes
HIDDEN = "<hidden>"
#: aiohttp's loggers: the access log, and the server's "Error handling request"
LOGGERS = ("aiohttp.access", "aiohttp.server")


def scrub(text: str) -> str:
    """``text`` with every ``ticket=`` value replaced by :data:`HIDDEN`."""
    return TICKET.sub(r"\g<1>" + HIDDEN, text)


class Redact(logging.Filter):
    """Rewrites a record in place (never drops it): ``ticket=`` values in its message and in
    its string ``extra`` fields (aiohttp's access log passes the request line as one); a
    record with an HTTP parser error (a 400 before any handler ran) keeps its message and the
    error's class and status but loses the traceback, whose text quotes the raw header line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "ticket=" in record.msg:
            record.msg = scrub(record.msg)
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            if any(isinstance(a, str) and "ticket=" in a for a in args):
                record.args = tuple(scrub(a) if isinstance(a, str) else a for a in args)
        for key, value in list(vars(record).items()):
            if isinstance(value, str) and "ticket=" in value and key not in ("msg",):
                setattr(record, key, scrub(value))
            elif isinstance(value, dict) and any(isinstance(v, str) and "ticket=" in v
                                                 for v in value.values()):
                setattr(record, key, {k: scrub(v) if isinstance(v, str) else v
                                      for k, v in value.items()})
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and _parser_error(exc):
            status = getattr(exc, "code", 400)
            record.msg = f"{record.getMessage()}: {type(exc).__name__} ({status})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def _parser_error(exc: BaseException) -> bool:
    """An HTTP parser's refusal (aiohttp's ``HttpProcessingError`` family: a header or line too
    long, a bad header): its message may quote the request's raw bytes."""
    from aiohttp.http_exceptions import HttpProcessingError

    return isinstance(exc, HttpProcessingError)


def install() -> None:
    """Put one :class:`Redact` filter on each of aiohttp's loggers (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, Redact) for f in logger.filters):
            logger.addFilter(Redact())


__all__ = ["HIDDEN", "Redact", "install", "scrub"]
