"""The forum preset's button codes (docs/rules/forum.md): the Cop's cover, the Maniac's and
the Putana's night actions, the side choice, the Journalist's pair, last-word extras, the host's
decision and moderation, the bonus round and the best-player vote.  The two-step choices — the
Journalist's pair and the bonus round's form — are collected in ``g.refs`` until complete."""

from __future__ import annotations

from engine import (
    ChooseSide,
    ComparePlayers,
    DecideBonusRound,
    Disqualify,
    GuessRoles,
    HostDecide,
    IssueWarning,
    NameSuspect,
    NightAction,
    NotAllowed,
    RevealCheck,
    Role,
    Team,
    VoteBestPlayer,
)

from ...ui import drafts
from ..mafia.codec import MafiaCodec, Press, need
from .views import legal_actions, next_role

#: the side buttons' ``t``
SIDES = {1: "town", 2: "mafia"}


class ForumCodec(MafiaCodec):
    PHASE_BOUND = MafiaCodec.PHASE_BOUND | {
        "block", "slay", "infect", "side", "cmp", "sus", "rchk", "hd", "bon", "boff", "bg", "bgs",
        "bgx", "best"}
    CONFIRM = {**MafiaCodec.CONFIRM, "block": "👮", "slay": "🔪", "infect": "💋", "side": "✅",
               "sus": "🎯", "rchk": "🔎", "hd": "⚖️", "bon": "🎲", "boff": "⏭", "bgs": "📨",
               "bgx": "⏭", "best": "🏅", "warn": "❗", "dq": "🟥"}
    TARGETED = MafiaCodec.TARGETED | {"block", "slay", "infect", "sus", "rchk", "best", "warn",
                                      "dq"}
    OPTIONAL_TARGET = frozenset({"hd"})
    JUDGE = frozenset({"warn", "dq", "?dq", "cx", "nop"})  # ?dq asks, cx cancels, nop: «·»

    COMMANDS = {
        **MafiaCodec.COMMANDS,
        "block": lambda uid, target, data: NightAction(user_id=uid, action="block", target=target),
        "slay": lambda uid, target, data: NightAction(user_id=uid, action="slay", target=target),
        "infect": lambda uid, target, data:
            NightAction(user_id=uid, action="infect", target=target),
        "side": lambda uid, target, data: ChooseSide(user_id=uid, side=Team(SIDES[data.t]))
        if data.t in SIDES else None,
        "sus": lambda uid, target, data: NameSuspect(user_id=uid, target=need(target)),
        "rchk": lambda uid, target, data: RevealCheck(user_id=uid, target=need(target)),
        "hd": lambda uid, target, data: HostDecide(user_id=uid, target=target),
        "bon": lambda uid, target, data: DecideBonusRound(user_id=uid, start=True),
        "boff": lambda uid, target, data: DecideBonusRound(user_id=uid, start=False),
        "best": lambda uid, target, data: VoteBestPlayer(user_id=uid, target=need(target)),
        "warn": lambda uid, target, data: IssueWarning(user_id=uid, player=need(target)),
        "dq": lambda uid, target, data: Disqualify(user_id=uid, player=need(target)),
    }

    async def run(self, press: Press) -> str:
        if press.data.a in ("cmp", "bg", "bgs", "bgx"):
            return await self.draft(press)
        if press.data.a in ("?dq", "cx", "nop", "dq"):
            return await self.removal(press)
        return await super().run(press)

    async def removal(self, press: Press) -> str:
        """The panel's 🟥 asks first (``?dq``; issue 20: one tap removed a player), «✅ Confirm»
        (``dq``, also the Mini App's, which asks in the page) removes, «✖ Cancel» (``cx``) goes
        back. Only the host, or a group admin where there is none (the handler checks that)."""
        _, data, st, g, uid = press._, press.data, press.st, press.g, press.user_id
        if st.host is not None and uid != st.host:
            raise NotAllowed("only the host removes")
        asked = g.refs.get(f"ask:console:{uid}")
        if data.a == "nop":
            return _("Press ✅ Confirm or ✖ Cancel.") if asked else "·"
        if data.a == "cx":
            press.presenter.ask_moderation(g, _, st, uid, None)
            return _("Cancelled.")
        if data.a == "?dq":
            if not any(p.seat == data.t for p in st.alive()):
                return _("You can't choose that player now.")
            press.presenter.ask_moderation(g, _, st, uid, data.t)
            return _("Press ✅ Confirm or ✖ Cancel.")
        if asked is not None:
            press.presenter.ask_moderation(g, _, st, uid, None)  # the grid again, whatever comes
        return await super().run(press)

    async def draft(self, press: Press) -> str:
        """The two-step choices kept as drafts (bot/ui/drafts.py, durable) until complete: the
        Journalist's pair (``cmp``: the first tap, then the second sends ``ComparePlayers``) and the bonus
        round's form (``bg`` cycles a player's role, ``bgs`` sends it, ``bgx`` sends no guess).
        Raises IllegalCommand as the engine does."""
        g, st, uid, data, _ = press.g, press.st, press.user_id, press.data, press._
        la = legal_actions(st, uid)
        if data.a in ("bgs", "bgx"):
            draft = drafts.bonus(g, uid) if data.a == "bgs" else {}
            guesses = tuple((t, Role(r)) for t, r in draft.items())
            await press.service.execute(g.id, GuessRoles(user_id=uid, guesses=guesses))
            return self.CONFIRM[data.a]
        target = press.target()
        if target is None:
            return _("You can't choose that player now.")
        if data.a == "bg":
            if target not in la.bonus_guess:
                return _("You can't choose that player now.")
            draft = drafts.bonus(g, uid)
            draft[target] = next_role(st, uid, draft.get(target))
            drafts.set_bonus(g, uid, draft)
            press.service.persist_ui_soon(g)
            press.presenter.forum_bonus_dm(g, _, st, uid)
            return "🎲"
        if target not in la.compare:
            return _("You can't choose that player now.")
        first = drafts.pair_first(g, uid)
        if first is None or first == target:
            # the first tap, or the first tapped again: taken back
            drafts.set_pair_first(g, uid, target if first is None else None)
            press.service.persist_ui_soon(g)
            press.presenter.forum_night_dm(g, _, st, uid)
            return "📰"
        await press.service.execute(g.id, ComparePlayers(user_id=uid, first=first, second=target))
        drafts.set_pair_first(g, uid, None)
        press.service.persist_ui_soon(g)
        return "📰"
