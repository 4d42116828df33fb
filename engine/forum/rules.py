"""The forum preset's rule set and tempo (rule IDs in docs/rules/forum.md)."""

from __future__ import annotations

from dataclasses import dataclass

from ..mafia.rules import RuleSet, Tempo, limits
from .setup import DEFAULT_OPTIONS, check_options, forum_roles

#: the timings of the forum preset (docs/rules/forum.md); no speeches, no defences
FORUM_TIMING_KEYS = ("forum_day", "forum_vote", "last_word", "meeting", "cop", "forum_night",
                     "bonus_offer", "bonus", "best_player")


@dataclass(frozen=True)
class ForumTempo(Tempo):
    """FORUM, seconds (FORUM-Q27): ``forum_day`` the day's discussion, ``forum_vote`` its vote
    (and the revote, the host's decision), ``meeting`` night 1, ``cop`` the Cop's turn,
    ``forum_night`` a night from night 2, then the bonus round's offer and round and the vote
    for the best player."""

    forum_day: int = 600
    forum_vote: int = 120
    forum_night: int = 180
    cop: int = 60
    bonus_offer: int = 120
    bonus: int = 180
    best_player: int = 120

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in FORUM_TIMING_KEYS}


FORUM = RuleSet(
    name="forum",
    aliases=("forum-mafia", "форум"),
    min_players=4,  # FORUM-01, Q01
    max_players=12,
    role_table=forum_roles,
    tempos={
        "short": ForumTempo(speech=0, defence=0, last_word=45, vote=0, night=0, meeting=60,
                            forum_day=300, forum_vote=90, forum_night=120, cop=45, bonus=120,
                            best_player=90),
        "normal": ForumTempo(speech=0, defence=0, last_word=60, vote=0, night=0, meeting=90),
        "detailed": ForumTempo(speech=0, defence=0, last_word=90, vote=0, night=0, meeting=120,
                               forum_day=1200, forum_vote=300, forum_night=300, cop=90,
                               bonus=300, best_player=180),
    },
    last_word_for_all=False,  # FORUM-13, 15, Q09: Town status only
    ready_gates=False,
    default_options=dict(DEFAULT_OPTIONS),
    intro="forum",
    vote_style="forum",
    relay="always",  # FORUM-06: the Mafia talk every night
    check_options=check_options,
    # FORUM-Q27: a forum day and night from a minute up to 24 hours
    timing_limits=limits("last_word", "meeting", forum_day=(60, 86400), forum_vote=(30, 86400),
                         forum_night=(60, 86400), cop=(10, 600), bonus_offer=(30, 600),
                         bonus=(30, 3600), best_player=(30, 3600)),
)
