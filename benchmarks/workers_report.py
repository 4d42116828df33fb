"""Text report of ``python -m benchmarks --workers N`` (:mod:`benchmarks.workers_bench`)."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from bot.telegram.limits import GLOBAL_RATE, GROUP_RATE, PRIVATE_RATE

from .figures import percentile
from .workers_bench import HEALTH_CHECK, PLAYERS
from .workers_figures import WorkersRun
from .workers_table import BUTTON_WAIT


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report_workers(run: WorkersRun, seed: int) -> str:
    finished = run.games - run.unfinished
    winners = ", ".join(f"{team} {n}" for team, n in sorted(run.winners.items())) or "none"
    hook, answer = run.webhook_latency, run.answer_latency
    rate = ("the Sender's group rate lifted to "
            f"{run.group_rate[0]} per {run.group_rate[1]:.0f} s in each worker"
            if run.group_rate else "the Sender's own rates")
    if run.killed is None:
        kill = "no kill (one worker)" if run.workers == 1 else "no kill"
    elif run.takeover is None:
        kill = f"worker {run.killed} SIGKILLed at {run.killed_after:.1f} s: NOT taken over"
    else:
        kill = (f"{run.takeover:.2f} s (worker {run.killed}, holding {run.killed_shards} of the "
                f"shards, SIGKILLed {run.killed_after:.1f} s into the games; LEASE_SECONDS "
                f"{run.lease_seconds:g})")
    group = run.group_rate or GROUP_RATE
    limits = (f"{group[0]} per group in {group[1]:g} s, {PRIVATE_RATE[0]} per private chat "
              f"in {PRIVATE_RATE[1]:g} s, {GLOBAL_RATE[0]} per second")
    lines = [
        f"mafia-bot benchmark: {run.games} party games × {PLAYERS} players over {run.workers} "
        f"webhook worker process{'es' if run.workers != 1 else ''} (Redis, PostgreSQL), seed {seed}",
        f"  store: {make_url(run.db_url).render_as_string(hide_password=True)}",
        "stand-in Bot API → webhook POST (round robin over the workers) → Redis stream of the "
        "shard → its owner → Telegram calls; the players press the buttons the bot sent",
        f"  games                 {finished}/{run.games} finished (winners: {winners}) in "
        f"{run.wall:.1f} s wall",
        f"  updates               {run.updates:,} acknowledged in {run.wall:.1f} s → "
        f"{run.updates / max(run.wall, 1e-9):.1f} updates/s handled by all workers "
        f"({run.failed_posts} POSTs refused or failed and delivered again"
        + (f"; the dead worker left the rotation {HEALTH_CHECK:.0f} s after the kill)"
           if run.killed else ")"),
        f"  webhook answer        p50 {_ms(percentile(hook, 50))}, p99 {_ms(percentile(hook, 99))}, "
        f"max {_ms(max(hook, default=0.0))} (the stand-in's POST to its 2xx)",
        f"  update-to-answer      p50 {_ms(percentile(answer, 50))}, "
        f"p99 {_ms(percentile(answer, 99))}, max {_ms(max(answer, default=0.0))} "
        f"({run.presses:,} button presses to their answerCallbackQuery)",
        f"  takeover              {kill}",
        f"  lost commands         {run.lost} ({run.unanswered} presses never answered, "
        f"{run.unfinished} games without a result, {run.pending_at_end} updates never "
        f"acknowledged)",
        f"  duplicated commands   {run.duplicated} ({run.answered_twice} presses answered twice, "
        f"{run.doubled_commands} log rows repeating a command of the same update)",
        f"  429 Too Many Requests {run.too_many_requests} ({run.too_many_private} in private "
        f"chats; the stand-in refuses what exceeds Telegram's limits: {limits})",
        f"  duplicate group msgs  {run.duplicate_group_messages} (a group message sent again "
        f"with the same text and buttons: a step shown twice)",
        f"  shards moved          {run.shards_moved} ({run.shards_moved_from_living} from a "
        f"living worker; {run.killed_shards if run.killed else 0} held by the killed one)",
        f"  buttons never sent    {run.missing} (a player waited {BUTTON_WAIT:.0f} s for a button "
        f"in vain, then for the phase's timer, which moved the game on)",
        f"  busiest group minute  {run.busiest_group_minute} calls in one group's busiest 60 s "
        f"across all workers (Telegram's limit {GROUP_RATE[0]}; {rate})",
        f"  busiest bot second    {run.busiest_bot_second} calls in any 1 s, all chats, all "
        f"workers (Telegram's limit {GLOBAL_RATE[0]}); {run.busiest_bot_second_sent} without "
        f"answerCallbackQuery, which aiogram sends itself, outside the Sender",
        f"  benchmark process     {run.bench_cpu:.1f} CPU s (the stand-in Bot API and the "
        f"players, who read the game log before each step: a closed loop, each table waits for "
        f"every answer)",
        "per worker             received  handled   CPU s    RSS MiB (peak)",
    ]
    for w in run.per_worker:
        lines.append(f"  {w.name:<6} pid {w.pid:<8} {w.received:>7,} {w.handled:>8,} "
                     f"{w.cpu:>7.2f} {w.rss / 2**20:>8.0f} ({w.peak_rss / 2**20:.0f})"
                     + ("  SIGKILLed (figures at the kill)" if w.killed else ""))
    lines.append("  received: webhook POSTs it answered 2xx; handled: updates of the shards it "
                 "held when they were acknowledged; CPU s: user + system while the games were played "
                 "(start-up left out)")
    if run.failures or run.problems or run.missing_notes or run.duplicate_notes:
        lines.append("problems")
        lines += [f"  {f}" for f in run.failures]
        lines += [f"  sent again: {n}" for n in run.duplicate_notes[:5]]
        lines += [f"  {n}" for n in run.missing_notes[:5]]
        if run.problems:
            lines.append(f"  the workers logged {len(run.problems)} warning(s) or error(s):")
            lines += [f"    {p[:300]}" for p in run.problems[:8]]
    return "\n".join(lines)
