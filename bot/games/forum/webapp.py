"""The forum preset's live table for the Mini App: the mafia table (the forum shows a leaving
player's card at once, FORUM-Q08, which arrives as a public event) and the forum's own buttons:
the night roles, the side, the Journalist's pair, the day's vote, the last word's suspect and
published check, the host's decision and moderation (FORUM-17, 18), the bonus round's choice and
the best player (docs/rules/forum.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine import GameState, Role, Team
from engine.forum.actions import ForumActions
from engine.mafia.queries import LegalActions

from ...ui import drafts
from ...ui.keyboards import plain_label
from ...ui.texts import ROLE_ICONS, ROLE_NAMES
from ..hints import Gettext
from ..mafia.webapp import Event, MafiaWebView
from ..spec import Viewer, act_of
from .views import bonus_keyboard

if TYPE_CHECKING:
    from ..hints import Live


class ForumWebView(MafiaWebView):
    """The forum's private answers join the shared ones: the Sleepwalker is told the mafiosi
    (``NightWake.mafia``, FORUM-37), the Journalist's comparison (``ComparisonResult``,
    FORUM-34..36: kind 'same', result True / False / None for a shrug), the Commissar's check
    with no answer (``CheckShrugged``, FORUM-47: result None), a published check
    (``CheckRevealed``, FORUM-21, public)."""

    def knowledge(self, st: GameState, viewer: Viewer, events: Sequence[Event]) -> dict:
        known = super().knowledge(st, viewer, events)
        for e in events:
            t = e.get("type")
            if t == "NightWake" and e.get("mafia"):
                for uid in e["mafia"]:
                    known["teams"].setdefault(int(uid), Team.MAFIA)
            elif t == "ComparisonResult":
                known["checks"].append({"checker": self.seat(st, e["checker"]),
                                        "target": self.seat(st, e["first"]),
                                        "second": self.seat(st, e["second"]),
                                        "kind": "same", "result": e["same"]})
            elif t == "CheckShrugged":
                known["checks"].append({"checker": self.seat(st, e["checker"]),
                                        "target": self.seat(st, e["target"]),
                                        "kind": "mafia", "result": None})
            elif t == "CheckRevealed":
                known["checks"].append({"checker": self.seat(st, e["user_id"]),
                                        "target": self.seat(st, e["target"]),
                                        "kind": "mafia", "result": bool(e["is_mafia"]),
                                        "published": True})
        return known

    ACTION_CODES = {**MafiaWebView.ACTION_CODES, "block": ("block", "👮 "),
                    "slay": ("slay", "🔪 "), "infect": ("infect", "💋 ")}

    def own_buttons(self, _: Gettext, st: GameState, viewer: Viewer, la: LegalActions,
                    g: Live | None = None) -> list[dict]:
        out: list[dict] = []
        if not isinstance(la, ForumActions):
            return out  # not a forum game's actions: no forum buttons

        def add(code: str, targets: Iterable[int], prefix: str, kind: str) -> None:
            for uid in targets:
                out.append({"a": code, "t": st.players[uid].seat,
                            "label": prefix + plain_label(st, uid), "kind": kind})

        if la.choose_side:
            out.append({"a": "side", "t": 1, "label": _("🏙 Town"), "kind": "night"})
            out.append({"a": "side", "t": 2, "label": _("🕶 Mafia"), "kind": "night"})
        add("cmp", la.compare, "📰 ", "night")
        add("vote", la.day_vote, "👎 ", "vote")
        add("sus", la.suspect, "🎯 ", "turn")
        add("rchk", la.reveal_check, "🔎 ", "turn")
        if la.host_decide:
            add("hd", la.host_decide, "⚖️ ", "judge")
            out.append({"a": "hd", "t": 0, "label": _("🕊 Nobody"), "kind": "judge"})
        if la.bonus_decide:
            out.append({"a": "bon", "t": 0, "label": _("🎲 Start the bonus round"), "kind": "turn"})
            out.append({"a": "boff", "t": 0, "label": _("⏭ Skip"), "kind": "turn"})
        if la.bonus_guess and g is not None:
            out.extend(self.bonus_form(_, st, viewer, g))
        add("best", la.best_player, "🏅 ", "vote")
        return out

    @staticmethod
    def bonus_form(_: Gettext, st: GameState, viewer: Viewer, g: Live) -> list[dict]:
        """The bonus round's form (FORUM-56, Q23) as the DM shows it (``bonus_keyboard`` of
        his draft, ``bot/ui/drafts.py``): per survivor a ``bg`` button (each tap cycles the guessed
        role), ``bgs`` sends the form, ``bgx`` sends no guess."""
        form = drafts.bonus(g, viewer.user_id)
        markup = bonus_keyboard(_, g.id, st, viewer.user_id, form)
        out = []
        for row in markup.inline_keyboard if markup is not None else ():
            for btn in row:
                act = act_of(btn)
                label = btn.text
                if act.a == "bg":
                    role = form.get(st.by_seat(act.t).user_id)
                    label = plain_label(st, st.by_seat(act.t).user_id) + " — " + (
                        f"{ROLE_ICONS[Role(role)]} {_(ROLE_NAMES[Role(role)])}" if role else "❔")
                out.append({"a": act.a, "t": act.t, "label": label, "kind": "vote"})
        return out

    def judge_buttons(self, _: Gettext, st: GameState) -> list[dict]:
        out = []
        for p in st.alive():
            out.append({"a": "warn", "t": p.seat, "label": f"❗ №{p.seat}", "icon": "❗",
                        "kind": "judge"})
            out.append({"a": "dq", "t": p.seat, "label": f"🟥 №{p.seat}", "icon": "🟥",
                        "kind": "judge"})
        return out


VIEW = ForumWebView()
