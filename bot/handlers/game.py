"""In-game buttons and commands: every inline keyboard press of a running game, /pause,
/resume, /next, /away, /back, /takehost."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from engine import (
    legal_actions,
    ChooseSide, ComparePlayers, DecideBonusRound, GuessRoles, HostDecide, IssueWarning,
    NameSuspect, RevealCheck, Role, VoteBestPlayer,
    CastExcludeVote, CastVote, ChooseBestMove, Continue, Disqualify, EndSpeech, HostNext,
    IssueFoul, TapLift, TapVote, IllegalCommand, MarkActive,
    MarkInactive, MarkReady, NightAction, Nominate, Resume, TakeOver, Team,
)

from ..callbacks import Act
from .. import drafts
from ..replies import answering
from .common import reply, say, chat_locale, is_chat_admin, refusal

GROUPS = F.chat.type.in_({"group", "supergroup"})
PHASE_BOUND = {"ready", "cont", "end", "nom", "vote", "exy", "exn", "kill", "check", "heal", "sleep",
               "scheck", "dcheck", "tv", "lift", "leave", "bm", "bmx", "next",
               # FORUM (bot/views_forum.py)
               "block", "slay", "infect", "side", "cmp", "sus", "rchk", "hd", "bon", "boff",
               "bg", "bgs", "bgx", "best"}

CONFIRM = {
    "ready": "✅", "cont": "▶️", "end": "⏹", "nom": "🎯", "vote": "🗳", "exy": "✅", "exn": "❌",
    "kill": "🕶", "check": "🔎", "heal": "💉", "sleep": "💤", "pause": "⏸", "resume": "▶️",
    "next": "⏭", "scheck": "⭐", "dcheck": "🎩", "foul": "⚠️", "dq": "🟥", "tv": "🗳",
    "lift": "⬆️", "leave": "⬇️", "bmx": "⏭",
    "block": "👮", "slay": "🔪", "infect": "💋", "side": "✅", "sus": "🎯", "rchk": "🔎",
    "hd": "⚖️", "bon": "🎲", "boff": "⏭", "bgs": "📨", "bgx": "⏭", "best": "🏅", "warn": "❗",
}
#: FORUM: the side buttons' ``t``
SIDES = {1: "town", 2: "mafia"}


def router() -> Router:
    r = Router(name="game")
    r.callback_query.register(game_button, Act.filter())
    r.message.register(pause_cmd, Command("pause"))
    r.message.register(resume_cmd, Command("resume"))
    r.message.register(next_cmd, Command("next"))
    r.message.register(away_cmd, Command("away"))
    r.message.register(back_cmd, Command("back"))
    r.message.register(takehost_cmd, Command("takehost"), GROUPS)
    return r


def _command(data: Act, user_id: int, st):
    a = data.a
    target = None
    if a in ("nom", "vote", "kill", "check", "heal", "scheck", "dcheck", "foul", "dq", "bm",
             "block", "slay", "infect", "sus", "rchk", "best", "warn") \
            or (a in ("tv", "hd") and data.t):
        try:
            target = st.by_seat(data.t).user_id
        except KeyError:
            return None
    return {
        "ready": lambda: MarkReady(user_id=user_id),
        "cont": lambda: Continue(user_id=user_id),
        "end": lambda: EndSpeech(user_id=user_id),
        "nom": lambda: Nominate(user_id=user_id, target=target),
        "vote": lambda: CastVote(user_id=user_id, target=target),
        "exy": lambda: CastExcludeVote(user_id=user_id, yes=True),
        "exn": lambda: CastExcludeVote(user_id=user_id, yes=False),
        "kill": lambda: NightAction(user_id=user_id, action="kill", target=target),
        "check": lambda: NightAction(user_id=user_id, action="check", target=target),
        "heal": lambda: NightAction(user_id=user_id, action="heal", target=target),
        "sleep": lambda: NightAction(user_id=user_id, action="sleep"),
        "scheck": lambda: NightAction(user_id=user_id, action="sheriff_check", target=target),
        "dcheck": lambda: NightAction(user_id=user_id, action="don_check", target=target),
        "foul": lambda: IssueFoul(user_id=user_id, player=target),
        "dq": lambda: Disqualify(user_id=user_id, player=target),
        "tv": lambda: TapVote(user_id=user_id, target=target),  # t=0: PASS (ONLINE-19)
        "lift": lambda: TapLift(user_id=user_id, lift=True),
        "leave": lambda: TapLift(user_id=user_id, lift=False),
        "bmx": lambda: ChooseBestMove(user_id=user_id, targets=()),
        "resume": lambda: Resume(user_id=user_id),
        "next": lambda: HostNext(user_id=user_id),
        "block": lambda: NightAction(user_id=user_id, action="block", target=target),
        "slay": lambda: NightAction(user_id=user_id, action="slay", target=target),
        "infect": lambda: NightAction(user_id=user_id, action="infect", target=target),
        "side": lambda: ChooseSide(user_id=user_id, side=Team(SIDES[data.t]))
        if data.t in SIDES else None,
        "sus": lambda: NameSuspect(user_id=user_id, target=target),
        "rchk": lambda: RevealCheck(user_id=user_id, target=target),
        "hd": lambda: HostDecide(user_id=user_id, target=target),
        "bon": lambda: DecideBonusRound(user_id=user_id, start=True),
        "boff": lambda: DecideBonusRound(user_id=user_id, start=False),
        "best": lambda: VoteBestPlayer(user_id=user_id, target=target),
        "warn": lambda: IssueWarning(user_id=user_id, player=target),
    }.get(a, lambda: None)()


async def game_button(query: CallbackQuery, callback_data: Act, bot: Bot, service, tr, presenter,
                      callback_answer: CallbackAnswer) -> None:
    """Validate a press against the current phase, then run it (design.md §5)."""
    try:
        g = await service.live(callback_data.g)
    except KeyError:
        _ = tr.get(None)
        callback_answer.text = _("This game does not exist any more.")
        return
    _ = tr.get(g.locale)
    st = g.state
    uid = query.from_user.id
    if st is None or st.over:
        callback_answer.text = _("This game is over.")
        return
    if callback_data.a in PHASE_BOUND and callback_data.s != st.phase_seq:
        callback_answer.text = _("This button is out of date.")
        return
    if callback_data.a in ("foul", "dq", "warn") and st.host is None \
            and not await is_chat_admin(bot, g.chat_id, uid):  # CLUB-41, CLUB-Q08
        callback_answer.text = _("Only the host or a group admin can give fouls.")
        return
    try:
        if callback_data.a == "pause":
            await service.pause(g.id, uid)
        elif callback_data.a in ("cmp", "bg", "bgs", "bgx"):
            callback_answer.text = await _forum_draft(g, uid, callback_data, st, service,
                                                      presenter, _)
            return
        elif callback_data.a == "bm":
            callback_answer.text = await _best_move_pick(g, uid, callback_data, st, service,
                                                         presenter, _)
            return
        else:
            cmd = _command(callback_data, uid, st)
            if cmd is None:  # a seat that does not exist: a forged button
                callback_answer.text = _("You can't choose that player now.")
                return
            await service.execute(g.id, cmd)
    except IllegalCommand as exc:
        callback_answer.text = refusal(tr, g.locale, exc)
        return
    callback_answer.text = CONFIRM.get(callback_data.a, "✅")


async def _best_move_pick(g, uid: int, data: Act, st, service, presenter, _) -> str:
    """ONLINE-08: the victim taps three names one by one (a draft, bot/drafts.py, until the
    third), then the three go to the engine at once. Raises IllegalCommand as the engine does."""
    if st.speaker != uid:
        return _("It's not your turn.")
    try:
        target = st.by_seat(data.t).user_id
    except KeyError:
        return _("You can't choose that player now.")
    if target not in legal_actions(st, uid).best_move:  # himself, the dead: refused at once
        return _("You can't choose that player now.")
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
    presenter.refresh_best_move(g, st, uid)
    return _("{n} of 3 chosen.").format(n=len(picked))


async def _forum_draft(g, uid: int, data: Act, st, service, presenter, _) -> str:
    """FORUM two-step choices kept as drafts (bot/drafts.py, durable) until complete: the Journalist's pair
    (``cmp``: the first tap, then the second sends ``ComparePlayers``) and the bonus round's
    form (``bg`` cycles a player's role, ``bgs`` sends it, ``bgx`` sends no guess). Raises
    IllegalCommand as the engine does."""
    from engine import legal_actions
    la = legal_actions(st, uid)
    tr_ = presenter.tr.get(g.locale)
    if data.a in ("bgs", "bgx"):
        draft = drafts.bonus(g, uid) if data.a == "bgs" else {}
        guesses = tuple((t, Role(r)) for t, r in draft.items())
        await service.execute(g.id, GuessRoles(user_id=uid, guesses=guesses))
        return CONFIRM[data.a]
    try:
        target = st.by_seat(data.t).user_id
    except KeyError:
        return _("You can't choose that player now.")
    if data.a == "bg":
        if target not in la.bonus_guess:
            return _("You can't choose that player now.")
        from ..views_forum import next_role
        draft = drafts.bonus(g, uid)
        draft[target] = next_role(st, uid, draft.get(target))
        drafts.set_bonus(g, uid, draft)
        service.persist_ui_soon(g)
        presenter.forum_bonus_dm(g, tr_, st, uid)
        return "🎲"
    if target not in la.compare:
        return _("You can't choose that player now.")
    first = drafts.pair_first(g, uid)
    if first is None or first == target:
        # the first tap, or the first tapped again: taken back
        drafts.set_pair_first(g, uid, target if first is None else None)
        service.persist_ui_soon(g)
        presenter.forum_night_dm(g, tr_, st, uid)
        return "📰"
    await service.execute(g.id, ComparePlayers(user_id=uid, first=first, second=target))
    drafts.set_pair_first(g, uid, None)
    service.persist_ui_soon(g)
    return "📰"


async def _game_of(message: Message, service) -> int | None:
    if message.chat.type == "private":
        return await service.game_for_user(message.from_user.id)
    return await service.game_for_chat(message.chat.id)


async def _run(message: Message, service, tr, sender, make) -> None:
    game_id = await _game_of(message, service)
    if game_id is None:
        _ = tr.get(await chat_locale(service.storage, message.chat.id))
        reply(sender, message, _("You are not in a running game."))
        return
    g = await service.live(game_id)
    try:
        with answering(message):  # what the command causes in the group replies to it
            await make(g)
    except IllegalCommand as exc:
        reply(sender, message, refusal(tr, g.locale, exc))


async def pause_cmd(message: Message, service, tr, sender) -> None:
    await _run(message, service, tr, sender, lambda g: service.pause(g.id, message.from_user.id))


async def resume_cmd(message: Message, service, tr, sender) -> None:
    await _run(message, service, tr, sender,
               lambda g: service.execute(g.id, Resume(user_id=message.from_user.id)))


async def next_cmd(message: Message, service, tr, sender) -> None:
    await _run(message, service, tr, sender,
               lambda g: service.execute(g.id, HostNext(user_id=message.from_user.id)))


async def away_cmd(message: Message, service, tr, sender) -> None:
    uid = message.from_user.id
    await _run(message, service, tr, sender,
               lambda g: service.execute(g.id, MarkInactive(user_id=uid, player=uid, reason="away")))


async def back_cmd(message: Message, service, tr, sender) -> None:
    uid = message.from_user.id
    await _run(message, service, tr, sender, lambda g: service.execute(g.id, MarkActive(user_id=uid)))


async def takehost_cmd(message: Message, bot: Bot, service, tr, sender) -> None:
    """PARTY-Q22: a group admin takes the game rights (and ends host mode)."""
    uid = message.from_user.id
    game_id = await service.game_for_chat(message.chat.id)
    if game_id is None:
        _ = tr.get(await chat_locale(service.storage, message.chat.id))
        reply(sender, message, _("You are not in a running game."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    anonymous = message.sender_chat is not None and message.sender_chat.id == message.chat.id
    if not anonymous and not await is_chat_admin(bot, message.chat.id, uid):
        reply(sender, message, _("Only a group admin can do that."))
        return
    try:
        with answering(message):
            await service.execute(game_id, TakeOver(user_id=uid))
    except IllegalCommand as exc:
        reply(sender, message, refusal(tr, g.locale, exc))
