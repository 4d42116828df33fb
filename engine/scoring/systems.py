"""Scoring systems as data (docs/rules/scoring.md, SCORE-X01..X04): what a club counts for one
game of sport mafia.

A :class:`ScoringSystem` is frozen and always valid: building one with a bad figure raises
:class:`BadScoring`, which names the field and the reason, so the shell can say what is wrong.
Points are plain numbers (``float``), never seconds; a penalty is a number <= 0.

Two named systems ship (``SYSTEMS``): ``fiim`` (the FIIM-style figures sport clubs use) and
``plain`` (win = 1, nothing else).  A group may keep its own figures: :func:`system_from_settings`
reads them back from the JSON-like dict :meth:`ScoringSystem.to_settings` writes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from typing import Any

#: the largest figure any field may hold (points for one game); a penalty is at least its negative
MAX_POINTS = 10.0
#: the most steps the judge's additional points may have (so they fit on buttons)
MAX_STEPS = 40
#: the best move names exactly three players (ONLINE-08): points for 0, 1, 2 and 3 blacks
BEST_MOVE_SIZE = 3


class BadScoring(ValueError):
    """A figure of a scoring system (or a judge's additional points) is not acceptable.

    ``field``: the offending field (``win``, ``best_move``, ``disqualification``,
    ``fourth_foul``, ``procedural_loss``, ``additional_min``, ``additional_max``,
    ``additional_step``, ``base``, ``additional``); ``reason``: one of ``unknown_field``,
    ``unknown_system``, ``not_a_number``, ``out_of_range``, ``not_increasing``, ``wrong_size``,
    ``empty_range``, ``bad_step``, ``not_a_player``; ``value``: what was given."""

    def __init__(self, field: str, reason: str, value: object = None) -> None:
        super().__init__(f"{field}: {reason} ({value!r})")
        self.field = field
        self.reason = reason
        self.value = value


def _number(field: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise BadScoring(field, "not_a_number", value)
    try:
        number = float(value)
    except ValueError:
        raise BadScoring(field, "not_a_number", value) from None
    if not math.isfinite(number):
        raise BadScoring(field, "not_a_number", value)
    return number


def _within(field: str, value: float, lo: float, hi: float) -> None:
    if not lo <= value <= hi:
        raise BadScoring(field, "out_of_range", value)


def steps(lo: float, hi: float, step: float) -> int:
    """How many steps of ``step`` lead from ``lo`` to ``hi`` (exactly; else BadScoring)."""
    n = (Decimal(str(hi)) - Decimal(str(lo))) / Decimal(str(step))
    if n != n.to_integral_value():
        raise BadScoring("additional_step", "bad_step", step)
    return int(n)


@dataclass(frozen=True)
class ScoringSystem:
    """One club's figures for a game (SCORE-X01).

    ``win``: points to every player of the winning team; ``best_move``: points of the first
    victim's best move by the number of blacks among the three he named (index 0..3; all zero:
    no best move is scored); ``disqualification`` / ``fourth_foul``: the penalty (<= 0) of a
    player removed by the judge (CLUB-39) or by his fourth foul (CLUB-38); ``procedural_loss``:
    the penalty (<= 0) of the player whose breach lost his team the game (CLUB-X17); the judge's
    additional points per seat lie in ``additional_min`` .. ``additional_max`` in steps of
    ``additional_step``.  Raises :class:`BadScoring` on a bad figure."""

    name: str
    win: float = 1.0
    best_move: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    disqualification: float = 0.0
    fourth_foul: float = 0.0
    procedural_loss: float = 0.0
    additional_min: float = 0.0
    additional_max: float = 0.0
    additional_step: float = 0.1

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "win", _number("win", self.win))
        _within("win", self.win, 0.0, MAX_POINTS)
        best = self.best_move
        if not isinstance(best, (list, tuple)) or len(best) != BEST_MOVE_SIZE + 1:
            raise BadScoring("best_move", "wrong_size", best)
        table = tuple(_number("best_move", v) for v in best)
        for v in table:
            _within("best_move", v, 0.0, MAX_POINTS)
        if any(b < a for a, b in zip(table, table[1:], strict=False)):
            raise BadScoring("best_move", "not_increasing", best)
        set_(self, "best_move", table)
        for name in ("disqualification", "fourth_foul", "procedural_loss"):
            value = _number(name, getattr(self, name))
            _within(name, value, -MAX_POINTS, 0.0)
            set_(self, name, value)
        lo = _number("additional_min", self.additional_min)
        hi = _number("additional_max", self.additional_max)
        step = _number("additional_step", self.additional_step)
        _within("additional_min", lo, -MAX_POINTS, MAX_POINTS)
        _within("additional_max", hi, -MAX_POINTS, MAX_POINTS)
        if hi < lo:
            raise BadScoring("additional_max", "empty_range", hi)
        if step <= 0:
            raise BadScoring("additional_step", "bad_step", step)
        if steps(lo, hi, step) > MAX_STEPS:
            raise BadScoring("additional_step", "bad_step", step)
        set_(self, "additional_min", lo)
        set_(self, "additional_max", hi)
        set_(self, "additional_step", step)

    @property
    def has_best_move(self) -> bool:
        return any(self.best_move)

    @property
    def has_additional(self) -> bool:
        return self.additional_max > self.additional_min

    def additional_values(self) -> tuple[float, ...]:
        """Every value the judge may give, lowest first (one button each)."""
        lo, step = Decimal(str(self.additional_min)), Decimal(str(self.additional_step))
        n = steps(self.additional_min, self.additional_max, self.additional_step)
        return tuple(float(lo + step * i) for i in range(n + 1))

    def check_additional(self, value: object) -> float:
        """``value`` as a valid additional point figure of this system (SCORE-X03): within the
        range and on a step from its low end.  Raises BadScoring(field="additional")."""
        number = _number("additional", value)
        if not self.additional_min <= number <= self.additional_max:
            raise BadScoring("additional", "out_of_range", value)
        k = (Decimal(str(number)) - Decimal(str(self.additional_min))) \
            / Decimal(str(self.additional_step))
        if k != k.to_integral_value():
            raise BadScoring("additional", "bad_step", value)
        return number

    def to_settings(self) -> dict[str, object]:
        """The figures as JSON-like data (``best_move`` a list); :func:`system_from_settings`
        reads it back."""
        data: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["best_move"] = list(self.best_move)
        return data


#: SCORE-X02: the FIIM-style figures (docs/rules/scoring.md says where each comes from)
FIIM = ScoringSystem(
    name="fiim", win=1.0, best_move=(0.0, 0.0, 0.25, 0.5), disqualification=-0.5,
    fourth_foul=-0.5, procedural_loss=-0.7, additional_min=0.0, additional_max=0.7,
    additional_step=0.1,
)
#: SCORE-X02: a win is one point, nothing else counts
PLAIN = ScoringSystem(name="plain", win=1.0)

SYSTEMS: dict[str, ScoringSystem] = {s.name: s for s in (FIIM, PLAIN)}
#: the name of a group's own figures (SCORE-X04)
CUSTOM = "custom"


def find_system(name: str) -> ScoringSystem:
    """A named system (``fiim``, ``plain``). Raises BadScoring(field="base", "unknown_system")."""
    try:
        return SYSTEMS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise BadScoring("base", "unknown_system", name) from None


def system_from_settings(data: Mapping[str, object]) -> ScoringSystem:
    """SCORE-X04: a system from a group's settings: ``{"base": "fiim"}`` names a shipped one;
    any other key overrides that figure of the base (``plain`` when no base is named), and the
    result is called ``custom``.  A :meth:`ScoringSystem.to_settings` dict reads back as it was
    (its ``name`` is taken as the base when it names a shipped system).  Raises BadScoring on
    an unknown field, an unknown base or a bad figure."""
    allowed = {f.name for f in fields(ScoringSystem)} - {"name"}
    # the values are checked by ScoringSystem.__post_init__ (BadScoring), whatever their type
    changes: dict[str, Any] = {k: v for k, v in data.items() if k not in ("base", "name")}
    for key in changes:
        if key not in allowed:
            raise BadScoring(key, "unknown_field", changes[key])
    base_name = data.get("base", data.get("name", PLAIN.name))
    if base_name == CUSTOM:
        base_name = PLAIN.name
    base = find_system(str(base_name))
    if not changes:
        return base
    merged = replace(base, name=CUSTOM, **changes)
    if all(getattr(merged, k) == getattr(base, k) for k in allowed):
        return base
    return merged
