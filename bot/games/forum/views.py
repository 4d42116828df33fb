"""Texts and inline keyboards of the forum preset (docs/rules/forum.md): the lobby's role table,
the night DMs (the Cop's turn, night actions, the side, the Journalist's pair), the ballot, the
last-word extras, the host's panel, the bonus round and the best-player vote.  Pure functions of
the engine state (and of a draft the handler keeps for two-tap choices); every string is
translatable; buttons are built only from ``legal_actions``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine import ForumPhase, GameState, Role, Team, find_ruleset
from engine import legal_actions as engine_actions
from engine.forum import team_chat
from engine.forum.actions import ForumActions
from engine.forum.setup import OPTIONAL_ROLES

from ...ui.callbacks import Act, LobbyAct
from ...ui.deadline_text import until
from ...ui.keyboards import InlineKeyboardBuilder
from ...ui.keyboards import plain_label as _plain_label
from ...ui.texts import ROLE_ICONS, ROLE_NAMES, label
from ..hints import Gettext
from ..mafia.views import current_vote

#: night action -> callback code (bot/games/forum/codec.py)
ACTION_CODES = {"block": "block", "kill": "kill", "check": "check", "heal": "heal",
                "slay": "slay", "infect": "infect"}
#: ``Act.t`` of the side buttons
SIDE_CODES = {1: Team.TOWN, 2: Team.MAFIA}


def legal_actions(st: GameState, uid: int) -> ForumActions:
    """``engine.legal_actions`` of a forum game: the forum's own :class:`ForumActions` (the
    sides, the pair, the day's vote, the host's decision, the bonus round...). Raises
    TypeError for another preset's state."""
    la = engine_actions(st, uid)
    if not isinstance(la, ForumActions):
        raise TypeError(f"not a forum game: {st.ruleset}")
    return la


# --- lobby -----------------------------------------------------------------------------------
def lobby_roles_line(_: Gettext, st: GameState) -> str:
    """The optional roles chosen and, for the current table size, the deal they give."""
    chosen = st.options.get("roles", [])
    names = ", ".join(f"{ROLE_ICONS[OPTIONAL_ROLES[r]]} {_(ROLE_NAMES[OPTIONAL_ROLES[r]])}"
                      for r in OPTIONAL_ROLES if r in chosen) or _("none")
    lines = [_("Optional roles: {list}").format(list=names)]
    n = len(st.players)
    rs = find_ruleset(st.ruleset)
    if n >= rs.min_players:
        try:
            deal = rs.roles_for(n, st.options)
        except Exception:  # BadSetup: too many roles for the table
            lines.append(_("⚠️ {n} players cannot hold these roles and a civilian.").format(n=n))
        else:
            counts: dict[Role, int] = {}
            for r in deal:
                counts[r] = counts.get(r, 0) + 1
            lines.append(_("Deal for {n}: {list}").format(n=n, list=", ".join(
                f"{ROLE_ICONS[r]} {_(ROLE_NAMES[r])}" + (f" ×{k}" if k > 1 else "")
                for r, k in counts.items())))
    else:
        lines.append(_("Mafia by table size: 4–6 → 1, 7–10 → 2, 11–12 → 3."))
    return "\n".join(lines)


def lobby_role_rows(_: Gettext, game_id: int, st: GameState) -> list[list[InlineKeyboardButton]]:
    """Toggle buttons for the optional roles (✅ chosen, ▫️ not), each named, two per row."""
    chosen = st.options.get("roles", [])
    buttons = [InlineKeyboardButton(
        text=("✅ " if name in chosen else "▫️ ") + f"{ROLE_ICONS[role]} {_(ROLE_NAMES[role])}",
        callback_data=LobbyAct(g=game_id, a="role", v=name).pack())
        for name, role in OPTIONAL_ROLES.items()]
    return [buttons[i:i + 2] for i in range(0, len(buttons), 2)]


def toggled_roles(st: GameState, name: str) -> list[str]:
    """The optional roles after toggling ``name`` (kept in the deal order)."""
    chosen = set(st.options.get("roles", []))
    chosen ^= {name}
    return [r for r in OPTIONAL_ROLES if r in chosen]


# --- table -----------------------------------------------------------------------------------
def warnings_mark(st: GameState, uid: int) -> str:
    n = st.forum.warnings.get(uid, 0) if st.forum is not None else 0
    return " " + "❗" * min(n, 5) if n else ""


# --- night -----------------------------------------------------------------------------------
def night_text(_: Gettext, st: GameState, uid: int, first: int | None = None) -> str:
    """``first``: the Journalist's first pick of tonight's pair (kept by the presenter)."""
    p = st.players[uid]
    la = legal_actions(st, uid)
    n = st.night
    lines: list[str] = []
    if st.phase is ForumPhase.COP_TURN:
        if la.night_action == "block":
            return _("👮 Night {n}: you move first. Choose the player who is immune tonight; if "
                     "he is a mafioso, the mafia kill nobody.").format(n=n)
        return _("🌙 Night {n}: the Cop moves first. Your turn comes next.").format(n=n)
    if n <= 1:
        lines.append(_("🌙 Night 1: the acquaintance; nobody acts tonight. Press «Sleep»."))
        if la.choose_side:
            lines.append(_("Choose the side you win with (Town if you do not choose)."))
        elif p.role in (Role.MANIAC, Role.PUTANA) and uid in st.forum.sides:
            lines.append(_("Your side: {side}.").format(side=side_name(_, st.forum.sides[uid])))
        return "\n".join(lines)
    if uid in team_chat(st):
        if st.forum.mafia_blocked:
            lines.append(_("👮 The Cop chose one of the mafia: no kill tonight."))
        else:
            lines.append(_("🕶 Night {n}. Choose the victim together: the kill happens only if "
                           "every mafioso picks the same player.").format(n=n))
            for m in team_chat(st):
                if m == st.forum.revealed:
                    continue
                pick = st.mafia_picks.get(m)
                lines.append(f"{label(st, m)} → {label(st, pick) if pick else '…'}")
    done = st.night_actions.get(uid)
    if done and done[0] != "kill":
        action, target = done
        lines.append({
            "check": _("🔎 You check {player}."), "heal": _("💉 You protect {player}."),
            "slay": _("🔪 You go after {player}."), "infect": _("💋 You visit {player}."),
            "block": _("👮 You cover {player}."),
        }.get(action, _("💤 You sleep. Good night.")).format(player=label(st, target)))
    elif la.compare:
        lines.append(_("📰 Night {n}. Compare two players: tap the first, then the second.")
                     .format(n=n) if first is None else
                     _("📰 First: {player}. Now tap the second.").format(player=label(st, first)))
    elif la.night_action and la.night_action != "kill":
        lines.append({
            "check": _("🔎 Night {n}. Choose a player to check."),
            "heal": _("💉 Night {n}. Choose a player to protect."),
            "slay": _("🔪 Night {n}. Choose your victim."),
            "infect": _("💋 Night {n}. Choose a player to infect."),
        }[la.night_action].format(n=n))
    if not lines:
        lines.append(_("🌙 Night {n}. You sleep. Press «Sleep» so the night can end sooner.")
                     .format(n=n))
    return "\n".join(lines)


def night_keyboard(_: Gettext, game_id: int, st: GameState, uid: int,
                   first: int | None = None) -> InlineKeyboardMarkup | None:
    la = legal_actions(st, uid)
    kb = InlineKeyboardBuilder()
    seq = st.phase_seq
    if la.night_action:
        mine = st.mafia_picks.get(uid)
        for t in la.night_targets:
            mark = "✅ " if la.night_action == "kill" and t == mine else ""
            kb.button(text=mark + _plain_label(st, t), callback_data=Act(
                g=game_id, s=seq, a=ACTION_CODES[la.night_action], t=st.players[t].seat))
    if la.compare:
        for t in la.compare:
            kb.button(text=("✅ " if t == first else "📰 ") + _plain_label(st, t),
                      callback_data=Act(g=game_id, s=seq, a="cmp", t=st.players[t].seat))
    if la.choose_side:
        kb.button(text=_("🏙 Town"), callback_data=Act(g=game_id, s=seq, a="side", t=1))
        kb.button(text=_("🕶 Mafia"), callback_data=Act(g=game_id, s=seq, a="side", t=2))
    if la.sleep:
        kb.button(text=_("💤 Sleep") if not (la.night_action or la.compare) else _("💤 Skip"),
                  callback_data=Act(g=game_id, s=seq, a="sleep"))
    kb.adjust(2)
    markup = kb.as_markup()
    return markup if markup.inline_keyboard else None


def side_name(_: Gettext, side: Team) -> str:
    return _("Town") if side is Team.TOWN else _("Mafia")


# --- the day ---------------------------------------------------------------------------------
def debate_text(_: Gettext, st: GameState, seconds: int | None = None, at: datetime | None = None) -> str:
    """The open discussion; ``seconds``: its length, ``at`` (aware UTC): its end, shown as clock
    time (BOT-X03); the closed discussion's text has neither."""
    ready = sum(1 for p in st.alive_active() if p.user_id in st.ready)
    lines = [_("☀️ <b>Day {n}</b>: the discussion is open to every living player.").format(n=st.day)]
    if seconds:
        line = _("⏱ Up to {s} s; then the vote.").format(s=seconds)
        lines.append(line + " " + until(_, at) if at is not None else line)
    lines.append(_("Ready to vote: {r}/{t}").format(r=ready, t=len(st.alive_active())))
    return "\n".join(lines)


def debate_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=_("✋ Ready to vote"), callback_data=Act(g=game_id, s=st.phase_seq, a="ready"))
    return kb.as_markup()


def ballot_candidates(st: GameState) -> list[int]:
    if st.forum.stage == "revote":
        return [c for c in current_vote(st).candidates if st.is_alive(c)]
    return [p.user_id for p in st.alive()]


def ballot_text(_: Gettext, st: GameState, final: bool = False) -> str:
    stage = st.forum.stage
    head = {"vote": _("🗳 <b>Vote</b>: everybody votes for one other player; you may change "
                      "your vote until the close."),
            "revote": _("🗳 <b>Revote</b> among the tied; they do not vote."),
            "host": _("⚖️ The revote is tied: the host decides.")}.get(stage, _("🗳 <b>Vote</b>"))
    lines = [head, ""]
    vote = current_vote(st)
    votes = vote.votes
    for c in ballot_candidates(st) if stage != "host" else vote.candidates:
        voters = sorted((v for v, t in votes.items() if t == c), key=lambda u: st.players[u].seat)
        names = ", ".join(f"№{st.players[v].seat}" for v in voters)
        lines.append(f"{label(st, c)} — {len(voters)}" + (f": {names}" if names else ""))
    if stage != "host" and not final:
        waiting = [label(st, p.user_id) for p in st.alive_active()
                   if legal_actions(st, p.user_id).day_vote and p.user_id not in votes]
        if waiting:
            lines.append("")
            lines.append(_("Not voted yet: {list}").format(list=", ".join(waiting)))
    return "\n".join(lines)


def ballot_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup | None:
    if st.forum.stage == "host":
        return None
    kb = InlineKeyboardBuilder()
    for c in ballot_candidates(st):
        kb.button(text="🗳 " + _plain_label(st, c),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="vote", t=st.players[c].seat))
    kb.adjust(2)
    return kb.as_markup()


def host_decide_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    decide = legal_actions(st, st.host).host_decide if st.host is not None else ()
    for c in decide:
        kb.button(text="☠️ " + _plain_label(st, c),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="hd", t=st.players[c].seat))
    kb.button(text=_("🕊 Nobody"), callback_data=Act(g=game_id, s=st.phase_seq, a="hd", t=0))
    kb.adjust(1)
    return kb.as_markup()


def last_word_text(_: Gettext, st: GameState, uid: int) -> str:
    la = legal_actions(st, uid)
    lines = [_("🕯 Your last word: write in the group.")]
    if la.suspect:
        lines.append(_("You may name once the player you take for the Mafia (🎯)."))
    if la.reveal_check:
        lines.append(_("You may publish once the answer of one of your checks (🔎)."))
    return "\n".join(lines)


def last_word_keyboard(_: Gettext, game_id: int, st: GameState, uid: int) -> InlineKeyboardMarkup | None:
    la = legal_actions(st, uid)
    kb = InlineKeyboardBuilder()
    for t in la.suspect:
        kb.button(text="🎯 " + _plain_label(st, t),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="sus", t=st.players[t].seat))
    for t in la.reveal_check:
        kb.button(text="🔎 " + _plain_label(st, t),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="rchk", t=st.players[t].seat))
    if la.end_speech:
        kb.button(text=_("⏹ End speech"), callback_data=Act(g=game_id, s=st.phase_seq, a="end"))
    kb.adjust(2)
    markup = kb.as_markup()
    return markup if markup.inline_keyboard else None


# --- moderation ------------------------------------------------------------------------------
def moderation_text(_: Gettext, st: GameState | None = None, asking: int | None = None) -> str:
    """The host's panel; ``asking``: the seat whose removal its 🟥 asked to confirm."""
    if st is not None and asking:
        who = label(st, st.by_seat(asking).user_id)
        return (_("🟥 Disqualify {player}? He leaves the game at once, without a last word.")
                .format(player=who) + "\n" + _("Press ✅ Confirm or ✖ Cancel."))
    return _("⚖️ Moderation: ❗ warns, 🟥 removes (the card is shown, no last word). "
             "/panel shows this again.")


def moderation_keyboard(_: Gettext, game_id: int, st: GameState,
                        asking: int | None = None) -> InlineKeyboardMarkup:
    """One row per living seat (seat-only labels: no user text): ❗ warns, 🟥 asks first
    (``?dq``). While it asks (``asking``: the seat), the grid keeps its shape: that row's 🟥
    becomes «✖ Cancel» (a second tap cancels), its ❗ «✅ Confirm» (``dq``), the rest «·»."""
    kb = InlineKeyboardBuilder()
    for p in st.alive():
        if asking is None:
            n = st.forum.warnings.get(p.user_id, 0) if st.forum is not None else 0
            kb.button(text=f"❗ №{p.seat}" + (f" ({n})" if n else ""),
                      callback_data=Act(g=game_id, s=0, a="warn", t=p.seat))
            kb.button(text=f"🟥 №{p.seat}", callback_data=Act(g=game_id, s=0, a="?dq", t=p.seat))
        elif p.seat == asking:
            kb.button(text=_("✅ Confirm"), callback_data=Act(g=game_id, s=0, a="dq", t=p.seat))
            kb.button(text=_("✖ Cancel"), callback_data=Act(g=game_id, s=0, a="cx"))
        else:
            for _cell in range(2):
                kb.button(text="·", callback_data=Act(g=game_id, s=0, a="nop"))
    kb.adjust(2)
    return kb.as_markup()


# --- after the win ---------------------------------------------------------------------------
def bonus_offer_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=_("🎲 Start the bonus round"),
              callback_data=Act(g=game_id, s=st.phase_seq, a="bon"))
    kb.button(text=_("⏭ Skip"), callback_data=Act(g=game_id, s=st.phase_seq, a="boff"))
    kb.adjust(1)
    return kb.as_markup()


def bonus_text(_: Gettext, st: GameState, draft: dict[int, str]) -> str:
    lines = [_("🎲 Bonus round: guess the survivors' roles. Tap a player to cycle through the "
               "roles, then «Send».")]
    for uid, role in draft.items():
        lines.append(f"{label(st, uid)} — {ROLE_ICONS[Role(role)]} {_(ROLE_NAMES[Role(role)])}")
    return "\n".join(lines)


def bonus_keyboard(_: Gettext, game_id: int, st: GameState, uid: int,
                   draft: dict[int, str]) -> InlineKeyboardMarkup | None:
    la = legal_actions(st, uid)
    if not la.bonus_guess:
        return None
    kb = InlineKeyboardBuilder()
    for t in la.bonus_guess:
        role = draft.get(t)
        mark = f"{ROLE_ICONS[Role(role)]} " if role else "❔ "
        kb.button(text=mark + _plain_label(st, t),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="bg", t=st.players[t].seat))
    kb.adjust(1)
    markup = kb.as_markup()
    markup.inline_keyboard.append([
        InlineKeyboardButton(text=_("📨 Send"), callback_data=Act(
            g=game_id, s=st.phase_seq, a="bgs").pack()),
        InlineKeyboardButton(text=_("⏭ No guess"), callback_data=Act(
            g=game_id, s=st.phase_seq, a="bgx").pack())])
    return markup


def next_role(st: GameState, uid: int, current: str | None) -> str:
    """The role after ``current`` in the roles offered to ``uid`` (cycling)."""
    offered = [r.value for r in legal_actions(st, uid).bonus_roles]
    if current not in offered:
        return offered[0]
    return offered[(offered.index(current) + 1) % len(offered)]


def best_player_keyboard(_: Gettext, game_id: int, st: GameState, uid: int) -> InlineKeyboardMarkup | None:
    kb = InlineKeyboardBuilder()
    for t in legal_actions(st, uid).best_player:
        kb.button(text="🏅 " + _plain_label(st, t),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="best", t=st.players[t].seat))
    kb.adjust(2)
    markup = kb.as_markup()
    return markup if markup.inline_keyboard else None


def guesses_line(_: Gettext, st: GameState, guesses: Iterable[tuple[int, Role]]) -> str:
    return ", ".join(f"{label(st, u)} — {ROLE_ICONS[r]} {_(ROLE_NAMES[r])}" for u, r in guesses) \
        or _("no guess")


