"""Inline keyboards of /history (≤ 100 buttons each; callback data ≤ 64 bytes, ``Hist``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from ..ui.callbacks import Hist

Gettext = Callable[[str], str]
GAMES_PER_ROW = 5


def _btn(text: str, data: Hist) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def nav_row(make: Callable[[int], Hist], page: int, pages: int) -> list[InlineKeyboardButton]:
    """◀ ▶ between pages ``0..pages-1`` (only the arrows that lead somewhere)."""
    row = []
    if page > 0:
        row.append(_btn("◀️", make(page - 1)))
    if page + 1 < pages:
        row.append(_btn("▶️", make(page + 1)))
    return row


def list_keyboard(game_ids: Sequence[int], page: int, pages: int, tournament: int = 0
                  ) -> InlineKeyboardMarkup | None:
    """The group's /history: a game opens its protocol (``p``); ◀ ▶ page (``l``, or ``lt``
    with the ``tournament`` id in ``g``: /history tournament)."""
    rows: list[list[InlineKeyboardButton]] = []
    for i in range(0, len(game_ids), GAMES_PER_ROW):
        rows.append([_btn(f"#{gid}", Hist(a="p", g=gid, b=page if not tournament else 0))
                     for gid in game_ids[i:i + GAMES_PER_ROW]])
    nav = nav_row(lambda p: Hist(a="lt", g=tournament, p=p) if tournament else Hist(a="l", p=p),
                  page, pages)
    if nav:
        rows.append(nav)
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def my_games_keyboard(game_ids: Sequence[int], page: int, pages: int) -> InlineKeyboardMarkup | None:
    """The private /history: a game opens "what I knew" (``k``); ◀ ▶ page (``m``)."""
    rows: list[list[InlineKeyboardButton]] = []
    for i in range(0, len(game_ids), GAMES_PER_ROW):
        rows.append([_btn(f"#{gid}", Hist(a="k", g=gid)) for gid in game_ids[i:i + GAMES_PER_ROW]])
    nav = nav_row(lambda p: Hist(a="m", p=p), page, pages)
    if nav:
        rows.append(nav)
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def protocol_keyboard(_: Gettext, game_id: int, page: int, pages: int, back: int,
                      *, picture: bool = False) -> InlineKeyboardMarkup:
    """The protocol's buttons; ``picture``: a club or online game, whose protocol also goes as
    the clubs' picture (``pp``)."""
    rows = []
    nav = nav_row(lambda p: Hist(a="p", g=game_id, p=p, b=back), page, pages)
    if nav:
        rows.append(nav)
    if picture:
        rows.append([_btn(_("🖼 Protocol picture"), Hist(a="pp", g=game_id, b=back))])
    rows.append([_btn(_("🎬 Replay"), Hist(a="r", g=game_id, b=back)),
                 _btn(_("🧠 What I knew"), Hist(a="kn", g=game_id, b=back))])
    rows.append([_btn(_("📄 Export"), Hist(a="x", g=game_id, b=back)),
                 _btn(_("🗑 Delete"), Hist(a="d", g=game_id, b=back))])
    rows.append([_btn(_("⬅️ All games"), Hist(a="l", p=back))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def replay_keyboard(_: Gettext, game_id: int, step: int, steps: int, back: int
                    ) -> InlineKeyboardMarkup:
    rows = []
    nav = nav_row(lambda p: Hist(a="r", g=game_id, p=p, b=back), step, steps)
    if nav:
        rows.append(nav)
    rows.append([_btn(_("📜 Protocol"), Hist(a="p", g=game_id, b=back))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def board_keyboard(_: Gettext, game_id: int, step: int, steps: int, back: int
                   ) -> InlineKeyboardMarkup | None:
    """The boards' replay of a game with its own history (NOIR, ``rb``): ⏮ ◀ ▶ ⏭, only the
    buttons that lead somewhere."""
    def go(p: int) -> Hist:
        return Hist(a="rb", g=game_id, p=p, b=back)

    row = []
    if step > 0:
        row += [_btn("⏮", go(0)), _btn("◀️", go(step - 1))]
    if step + 1 < steps:
        row += [_btn("▶️", go(step + 1)), _btn("⏭", go(steps - 1))]
    return InlineKeyboardMarkup(inline_keyboard=[row]) if row else None


def knew_keyboard(_: Gettext, game_id: int, step: int, steps: int) -> InlineKeyboardMarkup:
    nav = nav_row(lambda p: Hist(a="k", g=game_id, p=p), step, steps)
    back = [_btn(_("⬅️ My games"), Hist(a="m"))]
    return InlineKeyboardMarkup(inline_keyboard=[nav, back] if nav else [back])


def delete_keyboard(_: Gettext, game_id: int, back: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[
        _btn(_("🗑 Yes, delete it"), Hist(a="dy", g=game_id, b=back)),
        _btn(_("↩️ Keep it"), Hist(a="p", g=game_id, b=back)),
    ]])


def link_keyboard(text: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=text, url=url)]])
