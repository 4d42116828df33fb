"""Text report of a full-stack run and its bare-aiogram replay."""

from __future__ import annotations

from collections import Counter

from sqlalchemy.engine import make_url

from bot.telegram.limits import GROUP_RATE

from .bare import BareRun
from .figures import max_in_window, mean, peak_rss_mb, percentile
from .stack import StackRun

KINDS = ("group", "private", "callback", "other")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _safe_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def report_stack(run: StackRun, bare: BareRun | None, seed: int) -> str:
    n_updates = len(run.recorder.updates)
    lat = run.recorder.latencies
    finished = sum(1 for t in run.tables if t.finished)
    per_game = {k: mean([t.calls[k] for t in run.tables]) for k in KINDS}
    total = sum(per_game.values())
    limit, window = GROUP_RATE
    busiest = [max_in_window(t.group_times, window) for t in run.tables]
    top = max(range(len(busiest)), key=lambda i: busiest[i][0]) if busiest else 0
    winners = ", ".join(f"{team} {n}" for team, n in sorted(run.winners.items())) or "none"
    refused = sum(t.refused for t in run.tables)
    presses = sum(t.presses for t in run.tables)
    lines = [
        f"mafia-bot benchmark: {run.games} concurrent {run.preset} games × {run.players} players, "
        f"seed {seed}",
        f"  store: {_safe_url(run.db_url)}",
        "full stack (Dispatcher.feed_update → handlers → GameService → engine → storage → "
        "presenter → Sender → fake Bot API)",
        f"  games                 {finished}/{run.games} finished (winners: {winners}); "
        f"{mean([t.ended_at or 0 for t in run.tables]) / 60:.1f} min of game time on average",
        f"  updates               {n_updates:,} in {run.wall:.2f} s wall → "
        f"{n_updates / max(run.wall, 1e-9):,.0f} updates/s "
        f"({sum(lat) / max(run.wall, 1e-9):.1f} updates in flight on average; "
        f"{sum(t.deadlines_fired for t in run.tables):,} deadlines fired besides)",
        f"  CPU                   {run.cpu:.2f} s → {_ms(run.cpu / max(n_updates, 1))} per update "
        f"(players' simulation and deadlines included)",
        f"  the bot's own CPU     {_ms((run.cpu - run.outside_cpu) / max(n_updates, 1))} per update "
        f"(less {_ms(run.outside_cpu / max(n_updates, 1))} of the fake Bot API server and the "
        f"players' planning and update building)",
        f"  group commit          {run.commits[1]:,} log writes in {run.commits[0]:,} transactions "
        f"({run.commits[1] / max(run.commits[0], 1):.1f} per transaction)",
        *run.sql.lines(n_updates),
        f"  update latency        p50 {_ms(percentile(lat, 50))}, p99 {_ms(percentile(lat, 99))}, "
        f"max {_ms(max(lat, default=0.0))} (time of one dp.feed_update; {run.games} "
        f"game{'s' if run.games != 1 else ''} played at once)",
        f"  Telegram API calls    {total:.1f} per game = group {per_game['group']:.1f} + "
        f"private {per_game['private']:.1f} + callback answers {per_game['callback']:.1f} "
        f"+ other {per_game['other']:.1f} (getMe, getChatMember)",
        f"  group calls / {window:.0f} s    max {busiest[top][0] if busiest else 0} in any {window:.0f} s "
        f"of game time (table {top + 1} at minute {busiest[top][1] / 60 if busiest else 0:.1f}: "
        f"{_window_mix(run, top, window)}); mean of the per-game max "
        f"{mean([b[0] for b in busiest]):.1f}",
        f"                        the Telegram limit is {limit} per group per minute (edits count "
        f"too); the sender's limits were lifted, so nothing was queued, merged or coalesced",
        *message_lines(run, window),
        f"  button presses        {presses:,} ({refused} refused"
        + (f": {dict(_top_refusals(run))}" if refused else "")
        + f", {sum(t.missing for t in run.tables)} planned presses found no button)",
    ]
    if bare is not None:
        b_lat = bare.latencies
        lines += [
            "bare aiogram (the same recorded updates, a Dispatcher with trivial handlers for the "
            "same filters: Command, CallbackData, chat type)",
            f"  updates               {len(b_lat):,} in {bare.wall:.2f} s → "
            f"{len(b_lat) / max(bare.wall, 1e-9):,.0f} updates/s ({bare.handled:,} matched a handler)",
            f"  update latency        p50 {_ms(percentile(b_lat, 50))}, "
            f"p99 {_ms(percentile(b_lat, 99))}",
            f"  CPU                   {_ms(bare.cpu / max(len(b_lat), 1))} per update; the bot's own "
            f"CPU per update is {_cpu_ratio(run, bare):.1f}× bare routing's (whole process: "
            f"{run.cpu / max(n_updates, 1) / max(bare.cpu / max(len(b_lat), 1), 1e-9):.1f}×)",
            f"  our stack's overhead  p50 +{_ms(percentile(lat, 50) - percentile(b_lat, 50))}, "
            f"p99 +{_ms(percentile(lat, 99) - percentile(b_lat, 99))} per update",
        ]
    lines += [
        "memory",
        f"  peak RSS              {peak_rss_mb():.0f} MiB (whole process, aiogram included)",
        f"  per-game state        {mean([t.state_bytes for t in run.tables]) / 1024:.1f} KiB "
        f"in memory (largest GameState seen, mean over games); log "
        f"{mean(run.log_commands):.0f} commands, {mean(run.log_bytes) / 1024:.1f} KiB of JSON "
        f"(commands + events) per game",
    ]
    if run.failures or run.logged:
        lines.append("problems")
        lines += [f"  {f}" for f in run.failures]
        if run.logged:
            lines.append(f"  logged: {dict(run.logged)}")
            lines += [f"    {s}" for s in run.log_samples]
    return "\n".join(lines)


GROUP_SENDS = ("sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup")
GROUP_EDITS = ("editMessageText", "editMessageReplyMarkup", "editMessageCaption",
               "editMessageMedia")


def message_lines(run: StackRun, window: float = 60.0) -> list[str]:
    """Calls per game by kind and by method, and each group's busiest ``window`` and mean per
    minute of game time (the demand: the sender's limits are lifted in the benchmark)."""
    if not run.tables:
        return []
    n = len(run.tables)

    def per_game(kind: str, methods: tuple[str, ...] | None = None) -> float:
        return sum(c for t in run.tables for (k, m), c in t.methods.items()
                   if k == kind and (methods is None or m in methods)) / n

    sends, edits = per_game("group", GROUP_SENDS), per_game("group", GROUP_EDITS)
    methods: Counter[str] = Counter()
    for t in run.tables:
        for (kind, method), count in t.methods.items():
            if kind != "other":
                methods[f"{method} ({kind})"] += count
    busiest = [max_in_window(t.group_times, window)[0] for t in run.tables]
    per_minute = [len(t.group_calls) / max((t.ended_at or 0) / 60, 1e-9) for t in run.tables]
    return [
        f"  calls by kind         group sends {sends:.1f} + group edits {edits:.1f} + other group "
        f"{per_game('group') - sends - edits:.1f} (pins...) + private {per_game('private'):.1f} "
        f"(sends {per_game('private', GROUP_SENDS):.1f}, edits "
        f"{per_game('private', GROUP_EDITS):.1f}) + callback answers {per_game('callback'):.1f} "
        f"per game",
        "  calls by method       " + ", ".join(f"{m} {c / n:.1f}" for m, c in methods.most_common()),
        f"  group demand          busiest {window:.0f} s per group: max {max(busiest)}, mean "
        f"{mean(busiest):.1f}; calls per minute of game time per group: mean "
        f"{mean(per_minute):.1f}, max {max(per_minute):.1f}",
    ]


def _cpu_ratio(run: StackRun, bare: BareRun) -> float:
    """The bot's own CPU per update over bare routing's CPU per update (same updates)."""
    n = max(len(run.recorder.updates), 1)
    return (run.cpu - run.outside_cpu) / n / max(bare.cpu / max(len(bare.latencies), 1), 1e-9)


def _window_mix(run: StackRun, index: int, window: float) -> str:
    """Methods of the calls in table ``index``'s busiest window, most frequent first."""
    if not run.tables:
        return "-"
    table = run.tables[index]
    _count, start = max_in_window(table.group_times, window)
    mix = Counter(m for at, m in table.group_calls if start <= at < start + window)
    return ", ".join(f"{m} {n}" for m, n in mix.most_common())


def _top_refusals(run: StackRun, n: int = 3) -> list[tuple[str, int]]:
    total: dict[str, int] = {}
    for t in run.tables:
        for text, count in t.refusals.items():
            total[text] = total.get(text, 0) + count
    return sorted(total.items(), key=lambda kv: -kv[1])[:n]
