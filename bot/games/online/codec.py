"""The online preset's button codes: the open ballot's taps (``tv``, t=0: PASS, ONLINE-19), the
lift decision (ONLINE-24), the checks, and the best move's three picks (ONLINE-08), collected
tap by tap before they go to the engine at once."""

from __future__ import annotations

from engine import ChooseBestMove, IllegalCommand, NightAction, TapLift, TapVote

from ...ui import drafts
from ..mafia.codec import MafiaCodec, Press
from .views import legal_actions


class OnlineCodec(MafiaCodec):
    PHASE_BOUND = MafiaCodec.PHASE_BOUND | {"scheck", "dcheck", "tv", "lift", "leave", "bm",
                                            "bmx"}
    CONFIRM = {**MafiaCodec.CONFIRM, "scheck": "⭐", "dcheck": "🎩", "tv": "🗳", "lift": "⬆️",
               "leave": "⬇️", "bmx": "⏭"}
    TARGETED = MafiaCodec.TARGETED | {"scheck", "dcheck"}
    OPTIONAL_TARGET = frozenset({"tv"})

    COMMANDS = {
        **MafiaCodec.COMMANDS,
        "scheck": lambda uid, target, data:
            NightAction(user_id=uid, action="sheriff_check", target=target),
        "dcheck": lambda uid, target, data:
            NightAction(user_id=uid, action="don_check", target=target),
        "tv": lambda uid, target, data:
            TapVote(user_id=uid, target=target),  # t=0: PASS (ONLINE-19)
        "lift": lambda uid, target, data: TapLift(user_id=uid, lift=True),
        "leave": lambda uid, target, data: TapLift(user_id=uid, lift=False),
        "bmx": lambda uid, target, data: ChooseBestMove(user_id=uid, targets=()),
    }

    async def run(self, press: Press) -> str:
        if press.data.a == "bm":
            return await self.best_move_pick(press)
        return await super().run(press)

    async def best_move_pick(self, press: Press) -> str:
        """ONLINE-08: the victim taps three names one by one (a draft, bot/ui/drafts.py, kept with
        the game until the third), then the three go to the engine at once. Raises
        IllegalCommand as the engine does."""
        g, st, uid, _ = press.g, press.st, press.user_id, press._
        if st.speaker != uid:
            return _("It's not your turn.")
        target = press.target()
        if target is None or target not in legal_actions(st, uid).best_move:
            return _("You can't choose that player now.")  # himself, the dead: refused at once
        service = press.service
        picked = drafts.best_move(g)
        if target in picked:
            picked.remove(target)
        else:
            picked.append(target)
        if len(picked) == 3:
            try:
                await service.execute(g.id, ChooseBestMove(user_id=uid, targets=tuple(picked)))
            except IllegalCommand:
                picked.remove(target)  # keep the first two picks
                drafts.set_best_move(g, picked)
                service.persist_ui_soon(g)
                raise
            return "🎯"
        drafts.set_best_move(g, picked)
        service.persist_ui_soon(g)
        press.presenter.refresh_best_move(g, st, uid)
        return _("{n} of 3 chosen.").format(n=len(picked))
