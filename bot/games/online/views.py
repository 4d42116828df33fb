"""Messages of the online preset: the open ballot (preliminary · / final ✔ taps, PASS), the
lift decision and the best move (docs/rules/online-sport.md).  Pure functions of the state."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup

from engine import GameState, OnlinePhase
from engine import legal_actions as engine_actions
from engine.online import lift_needed
from engine.online.actions import OnlineActions

from ...ui.callbacks import Act
from ...ui.i18n import nget_of
from ...ui.keyboards import InlineKeyboardBuilder
from ...ui.keyboards import plain_label as _plain_label
from ...ui.texts import label
from ..hints import Gettext

PRE, FINAL = "·", "✔"


def legal_actions(st: GameState, uid: int) -> OnlineActions:
    """``engine.legal_actions`` of an online game: the online preset's own
    :class:`OnlineActions` (the open ballot, the lift, the best move). Raises TypeError for
    another preset's state."""
    la = engine_actions(st, uid)
    if not isinstance(la, OnlineActions):
        raise TypeError(f"not an online game: {st.ruleset}")
    return la


def _voters(st: GameState, votes: list[tuple[int, bool]]) -> str:
    return ", ".join(f"№{st.players[v].seat}{FINAL if fin else PRE}"
                     for v, fin in sorted(votes, key=lambda x: st.players[x[0]].seat))


def ballot_text(_: Gettext, st: GameState, final: bool = False) -> str:
    """ONLINE-16..20: the live results, preliminary taps marked · and final ones ✔."""
    b = st.ballot
    if b.stage == "day":
        head = _("☀️ <b>Day {day}</b>: discussion and vote.").format(day=st.day)
        rules = _("Tap a player: the first tap is preliminary (·), the second confirms or changes "
                  "it and is final (✔). PASS abstains; a tap left unconfirmed counts at the end.")
    else:
        head = _("🗳 <b>Revote</b> among {list}.").format(
            list=", ".join(label(st, c) for c in b.candidates))
        rules = _("Only the tied can be chosen; there is no PASS.")
    by_choice: dict = {}
    for voter, (choice, fin) in b.taps.items():
        by_choice.setdefault(choice, []).append((voter, fin))
    lines = [head, ""] if final else [head, rules, ""]
    order = sorted((c for c in by_choice if c is not None), key=lambda c: st.players[c].seat)
    for c in order:
        lines.append(f"{label(st, c)} — {len(by_choice[c])}: {_voters(st, by_choice[c])}")
    if None in by_choice:
        lines.append(_("PASS — {n}: {list}").format(n=len(by_choice[None]),
                                                   list=_voters(st, by_choice[None])))
    if not b.taps:
        lines.append(_("No votes yet."))
    return "\n".join(line for line in lines if line is not None)


def ballot_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    from engine.online import choices

    for uid in choices(st):
        kb.button(text=_plain_label(st, uid),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="tv", t=st.players[uid].seat))
    if st.ballot.stage == "day":
        kb.button(text=_("✋ PASS"), callback_data=Act(g=game_id, s=st.phase_seq, a="tv", t=0))
    kb.adjust(2)
    return kb.as_markup()


def lift_text(_: Gettext, st: GameState) -> str:
    """ONLINE-24, 32: Lift or Leave the tied candidates; ⌊N/2⌋+1 Lift votes lift them."""
    b = st.ballot
    lifts = [(u, fin) for u, (c, fin) in b.taps.items() if c is True]
    leaves = [(u, fin) for u, (c, fin) in b.taps.items() if c is False]
    ngettext = nget_of(_)
    return "\n".join([
        _("⚖️ Lift {list} from the table?").format(list=", ".join(label(st, c) for c in b.candidates)),
        ngettext("It takes {needed} «Lift» vote of {n} players; otherwise they stay and night "
                 "falls.", "It takes {needed} «Lift» votes of {n} players; otherwise they stay "
                 "and night falls.", lift_needed(st)).format(needed=lift_needed(st), n=b.base),
        _("⬆️ Lift ({n}): {list}").format(n=len(lifts), list=_voters(st, lifts) or "—"),
        _("⬇️ Leave ({n}): {list}").format(n=len(leaves), list=_voters(st, leaves) or "—"),
    ])


def lift_keyboard(_: Gettext, game_id: int, st: GameState) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=_("⬆️ Lift"), callback_data=Act(g=game_id, s=st.phase_seq, a="lift"))
    kb.button(text=_("⬇️ Leave"), callback_data=Act(g=game_id, s=st.phase_seq, a="leave"))
    return kb.as_markup()


def best_move_keyboard(_: Gettext, game_id: int, st: GameState, uid: int,
                       picked: list[int]) -> InlineKeyboardMarkup | None:
    """ONLINE-08: tap three players (✅ marks the picks so far), or skip."""
    la = legal_actions(st, uid)
    if st.phase is not OnlinePhase.BEST_MOVE or not la.best_move:
        return None
    kb = InlineKeyboardBuilder()
    for t in la.best_move:
        mark = "✅ " if t in picked else ""
        kb.button(text=mark + _plain_label(st, t),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="bm", t=st.players[t].seat))
    kb.button(text=_("⏭ Skip the best move"), callback_data=Act(g=game_id, s=st.phase_seq, a="bmx"))
    kb.adjust(2)
    return kb.as_markup()
