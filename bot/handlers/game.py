"""In-game buttons and commands: every inline keyboard press of a running game, /pause,
/resume, /next, /away, /back, /takehost."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from engine import HostNext, IllegalCommand, MarkActive, MarkInactive, TakeOver, game_of

from ..games import CONFIRM, bot_game
from ..games.spec import BotGame, Press
from ..ui.callbacks import Act, Pressed
from ..ui.replies import answering
from .common import author, chat_locale, is_chat_admin, refusal, refuse, reply

if TYPE_CHECKING:
    from engine.core.events import EventLike

    from ..presentation.presenter import Presenter
    from ..services.game_service import GameService, LiveGame
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})
__all__ = ["CONFIRM", "router"]  # CONFIRM: every game's confirmations (tests/e2e read it)


def router() -> Router:
    r = Router(name="game")
    r.callback_query.register(game_button, Pressed(Act))
    r.message.register(pause_cmd, Command("pause"))
    r.message.register(resume_cmd, Command("resume"))
    r.message.register(next_cmd, Command("next"))
    r.message.register(away_cmd, Command("away"))
    r.message.register(back_cmd, Command("back"))
    r.message.register(takehost_cmd, Command("takehost"), GROUPS)
    return r


async def game_button(query: CallbackQuery, callback_data: Act, bot: Bot, service: GameService,
                      tr: Translator, presenter: Presenter, callback_answer: CallbackAnswer) -> None:
    """Validate a press against the current phase, then let the game's codec run it
    (design.md §5; the codes are the game's own: ``bot/games/<name>/codec.py``)."""
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
    game: BotGame = bot_game(st.ruleset)
    codec = game.codec
    if callback_data.a in codec.PHASE_BOUND and callback_data.s != st.phase_seq:
        callback_answer.text = _("This button is out of date.")
        return
    if callback_data.a in codec.JUDGE and st.host is None \
            and not await is_chat_admin(bot, g.chat_id, uid):  # CLUB-41, CLUB-Q08
        callback_answer.text = _("Only the host or a group admin can give fouls.")
        return
    press = Press(g=g, user_id=uid, data=callback_data, st=st, service=service,
                  presenter=presenter.game(st.ruleset), _=_)
    try:
        callback_answer.text = await codec.run(press)
    except IllegalCommand as exc:
        callback_answer.text = refusal(tr, g.locale, exc)


async def _game_of(message: Message, service: GameService) -> int | None:
    if message.chat.type == "private":
        return await service.game_for_user(author(message).id)
    return await service.game_for_chat(message.chat.id)


async def _run(message: Message, service: GameService, tr: Translator, sender: Sender,
               make: Callable[[LiveGame], Awaitable[object]]) -> None:
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
        refuse(sender, message, refusal(tr, g.locale, exc))  # repeats: once a minute (issue 20)
        return
    if message.chat.type == "private":  # its effect is told in the group: say so here
        _ = tr.get(g.locale)
        reply(sender, message, _("Done: the group has been told."))


async def pause_cmd(message: Message, service: GameService, tr: Translator, sender: Sender) -> None:
    await _run(message, service, tr, sender, lambda g: service.pause(g.id, author(message).id))


async def resume_cmd(message: Message, service: GameService, tr: Translator, sender: Sender) -> None:
    await _run(message, service, tr, sender, lambda g: service.execute(
        g.id, lambda live: game_of(live.state).resume(author(message).id)))


async def next_cmd(message: Message, service: GameService, tr: Translator, sender: Sender) -> None:
    await _run(message, service, tr, sender,
               lambda g: service.execute(g.id, HostNext(user_id=author(message).id)))


async def away_cmd(message: Message, service: GameService, tr: Translator, sender: Sender) -> None:
    uid = author(message).id
    await _run(message, service, tr, sender,
               lambda g: service.execute(g.id, MarkInactive(user_id=uid, player=uid, reason="away")))


async def back_cmd(message: Message, service: GameService, tr: Translator, sender: Sender) -> None:
    uid = author(message).id

    async def back(g: LiveGame) -> list[EventLike]:
        g.refs[f"back:{uid}"] = True  # the presenter: a /back of his own, not just a press
        try:
            return await service.execute(  # NOIR: ReturnToGame
                g.id, lambda live: game_of(live.state).back(live.state, uid) or MarkActive(user_id=uid))
        finally:
            g.refs.pop(f"back:{uid}", None)

    await _run(message, service, tr, sender, back)


async def takehost_cmd(message: Message, bot: Bot, service: GameService, tr: Translator,
                       sender: Sender) -> None:
    """PARTY-Q22: a group admin takes the game rights (and ends host mode)."""
    uid = author(message).id
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
