"""A group's scoring system as the bot shows and reads it (docs/rules/scoring.md, SCORE-X20..X25).

* :func:`chat_system` — the system of a chat's settings (``data["scoring"]``, the dict of
  :meth:`engine.scoring.ScoringSystem.to_settings`; FIIM when none is set) or of a game's
  stamped settings (``CreateGame.settings["scoring"]``, SCORE-X22);
* :func:`parse_figure` — one figure typed after ``/settings scoring <field>``;
* :func:`system_name`, :func:`figures_text`, :func:`usage_text`, :func:`bad_scoring_text` — the
  translated texts (HTML).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from html import escape
from typing import Any

from babel.numbers import format_decimal

from engine.scoring import FIIM, SYSTEMS, BadScoring, ScoringSystem, system_from_settings
from engine.scoring.systems import MAX_POINTS, MAX_STEPS

from .i18n import N_

Gettext = Callable[[str], str]

#: the presets whose games are scored (a score sheet, SCORE-X22)
SCORED_PRESETS = ("club", "online")
#: the figures a group may set, in the order they are shown
FIELDS = tuple(f.name for f in fields(ScoringSystem) if f.name != "name")

FIELD_NAMES = {
    "win": N_("A win"), "best_move": N_("The best move"),
    "disqualification": N_("Leaving by disqualification"),
    "fourth_foul": N_("Leaving by the fourth foul"), "procedural_loss": N_("A procedural loss"),
    "additional_min": N_("The lowest additional points"),
    "additional_max": N_("The highest additional points"),
    "additional_step": N_("The step of additional points"),
    "base": N_("The scoring system"),
}


def chat_system(data: Mapping[str, Any] | None) -> ScoringSystem:
    """SCORE-X20: the system of settings ``data`` (a chat's, or a game's stamped ones): its
    ``scoring`` dict read by :func:`engine.scoring.system_from_settings`; FIIM when there is
    none or it no longer reads (never raises)."""
    raw = (data or {}).get("scoring")
    if not isinstance(raw, Mapping):
        return FIIM
    try:
        return system_from_settings(raw)
    except BadScoring:
        return FIIM


def _plain(value: str) -> str:
    return value.strip().replace("−", "-").replace(",", ".")


def parse_figure(field: str, args: Sequence[str]) -> object:
    """SCORE-X21: the value typed for ``field``: one number (a decimal comma is allowed), or
    for ``best_move`` four numbers separated by spaces, slashes or semicolons (``0 0 0.25 0.5``,
    ``0/0/0,25/0,5``) or by commas (``0,0,0.25,0.5``).  The numbers stay text: the system
    checks them.  Raises BadScoring(field, 'unknown_field') for a figure that does not exist,
    (field, 'wrong_size') for a wrong count of values."""
    if field not in FIELDS:
        raise BadScoring(field, "unknown_field", field)
    tokens = [t for t in re.split(r"[\s/;]+", " ".join(args)) if t]
    if field == "best_move":
        if len(tokens) == 1 and tokens[0].count(",") == 3:
            tokens = tokens[0].split(",")
        if len(tokens) != 4:
            raise BadScoring(field, "wrong_size", " ".join(args))
        return [_plain(t) for t in tokens]
    if len(tokens) != 1:
        raise BadScoring(field, "not_a_number", " ".join(args))
    return _plain(tokens[0])


def num(locale: str, value: float) -> str:
    """A figure in the locale's digits (``0,25`` in Russian, ``1 000`` grouped), up to two
    decimals, no trailing zeros (``1``, ``1.5``); a negative one with a true minus (``−0,5``).
    The one formatter of points (SCORE-X16): sheets, protocol cards, /top, /me, standings."""
    value = round(value, 2)
    text = format_decimal(abs(value), "#,##0.##", locale=locale)
    return ("−" if value < 0 else "") + text  # a true minus, as the sheet shows points


def system_name(_: Gettext, system: ScoringSystem) -> str:
    """«FIIM», «Plain (a win = 1)» or «Own figures»."""
    if system.name == "fiim":
        return _("FIIM")
    if system.name == "plain":
        return _("Plain (a win = 1)")
    return _("Own figures")


def figures_text(_: Gettext, locale: str, system: ScoringSystem) -> str:
    """SCORE-X20: the system's name and every figure, a few lines (HTML)."""
    def n(v: float) -> str:
        return num(locale, v)

    lines = [_("📋 <b>Scoring of club and online games</b>: {name}").format(
        name=system_name(_, system)),
        _("A win: {win}").format(win=n(system.win))]
    if system.has_best_move:
        lines.append(_("The best move, by 0/1/2/3 blacks named: {table}").format(
            table=" / ".join(n(v) for v in system.best_move)))
    else:
        lines.append(_("The best move: not scored"))
    lines.append(_("Penalties: disqualification {dq} · fourth foul {ff} · procedural loss "
                   "{pl}").format(dq=n(system.disqualification), ff=n(system.fourth_foul),
                                  pl=n(system.procedural_loss)))
    if system.has_additional:
        lines.append(_("The judge's additional points: {lo} … {hi}, step {step}").format(
            lo=n(system.additional_min), hi=n(system.additional_max),
            step=n(system.additional_step)))
    else:
        lines.append(_("The judge's additional points: none"))
    return "\n".join(lines)


def usage_text(_: Gettext) -> str:
    """How to change the system (group admins only)."""
    return _("Group admins change it: /settings scoring fiim or /settings scoring plain — a "
             "named system; /settings scoring win 2 — one figure ({fields}); best_move takes "
             "four numbers: /settings scoring best_move 0 0 0.25 0.5. A game already open keeps "
             "the system it started with.").format(fields=", ".join(FIELDS))


def allowed_text(_: Gettext, field: str) -> str:
    """What ``field`` accepts."""
    top = num("en", MAX_POINTS)
    if field == "win":
        return _("a number from 0 to {max}").format(max=top)
    if field == "best_move":
        return _("four numbers from 0 to {max}, never decreasing, e.g. 0 0 0.25 0.5").format(max=top)
    if field in ("disqualification", "fourth_foul", "procedural_loss"):
        return _("a number from -{max} to 0").format(max=top)
    if field in ("additional_min", "additional_max"):
        return _("a number from -{max} to {max}; the highest additional points not below the "
                 "lowest").format(max=top)
    if field == "additional_step":
        return _("a number above 0 that divides the additional points' range into at most {n} "
                 "equal steps").format(n=MAX_STEPS)
    if field == "base":
        return _("fiim or plain")
    return _("one of {fields}").format(fields=", ".join(FIELDS))


def bad_scoring_text(_: Gettext, error: BadScoring) -> str:
    """SCORE-X21: the refusal of a bad figure: which figure, what is wrong, what it accepts,
    and that nothing changed (HTML, the value escaped)."""
    def shown(v: object) -> str:
        return f"{v:g}" if isinstance(v, float) else str(v)

    raw = error.value
    value = escape(" ".join(map(shown, raw)) if isinstance(raw, (list, tuple)) else shown(raw))[:60]
    reasons = {
        "not_a_number": _("«{value}» is not a number"),
        "out_of_range": _("{value} is out of range"),
        "not_increasing": _("the points must not decrease from 0 to 3 blacks"),
        "wrong_size": _("four numbers are needed, one for 0, 1, 2 and 3 blacks"),
        "empty_range": _("the highest additional points are below the lowest"),
        "bad_step": _("the step does not divide the range into at most {n} equal steps").format(
            n=MAX_STEPS),
        "unknown_system": _("there is no system «{value}»"),
        "unknown_field": _("there is no figure «{value}»"),
    }
    field = error.field
    if error.reason == "unknown_field":
        what = _("Scoring")
    else:
        what = _(FIELD_NAMES[field]) if field in FIELD_NAMES else escape(field)
    reason = reasons.get(error.reason, escape(error.reason)).format(value=value)
    return _("❌ {what} ({field}): {reason}. Allowed: {allowed}. Nothing changed.").format(
        what=what, field=escape(field) if error.reason != "unknown_field" else "scoring",
        reason=reason, allowed=allowed_text(_, field))


__all__ = ["FIELDS", "SCORED_PRESETS", "SYSTEMS", "bad_scoring_text", "chat_system",
           "figures_text", "parse_figure", "system_name", "usage_text"]
