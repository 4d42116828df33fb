"""/tournament (issue 22, docs/tournaments.md): create, register (button and deep link), close,
add and withdraw, draw (``[seed]``), schedule, link tables, substitute, standings, export;
/newgame or «▶️ Start round N» in a table's group while a round is due opens that round's lobby
(bot/handlers/tournament_start.py, bot/services/tournaments.py).

``/tournament new <name> [club|online] [games per player] [fiim|plain]`` takes its options as
arguments (the last words that are options; defaults: club, 4, fiim)."""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING, Any

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)
from aiogram.utils.callback_answer import CallbackAnswer

from engine.scoring import find_system
from engine.tournament import BadDraw

from ..services.tournaments import DEFAULT_GAMES, MAX_GAMES, PRESETS, due_round, new_seed, parse_seed
from ..storage import TournamentRecord
from ..ui.callbacks import Pressed, Tour, TourGo
from . import tournament_texts as tx
from .common import (
    Gettext,
    adopt_sender_locale,
    author,
    display_name,
    is_chat_admin,
    is_group_member,
    reply,
    say,
    sender_locale,
)
from .tournament_import import import_tournament
from .tournament_rounds import send_schedule, send_standings
from .tournament_seats import unused_tables_note
from .tournament_settings import add_judge, set_tie_breaks
from .tournament_start import round_due, round_game, start_button, start_markup
from .tournament_tables import gettext_for, known, link_table, may_organise, substitute, target_of, unknown_id

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.tournaments import TournamentService
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})
DEEP_LINK = r"^tour_\d+$"


def router() -> Router:
    r = Router(name="tournament")
    r.message.register(tournament_cmd, Command("tournament"), GROUPS)
    r.message.register(round_game, Command("newgame"), GROUPS, F.text.regexp(r"^/newgame(@\w+)?$"),
                       round_due)
    r.message.register(register_link, CommandStart(deep_link=True, magic=F.args.regexp(DEEP_LINK)),
                       F.chat.type == "private")
    r.callback_query.register(tour_button, Pressed(Tour))
    r.callback_query.register(start_button, Pressed(TourGo))
    return r


def registration_markup(_: Gettext, t: TournamentRecord, presenter: Presenter
                        ) -> InlineKeyboardMarkup | None:
    if t.status == "registration":
        return InlineKeyboardMarkup(inline_keyboard=[
            [InlineKeyboardButton(text=_("📝 Register"), url=presenter.deep_link(f"tour_{t.id}"))],
            [InlineKeyboardButton(text=_("🔒 Close registration"),
                                  callback_data=Tour(a="close", t=t.id).pack())]])
    if t.status == "closed":
        return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=_("🎲 Draw seating"), callback_data=Tour(a="draw", t=t.id).pack())]])
    return None


async def refresh(t: TournamentRecord, storage: Storage, tr: Translator, presenter: Presenter,
                  sender: Sender) -> None:
    """Edit the registration message to the tournament as it is now."""
    mid = t.ui.get("message")
    if not mid:
        return
    _ = (await gettext_for(storage, tr, t.chat_id))[1]
    players = await storage.tournament_players(t.id)
    sender.edit(t.chat_id, int(mid), tx.registration_text(_, t, players),
                registration_markup(_, t, presenter))


class NotSportPreset(ValueError):
    """``/tournament new`` named a preset that plays no tournament (party, forum, NOIR)."""


#: presets a tournament cannot play: named as an option, they are refused, not made a name
OTHER_PRESETS = frozenset({"party", "forum", "noir"})


def parse_new(args: list[str]) -> tuple[str, str, int, str]:
    """(name, preset, games per player, scoring system) of ``/tournament new`` arguments:
    the last words that are options (each kind once: "Cup 2026 4" is «Cup 2026», 4 games),
    the rest the name. ValueError on a bad count; NotSportPreset when the last option word
    names another preset."""
    preset, games, scoring = "club", DEFAULT_GAMES, "fiim"
    words, seen = list(args), set()
    while words:
        w = words[-1].lower()
        if w in OTHER_PRESETS and "preset" not in seen:
            raise NotSportPreset(w)
        kind = "preset" if w in PRESETS else "games" if w.isdigit() else \
            "scoring" if w in ("fiim", "plain") else None
        if kind is None or kind in seen:
            break
        seen.add(kind)
        if kind == "preset":
            preset = w
        elif kind == "games":
            games = int(w) if w.isascii() else 0
            if not 1 <= games <= MAX_GAMES:
                raise ValueError(w)
        else:
            scoring = w
        words.pop()
    return " ".join(words).strip()[:128], preset, games, scoring


async def tournament_cmd(message: Message, command: CommandObject, bot: Bot, storage: Storage,
                         tr: Translator, presenter: Presenter, sender: Sender,
                         tournaments: TournamentService) -> None:
    await adopt_sender_locale(storage, message)
    locale, _ = await gettext_for(storage, tr, message.chat.id)
    args = (command.args or "").split()
    sub = args[0].lower() if args else ""
    uid = author(message).id
    if sub == "new":
        await new_tournament(message, args[1:], bot, storage, _, presenter, sender)
        return
    if sub == "import":
        await import_tournament(message, bot, _, sender, tournaments, locale)
        return
    t = await storage.tournament_for_chat(message.chat.id)
    if sub == "table":
        await link_table(message, args[1:], bot, storage, _, sender)
        return
    if t is None:
        reply(sender, message, _("There is no tournament here. A group admin starts one: "
                                 "/tournament new &lt;name&gt; [club|online] [games] [fiim|plain]."))
        return
    if sub in ("", "standings"):
        await show(message, t, storage, _, sender, tournaments, locale, await start_markup(
            storage, tournaments, _, t, message.chat.id, presenter.tournament_markup(_, t.id)))
        return
    if sub == "schedule":
        schedule = tournaments.schedule(t)
        if schedule is None:
            reply(sender, message, _("The seating is not drawn yet."))
            return
        names = {p.user_id: p.name for p in await storage.tournament_players(t.id, withdrawn=True)}
        if args[1:2] == ["text"]:
            for page in tx.schedule_pages(_, t, schedule, names):
                say(sender, message.chat.id, page)
        else:
            send_schedule(sender, message.chat.id, _, t, schedule, names,
                          presenter.tournament_markup(_, t.id))
        return
    if not await may_organise(bot, t, uid):
        reply(sender, message, _("Only the tournament's organiser, a judge or a group admin "
                                 "can do that."))
        return
    if sub == "close":
        reply(sender, message, await close(t, storage, _, tr, presenter, sender))
    elif sub == "draw":
        reply(sender, message, await do_draw(t, bot, storage, _, tr, presenter, sender,
                                             tournaments, args[1:]))
    elif sub in ("add", "withdraw"):
        reply(sender, message, await add_or_withdraw(message, sub, args[1:], t, bot, storage, _,
                                                     tr, presenter, sender))
    elif sub == "sub":
        reply(sender, message, await substitute(message, args[1:], bot, storage, _, sender,
                                                tournaments, tr, locale))
    elif sub == "export":
        await export(message, t, _, sender, tournaments)
    elif sub == "tiebreaks":
        reply(sender, message, await set_tie_breaks(args[1:], t, storage, _))
    elif sub == "judge":
        reply(sender, message, await add_judge(message, args[1:], t, bot, storage, _))
    else:
        reply(sender, message, _("Unknown /tournament command «{name}». Commands: new, close, "
                                 "add, withdraw, draw, schedule, table, sub, standings, "
                                 "tiebreaks, judge, export, import.").format(name=escape(sub)))


async def new_tournament(message: Message, args: list[str], bot: Bot, storage: Storage,
                         _: Gettext, presenter: Presenter, sender: Sender) -> None:
    uid = author(message).id
    if not await is_chat_admin(bot, message.chat.id, uid):
        reply(sender, message, _("Only a group admin can start a tournament."))
        return
    old = await storage.tournament_for_chat(message.chat.id)
    if old is not None and old.status != "finished":
        reply(sender, message, _("A tournament is already under way in this group: "
                                 "/tournament shows it."))
        return
    try:
        name, preset, games, scoring = parse_new(args)
    except NotSportPreset as error:
        reply(sender, message, _("A tournament plays club or online sport mafia, not «{preset}»: "
                                 "/tournament new &lt;name&gt; [club|online] [games] "
                                 "[fiim|plain].").format(preset=error.args[0]))
        return
    except ValueError:
        reply(sender, message, _("Games per player: a number from 1 to {n}.").format(n=MAX_GAMES)
              + "\n" + _("A name ending in a number takes the games after it: "
                          "/tournament new Cup 2026 4."))
        return
    if not name:
        reply(sender, message, _("Give the tournament a name: /tournament new &lt;name&gt; "
                                 "[club|online] [games] [fiim|plain]."))
        return
    system = find_system(scoring).to_settings()
    t = await storage.create_tournament(message.chat.id, name, preset, games, system, [uid],
                                        uid, new_seed())
    players: list[Any] = []
    sent = await say(sender, message.chat.id, tx.registration_text(_, t, players),
                     registration_markup(_, t, presenter))
    if sent is not None:
        await storage.update_tournament(t.id, ui={**t.ui, "message": sent.message_id})


async def register_link(message: Message, command: CommandObject, bot: Bot, storage: Storage,
                        tr: Translator, presenter: Presenter, sender: Sender) -> None:
    """``/start tour_<id>``: register for the tournament (registration open; members of its
    group only)."""
    user = author(message)
    _ = tr.get(sender_locale(message))
    t = await storage.get_tournament(int((command.args or "").partition("_")[2]))
    if t is None:
        say(sender, message.chat.id, _("This tournament does not exist."))
        return
    if t.status != "registration":
        say(sender, message.chat.id, _("The registration for «{name}» is closed.").format(
            name=escape(t.name)))
        return
    if not await is_group_member(bot, t.chat_id, user.id):
        say(sender, message.chat.id, _("Only members of the tournament's group can register."))
        return
    new = await storage.add_tournament_player(t.id, user.id, display_name(user))
    say(sender, message.chat.id, (_("✅ You are registered for «{name}».") if new else
                                  _("You are registered for «{name}» already.")).format(
        name=escape(t.name)))
    if new:
        await refresh(t, storage, tr, presenter, sender)


async def close(t: TournamentRecord, storage: Storage, _: Gettext, tr: Translator,
                presenter: Presenter, sender: Sender) -> str:
    done = await storage.update_tournament(t.id, expect_status="registration", status="closed")
    if done is None:
        return _("The registration is closed already.")
    await refresh(done, storage, tr, presenter, sender)
    return _("🔒 Registration closed. Players: {n}. «Draw seating» when the list is final.").format(
        n=len(await storage.tournament_players(t.id)))


async def do_draw(t: TournamentRecord, bot: Bot, storage: Storage, _: Gettext, tr: Translator,
                  presenter: Presenter, sender: Sender, tournaments: TournamentService,
                  seed_args: list[str] | None = None) -> str:
    """Draw the seating (``seed_args``: the organiser's seed, else the stored one); the schedule
    goes to the home group, its caption naming the linked tables the schedule leaves unused (no
    message of their own). Returns the answer."""
    if t.status not in ("closed",):
        return _("Close the registration first.") if t.status == "registration" else \
            _("The seating is drawn already: /tournament schedule.")
    try:
        seed = parse_seed(" ".join(seed_args)) if seed_args else None
    except ValueError:
        return tx.bad_seed(_, " ".join(seed_args or []))
    try:
        drawn = await tournaments.draw(t, seed)
    except BadDraw as exc:
        if exc.reason == "too_few":
            return _("A tournament needs at least 10 players.")
        return _("The seating cannot be drawn: {reason}.").format(reason=escape(str(exc)))
    if drawn is None:
        return _("The seating is drawn already: /tournament schedule.")
    await refresh(drawn, storage, tr, presenter, sender)
    schedule = tournaments.schedule(drawn)
    assert schedule is not None  # just drawn
    names = {p.user_id: p.name for p in await storage.tournament_players(t.id)}
    note = await unused_tables_note(bot, _, drawn, schedule,
                                    await storage.tournament_tables(t.id))
    markup = await start_markup(storage, tournaments, _, drawn, t.chat_id,
                                presenter.tournament_markup(_, t.id))  # round 1 at the home table
    send_schedule(sender, t.chat_id, _, drawn, schedule, names, markup, note=note)
    return _("🎲 The seating is drawn. Round 1 starts with /newgame in each table's group.")


async def add_or_withdraw(message: Message, sub: str, args: list[str], t: TournamentRecord,
                          bot: Bot, storage: Storage, _: Gettext, tr: Translator,
                          presenter: Presenter, sender: Sender) -> str:
    if t.status not in ("registration", "closed"):
        return _("The seating is drawn: players can no longer be added or withdrawn.")
    target = target_of(message, args)
    if target is None:
        return _("Reply to the player's message, or give his user ID: /tournament {sub} "
                 "&lt;ID&gt;.").format(sub=sub)
    user_id, name = target
    if sub == "add":
        found = await known(bot, t.chat_id, target)
        if found is None:
            return unknown_id(_, sub, user_id)
        user_id, name = found
    elif name == str(user_id):  # e2e22: the registered player's name, not his ID
        name = next((p.name for p in await storage.tournament_players(t.id)
                     if p.user_id == user_id), name)
    if sub == "add":
        done = await storage.add_tournament_player(t.id, user_id, name)
        text = _("✅ {name} is registered.") if done else _("{name} is registered already.")
    else:
        done = await storage.withdraw_tournament_player(t.id, user_id)
        text = _("{name} is withdrawn.") if done else _("{name} is not registered.")
    if done:
        await refresh(t, storage, tr, presenter, sender)
    return text.format(name=escape(name))


async def show(message: Message, t: TournamentRecord, storage: Storage, _: Gettext,
               sender: Sender, tournaments: TournamentService, locale: str,
               markup: InlineKeyboardMarkup | None = None) -> None:
    """``/tournament``: the standings, the round in progress and what is next."""
    if t.status in ("registration", "closed"):
        players = await storage.tournament_players(t.id)
        reply(sender, message, tx.registration_text(_, t, players))
        return
    schedule = tournaments.schedule(t)
    played = await storage.tournament_games(t.id)
    due = None if schedule is None else due_round(schedule, played)
    if due is None and t.status != "finished":
        t = await storage.update_tournament(t.id, status="finished") or t
    names = {p.user_id: p.name for p in await storage.tournament_players(t.id, withdrawn=True)}
    rows = await tournaments.standings(t)
    await send_standings(sender, message.chat.id, _, t, rows, names,
                         tx.rounds_text(_, schedule, due, played), final=due is None,
                         games=len(await tournaments.sheets(t)), locale=locale, markup=markup)


async def export(message: Message, t: TournamentRecord, _: Gettext, sender: Sender,
                 tournaments: TournamentService) -> None:
    """``/tournament export``: the JSON document and the standings' CSV in private."""
    data = await tournaments.export(t)
    uid = author(message).id
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    rows = await tournaments.standings(t)
    first = sender.send_document(uid, BufferedInputFile(body, filename=f"tournament-{t.id}.json"),
                                 caption=_("🏆 «{name}»: the tournament (JSON, format 1).").format(
                                     name=escape(t.name)))
    sender.send_document(uid, BufferedInputFile(tx.standings_csv(rows),
                                                filename=f"tournament-{t.id}-standings.csv"),
                         caption=_("📊 The standings (CSV)."))
    if await first is None:
        reply(sender, message, _("I cannot write to you in private: open the bot first, "
                                 "then ask again."))
        return
    reply(sender, message, _("📄 Sent to you in private."))


async def tour_button(query: CallbackQuery, callback_data: Tour, bot: Bot, storage: Storage,
                      tr: Translator, presenter: Presenter, sender: Sender,
                      tournaments: TournamentService, callback_answer: CallbackAnswer) -> None:
    t = await storage.get_tournament(callback_data.t)
    _ = (await gettext_for(storage, tr, t.chat_id if t else 0))[1]
    if t is None:
        callback_answer.text = _("This tournament does not exist.")
        return
    if not await may_organise(bot, t, query.from_user.id):
        callback_answer.text = _("Only the tournament's organiser, a judge or a group admin "
                                 "can do that.")
        return
    if callback_data.a == "close":
        callback_answer.text = await close(t, storage, _, tr, presenter, sender)
    elif callback_data.a == "draw":
        callback_answer.text = await do_draw(t, bot, storage, _, tr, presenter, sender,
                                             tournaments)
    else:
        callback_answer.text = _("This button is out of date.")
