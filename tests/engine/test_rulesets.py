"""The presets' timing limits (issue 8: each preset's timings in its own rule set)."""

from __future__ import annotations

import pytest

from engine import RULESETS
from engine.core.errors import BadSetup
from engine.mafia.rules import TIMING_LIMITS

#: the one table of every timing before the limits moved into the rule sets (seconds)
BEFORE = {"speech": (10, 600), "defence": (10, 300), "last_word": (10, 300),
          "vote": (5, 120), "night": (20, 600), "ready_wait": (30, 600),
          "meeting": (20, 300), "silenced": (5, 60),
          "discussion": (30, 1800), "lift": (5, 120), "best_move": (10, 120),
          "forum_day": (60, 86400), "forum_vote": (30, 86400), "forum_night": (60, 86400),
          "cop": (10, 600), "bonus_offer": (30, 600), "bonus": (30, 3600),
          "best_player": (30, 3600)}


def test_PARTY_Q16_the_presets_limits_together_are_the_former_table_in_its_order():
    assert list(TIMING_LIMITS.items()) == list(BEFORE.items())


def test_PARTY_Q16_a_timing_two_presets_share_has_the_same_limits_in_both():
    for rs in RULESETS.values():
        for key, value in rs.timing_limits.items():
            assert TIMING_LIMITS[key] == value, (rs.name, key)


def test_CLUB_Q14_each_preset_lists_its_own_timings():
    assert "silenced" in RULESETS["club"].timing_limits
    assert "silenced" not in RULESETS["party"].timing_limits
    assert {"discussion", "lift", "best_move"} <= set(RULESETS["online"].timing_limits)
    assert "forum_day" in RULESETS["forum"].timing_limits
    assert "forum_day" not in RULESETS["online"].timing_limits


@pytest.mark.parametrize("name", ["party", "club", "online", "forum"])
def test_PARTY_Q16_a_chat_default_of_another_preset_is_accepted_and_limits_hold(name):
    rs = RULESETS[name]
    rs.timings({"timings": {"discussion": 60, "forum_day": 600, "silenced": 5}})  # no error
    with pytest.raises(BadSetup):
        rs.timings({"timings": {"silenced": 61}})
    with pytest.raises(BadSetup):
        rs.timings({"timings": {"nonsense": 10}})
