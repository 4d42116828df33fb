"""The Telegram I/O layer: every Bot API call the bot makes goes through here.

* ``sender`` — :class:`~bot.telegram.sender.Sender`, the per-chat queues that merge, fold and
  pace messages; ``lanes`` (its per-chat queues and their workers), ``calls`` (its calls and
  their retries), ``ops`` (the queued operations), ``replace`` (a message replaced by a new
  one), ``state`` (the attributes its parts share);
* ``limits`` — Telegram's rate limits and text lengths (UTF-16 units) in one process,
  ``shared_limits`` — the same limits kept in Redis for many workers;
* ``faults`` — what a failed call means (retry, give up, the chat is gone), ``results`` — Bot API
  answers parsed only when read;
* ``shown`` — the "shown" watermark: which steps' messages have left (re-shown after a crash);
* ``prestart`` — answering the presses queued while the bot was down (stdlib only);
* ``update_context`` — which Telegram update the running code is handling, and when it arrived
  (a callback query's answer window is counted from it).

May import: the standard library, aiogram, redis/limits, and ``bot.storage``/``bot.config``
(below it). It knows no game, no engine rule and no text: callers hand it finished messages.
Importing this package itself is cheap (no aiogram)."""
