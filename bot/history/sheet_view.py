"""The score sheet's texts and buttons (issue 21, docs/rules/scoring.md SCORE-X10..X16): the
judge's private sheet (one message, edited in place), the group's message when a sheet is
published or corrected, and the block /history's protocol shows.  Pure: a sheet, its stored
record and gettext in, HTML text and a keyboard out.

Points are shown with :func:`bot.ui.scoring.num` (at most two decimals, the
locale's separator, a true minus sign).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine.mafia.roles import Role
from engine.scoring import ScoreSheet, SeatScore

from ..storage import SheetRecord
from ..ui.callbacks import Sheet
from ..ui.scoring import num, system_name
from ..ui.texts import ROLE_NAMES
from .lines import Gettext, preset_text, team_text
from .protocol_card import LEFT_WORDS

#: a name in the group's short table is cut to this many characters (a photo's caption holds
#: 1,024: ten lines stay far below)
NAME_CUT = 24
#: seat buttons per row of the judge's keyboard
SEATS_PER_ROW = 5
#: the judge's message's modes: a draft being filled, published (a correction may be opened),
#: a correction being made, published for good (the window has closed)
DRAFT, PUBLISHED, CORRECTING, CLOSED = "draft", "published", "correcting", "closed"


def _role(_: Gettext, role: Role) -> str:
    return _(ROLE_NAMES[role]) if role in ROLE_NAMES else role.value


def _cut(name: str) -> str:
    return escape(name if len(name) <= NAME_CUT else name[:NAME_CUT - 1] + "…")


def _hm(at: datetime | None, *, day: bool = False) -> str:
    return at.strftime("%d.%m %H:%M UTC" if day else "%H:%M UTC") if at is not None else "?"


def seat_line(_: Gettext, locale: str, line: SeatScore, *, selected: bool = False) -> str:
    """One seat of the judge's sheet: number, name, role, fouls, how he left, the point columns
    that are not zero and his best move with its blacks (even 0), the total (the selected seat
    marked 👉)."""
    parts = [f"{'👉 ' if selected else ''}<b>{line.seat}</b>. {escape(line.name)} — "
             f"{_role(_, line.role)}"]
    if line.fouls:
        parts.append(f"⚠️{line.fouls}")
    if line.left:
        word = LEFT_WORDS.get(line.left)
        parts.append(_(word) if word else _("left"))
    bm = _("BM")
    if line.best_move is not None:  # his best move, 0 blacks (0 points) included (SCORE-X06)
        bm += " " + _("({n} black)").format(n=line.best_move)
    cols = [(_("win"), line.win_points), (bm, line.best_move_points),
            (_("pen."), line.penalty), (_("add."), line.additional)]
    shown = [f"{label} {num(locale, v)}" for label, v in cols
             if v or (label == bm and line.best_move is not None)]
    parts.append(", ".join(shown) + f" = <b>{num(locale, line.total)}</b>" if shown
                 else f"<b>{num(locale, line.total)}</b>")
    return " · ".join(parts)


def judge_text(_: Gettext, locale: str, game_id: int, ruleset: str, sheet: ScoreSheet,
               record: SheetRecord, mode: str, seat: int = 0) -> str:
    """The judge's private sheet of game ``game_id`` in ``mode`` (DRAFT | PUBLISHED |
    CORRECTING | CLOSED); ``seat``: the seat whose additional points the buttons change
    (0: none chosen)."""
    system = sheet.system
    head = [_("📋 <b>Score sheet of game #{id}</b> · {preset}").format(
                id=game_id, preset=preset_text(_, ruleset)),
            _("{team} wins · scoring: {system}").format(
                team=team_text(_, sheet.winner.value), system=system_name(_, system))]
    if mode == DRAFT:
        head.append(_("✍️ Draft. Set the additional points, then publish. At {time} it "
                      "publishes itself without additional points.").format(time=_hm(record.publish_by)))
    elif mode == CORRECTING:
        head.append(_("✏️ Correcting the published sheet (until {time}). Save to publish the "
                      "change.").format(time=_hm(record.corrections_until, day=True)))
    elif mode == PUBLISHED:
        head.append(_("✅ Published. You may correct it until {time}.").format(
            time=_hm(record.corrections_until, day=True)))
    else:
        head.append(_("✅ Published."))
    lines = [seat_line(_, locale, line, selected=line.seat == seat and mode in (DRAFT, CORRECTING))
             for line in sheet.seats]
    foot = []
    if mode in (DRAFT, CORRECTING):
        rng = _("additional points: {lo} … {hi}, step {step}").format(
            lo=num(locale, system.additional_min),
            hi=num(locale, system.additional_max),
            step=num(locale, system.additional_step))
        foot.append(_("Choose a seat, then ➖ / ➕ ({range}).").format(range=rng) if not seat
                    else _("Seat {n}: ➖ / ➕ change his additional points ({range}).").format(
                        n=seat, range=rng))
    return "\n".join(head) + "\n\n" + "\n".join(lines) + ("\n\n" + "\n".join(foot) if foot else "")


def _btn(text: str, data: Sheet) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def judge_keyboard(_: Gettext, locale: str, game_id: int, sheet: ScoreSheet, mode: str,
                   seat: int = 0) -> InlineKeyboardMarkup | None:
    """The judge's buttons in ``mode``: seats (5 a row), the chosen seat's ➖ 0 ➕, then
    Publish (DRAFT) or Save / Cancel (CORRECTING); PUBLISHED: Correct; CLOSED: none."""
    if mode == CLOSED:
        return None
    if mode == PUBLISHED:
        return InlineKeyboardMarkup(inline_keyboard=[[_btn(_("✏️ Correct"),
                                                           Sheet(a="cor", g=game_id))]])
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for line in sheet.seats:
        label = str(line.seat) + (f" ·{num(locale, line.additional)}"
                                  if line.additional else "")
        row.append(_btn(("👉" if line.seat == seat else "") + label,
                        Sheet(a="s", g=game_id, t=line.seat)))
        if len(row) == SEATS_PER_ROW:
            rows.append(row)
            row = []
    if row:
        rows.append(row)
    if seat:
        step = num(locale, sheet.system.additional_step)
        rows.append([_btn(f"➖ {step}", Sheet(a="-", g=game_id, t=seat)),
                     _btn("0", Sheet(a="0", g=game_id, t=seat)),
                     _btn(f"➕ {step}", Sheet(a="+", g=game_id, t=seat))])
    if mode == DRAFT:
        rows.append([_btn(_("✅ Publish"), Sheet(a="pub", g=game_id))])
    else:
        rows.append([_btn(_("💾 Save"), Sheet(a="sv", g=game_id)),
                     _btn(_("✖️ Cancel"), Sheet(a="cx", g=game_id))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def points_table(locale: str, sheet: ScoreSheet) -> list[str]:
    """The short table: one line per seat, ``3. Name — 1.25``."""
    return [f"{line.seat}. {_cut(line.name)} — <b>{num(locale, line.total)}</b>"
            for line in sheet.seats]


def published_caption(_: Gettext, locale: str, game_id: int, sheet: ScoreSheet, *,
                      auto: bool, judged: bool) -> str:
    """The group's message of a published sheet (the protocol picture's caption, or the text
    sent when the photo cannot go): a title, the system, the short table."""
    title = _("📊 <b>Game #{id}: the score sheet is published</b>").format(id=game_id)
    how = _("scoring: {system}").format(system=system_name(_, sheet.system))
    if judged and auto:
        how += " · " + _("the judge did not publish it in time: no additional points")
    return "\n".join([title, how, *points_table(locale, sheet)])


def corrected_text(_: Gettext, locale: str, game_id: int, before: Mapping[int, float],
                   sheet: ScoreSheet) -> str:
    """The group's notice of a correction: the seats whose totals moved, old → new."""
    moved = [f"{line.seat}. {_cut(line.name)}: {num(locale, before.get(line.user_id, 0.0))}"
             f" → <b>{num(locale, line.total)}</b>"
             for line in sheet.seats if before.get(line.user_id, 0.0) != line.total]
    head = _("✏️ The judge corrected the score sheet of game #{id}.").format(id=game_id)
    return "\n".join([head, *moved]) if moved else head


def history_block(_: Gettext, locale: str, sheet: ScoreSheet | None, record: SheetRecord | None
                  ) -> str | None:
    """/history's protocol: the published points (system, short table), a note that the sheet
    is a draft (no points before its publication), or None (no sheet)."""
    if record is None:
        return None
    if not record.published or sheet is None:
        return _("📊 Score sheet: a draft. The points come with its publication.")
    head = _("📊 <b>Points</b> · scoring: {system}").format(system=system_name(_, sheet.system))
    return "\n".join([head, *points_table(locale, sheet)])
