"""Text and inline keyboards of the standing messages every mafia preset shows: the lobby, the
table, the turn, the ready gate, the vote and the tied-group vote, the role card, the judge's
console.  Pure functions of the engine state; every string is translatable.  A preset adds its
own lines through the parameters (``extra_lines``, ``mark``), never by a fork here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from enum import Enum
from html import escape

from aiogram.types import InlineKeyboardMarkup

from engine import GameState, Phase, Role, find_ruleset, legal_actions
from engine.mafia.state import Player, VoteRound

from ...ui.callbacks import Act, LobbyAct
from ...ui.deadline_text import clock_time, until
from ...ui.keyboards import InlineKeyboardBuilder, button, markup_of
from ...ui.keyboards import plain_label as _plain_label
from ...ui.names import isolate
from ...ui.scoring import chat_system, system_name
from ...ui.texts import PRESET_NAMES, ROLE_HELP, ROLE_ICONS, ROLE_NAMES, TEAM_NAMES, label
from ...ui.timings import tempo_name
from ..hints import Gettext, NGettext

ROLE_ORDER = (Role.DON, Role.MAFIA, Role.SHERIFF, Role.COMMISSAR, Role.DOCTOR, Role.MANIAC,
              Role.PUTANA, Role.JOURNALIST, Role.SLEEPWALKER, Role.WEREWOLF, Role.COP,
              Role.CIVILIAN)


# --- lobby -----------------------------------------------------------------------------------
def lobby_text(_: Gettext, ngettext: NGettext, st: GameState, timings: str,
               extra_lines: tuple[str, ...] = ()) -> str:
    """The lobby message; ``timings``: the tempo's durations line, ``extra_lines``: the
    preset's own lines (e.g. the forum's optional roles)."""
    rs = find_ruleset(st.ruleset)
    lines = [_("🎲 <b>{preset}</b> — new game").format(preset=_(PRESET_NAMES.get(rs.name, rs.name))),
             ""]
    tempo = st.settings.get("tempo", rs.default_tempo)
    lines.append(_("Tempo: {tempo} ({timings})").format(tempo=tempo_name(_, tempo),
                                                       timings=timings))
    if "doctor" in rs.default_options:
        lines.append(_("Doctor: {state}").format(
            state=_("on") if st.options.get("doctor", True) else _("off")))
    lines.extend(extra_lines)
    if isinstance(st.settings.get("scoring"), dict):  # SCORE-X22: a club or online game
        lines.append(_("Scoring: {name}").format(name=system_name(_, chat_system(st.settings))))
    if st.host:
        lines.append(_("Host: {name}").format(name=isolate(st.host_name)))
    n = len(st.players)
    lines.append("")
    if rs.min_players == rs.max_players:
        lines.append(ngettext("{n} player (exactly {max} needed):",
                              "{n} players (exactly {max} needed):", n).format(n=n, max=rs.max_players))
    else:
        lines.append(ngettext("{n} player (from {min} to {max}):", "{n} players (from {min} to {max}):",
                              n).format(n=n, min=rs.min_players, max=rs.max_players))
    for i, p in enumerate(st.players.values(), start=1):
        lines.append(f"{i}. {isolate(p.name)}")
    lines.append("")
    lines.append(_("Press «Join»: the bot opens your private chat with it, where you will get "
                   "your role."))
    return "\n".join(lines)


def lobby_keyboard(_: Gettext, game_id: int, join_url: str, host_url: str) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.row(button(text=_("➕ Join"), url=join_url),
           button(text=_("➖ Leave"), callback_data=LobbyAct(g=game_id, a="leave").pack()))
    kb.row(button(text=_("▶️ Start"), callback_data=LobbyAct(g=game_id, a="start").pack()),
           button(text=_("✖️ Cancel"), callback_data=LobbyAct(g=game_id, a="cancel").pack()))
    kb.row(*[button(text=tempo_name(_, t),
                                  callback_data=LobbyAct(g=game_id, a="tempo", v=t).pack())
             for t in ("short", "normal", "detailed")])
    kb.row(button(text=_("🎩 Be the host"), url=host_url))
    return kb.as_markup()


# --- table -----------------------------------------------------------------------------------
NIGHTS = (Phase.NIGHT, Phase.READY)


def table_text(_: Gettext, st: GameState, mark: Callable[[GameState, int], str] | None = None,
               nights: tuple[Enum, ...] = NIGHTS) -> str:
    """The pinned table; ``mark(st, uid)``: a preset's extra mark after a living player;
    ``nights``: the phases headed as the night (a preset adds its own)."""
    if st.phase is Phase.ENDED:
        head = _("🏁 <b>Game over</b>")
    elif st.phase in nights:
        head = _("🌙 <b>Night {n}</b>").format(n=st.night)
    else:
        morning = st.phase is Phase.LAST_WORD and st.after_last_words == "day"
        head = _("☀️ <b>Day {n}</b>").format(n=st.day + 1 if morning else max(st.day, 1))
    mafia = sum(1 for p in st.seated() if p.role in (Role.MAFIA, Role.DON))  # a turned Werewolf
    # stays a secret (FORUM-Q20)
    counts = Counter(p.role for p in st.seated())
    in_play = ", ".join(f"{_(ROLE_NAMES[r])}" + (f" ×{counts[r]}" if counts[r] > 1 else "")
                        for r in ROLE_ORDER if counts[r] and r is not Role.CIVILIAN)
    lines = [head, _("Mafia: {n} · in play: {roles}").format(n=mafia, roles=in_play)]
    if st.host:
        lines.append(_("Host: {name}").format(name=isolate(st.host_name)))
    lines.append("")
    for p in st.seated():
        extra = "" if p.alive else " ☠️"
        if p.alive and not p.active:
            extra = " 💤"
        if mark is not None and p.alive:
            extra += mark(st, p.user_id)
        name = label(st, p.user_id)
        lines.append(f"<s>{name}</s>{extra}" if not p.alive else name + extra)
    if st.pause:
        lines.append("")
        lines.append(_("⏸ Paused") if st.pause.reason != "host_lost"
                     else _("⏸ Waiting for the host"))
    return "\n".join(lines)


def table_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup | None:
    if st.over:
        return None
    if st.pause:
        btn = button(text=_("▶️ Resume"),
                                   callback_data=Act(g=game_id, s=0, a="resume").pack())
    else:
        btn = button(text=_("⏸ Pause"),
                                   callback_data=Act(g=game_id, s=0, a="pause").pack())
    return markup_of([[btn]])


# --- turns -----------------------------------------------------------------------------------
def turn_text(_: Gettext, st: GameState, final: bool = False, at: datetime | None = None) -> str:
    """The current turn's message; ``at`` (aware UTC): its deadline, shown as clock time after
    its length (BOT-X03; no countdown line: the message is edited only when the end moves or
    the turn ends); ``final``: the text the message keeps once the turn is over (no buttons,
    so no hint about them, no deadline)."""
    return _turn_body(_, st, final, None if final else at)


def _turn_body(_: Gettext, st: GameState, final: bool = False, at: datetime | None = None) -> str:
    sp = label(st, st.speaker)
    secs = st.timer.seconds if st.timer else 0
    if st.phase is Phase.SPEECH:
        if st.timer is not None and st.timer.kind == "silenced":  # CLUB-37
            head = _("🤐 Day {day}. {player} has 3 fouls and loses this speech; he may only "
                     "nominate — {s} s.").format(day=st.day, player=sp, s=secs)
        else:
            head = _("🎙 Day {day}. Speech of {player} — {s} s.").format(day=st.day, player=sp, s=secs)
        lines = [_with_end(_, head, at)]
        if st.nominations:
            lines.append(_("Nominated: {list}").format(
                list=", ".join(label(st, u) for u in st.nominations)))
        if st.nominated_in_speech:
            lines.append(_("🎯 {player} nominated {target}. Accepted.").format(
                player=sp, target=label(st, st.nominations[-1])))
        elif final:
            lines.append(_("No nomination in this speech."))
        else:
            lines.append(_("The speaker may nominate one player with the buttons below."))
        return "\n".join(lines)
    if st.phase is Phase.DEFENCE:
        return _with_end(_, _("🛡 Defence of {player} — {s} s.").format(player=sp, s=secs), at)
    return _with_end(_, _("🕯 Last word of {player} — {s} s.").format(player=sp, s=secs), at)


def _with_end(_: Gettext, line: str, at: datetime | None) -> str:
    """``line`` followed by "Until <clock time>." when ``at`` is known (BOT-X03)."""
    return line + " " + until(_, at) if at is not None else line


def turn_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=_("⏹ End speech"), callback_data=Act(g=game_id, s=st.phase_seq, a="end"))
    if st.phase is Phase.SPEECH and st.speaker is not None:
        for uid in legal_actions(st, st.speaker).nominate:
            kb.button(text="🎯 " + _plain_label(st, uid),
                      callback_data=Act(g=game_id, s=st.phase_seq, a="nom",
                                        t=st.players[uid].seat))
    kb.adjust(1, 3)
    return kb.as_markup()


# --- ready gate ------------------------------------------------------------------------------
def ready_text(_: Gettext, st: GameState, at: datetime | None = None) -> str:
    """The ready gate; ``at`` (aware UTC): the end of its wait, when «Continue» comes (BOT-X03)."""
    total = len(st.alive_active())
    ready = sum(1 for p in st.alive_active() if p.user_id in st.ready)
    if st.host:
        return _("🌙 Night {n} is coming. Waiting for the host to start it.").format(n=st.night)
    if st.ready_purpose == "intro":
        lines = [_("🌙 Night 1 — the mafia meets. Everyone: open your private chat with the bot, "
                   "read your role and press «I have read my role».")]
    else:
        lines = [_("🌙 Night {n} is coming. Press «Ready» when you are ready.").format(n=st.night)]
    lines.append(_("Ready: {r}/{t}").format(r=ready, t=total))
    waiting = [label(st, p.user_id) for p in st.alive_active() if p.user_id not in st.ready]
    if waiting:
        lines.append(_("Waiting for: {list}").format(list=", ".join(waiting)))
    if st.continue_allowed:
        lines.append(_("The wait is over: any player may press «Continue»."))
    elif at is not None and st.timer is not None and st.timer.kind == "ready_wait":
        lines.append(_("At {time} any player may press «Continue».").format(time=clock_time(at)))
    return "\n".join(lines)


def ready_keyboard(_: Gettext, game_id: int, st: GameState, bot_url: str
                   ) -> InlineKeyboardMarkup | None:
    """The gate's buttons: «Open the bot» before night 1 (the roles are read there), «Ready»
    before later nights -- none with a host, whose «Next» replaces readiness (PARTY-Q14, X27)
    -- and «Continue» once the wait is over (PARTY-39); None when there is no button."""
    kb = InlineKeyboardBuilder()
    if st.ready_purpose == "intro":
        kb.row(button(text=_("📩 Open the bot"), url=bot_url))
    elif not st.host:
        kb.row(button(text=_("✅ Ready"),
                                    callback_data=Act(g=game_id, s=st.phase_seq, a="ready").pack()))
    if st.continue_allowed:
        kb.row(button(text=_("▶️ Continue"),
                                    callback_data=Act(g=game_id, s=st.phase_seq, a="cont").pack()))
    markup = kb.as_markup()
    return markup if markup.inline_keyboard else None


# --- voting ----------------------------------------------------------------------------------
def current_vote(st: GameState) -> VoteRound:
    """The running vote round (``st.vote``: set through the voting phases). Raises
    ValueError when no vote runs."""
    if st.vote is None:
        raise ValueError("no vote is running")
    return st.vote


def dealt_role(p: Player) -> Role:
    """The role of a seated player (dealt at the start). Raises ValueError before the
    deal."""
    if p.role is None:
        raise ValueError(f"player {p.user_id} has no role yet")
    return p.role


def vote_text(_: Gettext, st: GameState, final: bool = False) -> str:
    vote = current_vote(st)
    revote = vote.previous_tie is not None
    lines = [_("🗳 <b>Revote</b> among the tied:") if revote else _("🗳 <b>Vote</b>. Candidates in order:")]
    for i, c in enumerate(vote.candidates):
        voters = [v for v, t in vote.votes.items() if t == c]
        pointer = "▶️ " if i == vote.index and not final else ""
        names = ", ".join(f"№{st.players[v].seat}" for v in sorted(voters, key=lambda u: st.players[u].seat))
        lines.append(f"{pointer}{label(st, c)} — {len(voters)}" + (f": {names}" if names else ""))
    if not final:
        lines.append("")
        if find_ruleset(st.ruleset).vote_style == "club":  # CLUB-24
            lines.append(_("One vote per player; a vote not cast goes to the last nominee."))
        else:
            lines.append(_("One vote per player in this round; a vote not cast is lost."))
    return "\n".join(lines)


def vote_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    c = current_vote(st).current
    kb = InlineKeyboardBuilder()
    kb.button(text=_("👎 Against {player}").format(player=_plain_label(st, c)),
              callback_data=Act(g=game_id, s=st.phase_seq, a="vote", t=st.players[c].seat))
    return kb.as_markup()


def exclude_text(_: Gettext, st: GameState, result: tuple | None = None) -> str:
    m = len(st.alive_active())
    needed = m // 2 + 1
    names = ", ".join(label(st, u) for u in st.exclude_candidates)
    yes = [label(st, u) for u, v in st.exclude_votes.items() if v]
    no = [label(st, u) for u, v in st.exclude_votes.items() if not v]
    lines = [_("⚖️ The tie did not change. Eliminate all of them: {list}?").format(list=names),
             _("It takes {needed} «yes» votes.").format(needed=needed if result is None else result[1]),
             _("Yes ({n}): {list}").format(n=len(yes), list=", ".join(yes) or "—"),
             _("No ({n}): {list}").format(n=len(no), list=", ".join(no) or "—")]
    return "\n".join(lines)


def exclude_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=_("✅ Yes"), callback_data=Act(g=game_id, s=st.phase_seq, a="exy"))
    kb.button(text=_("❌ No"), callback_data=Act(g=game_id, s=st.phase_seq, a="exn"))
    return kb.as_markup()


# --- private ---------------------------------------------------------------------------------
def role_card(_: Gettext, st: GameState, uid: int, title: str) -> str:
    p = st.players[uid]
    role = dealt_role(p)
    lines = [_("🎭 Your role: {icon} <b>{role}</b>").format(icon=ROLE_ICONS[role],
                                                           role=_(ROLE_NAMES[role])),
             _("Team: {team}").format(team=_(TEAM_NAMES[role.team])),
             _("Your seat: №{seat} in «{chat}».").format(seat=p.seat, chat=escape(title)),
             "", _(ROLE_HELP[role]), "",
             _("Keep your role secret until the end of the game.")]
    return "\n".join(lines)


def phase_name(_: Gettext, st: GameState) -> str:
    """A short name of the running phase, for the host's console."""
    names: dict[Enum, str] = {
        Phase.READY: _("the ready gate before night {n}"), Phase.NIGHT: _("night {n}"),
        Phase.SPEECH: _("speeches of day {d}"), Phase.DEFENCE: _("defences of day {d}"),
        Phase.VOTING: _("the vote of day {d}"), Phase.EXCLUDE_VOTE: _("the vote on the tied group"),
        Phase.LAST_WORD: _("a last word"),
    }
    text = names.get(st.phase, _("day {d}"))
    return text.format(n=st.night, d=max(st.day, 1))
