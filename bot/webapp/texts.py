"""The page's own words, translated on the server and sent with every table (the page has no
catalogue of its own): key -> msgid."""

from __future__ import annotations

from collections.abc import Callable

from ..ui.i18n import N_

#: gettext in one language: msgid -> text
Gettext = Callable[[str], str]

PAGE_TEXTS = {
    "title": N_("Live table"),
    "offline": N_("Connection lost; reconnecting…"),
    "players": N_("Players"),
    "you": N_("you"),
    "your_role": N_("Your role"),
    "team": N_("Team"),
    "out": N_("out"),
    "inactive": N_("inactive"),
    "speaker": N_("speaks"),
    "nominated": N_("Nominated"),
    "vote": N_("Vote"),
    "yes": N_("Yes"),
    "no": N_("No"),
    "checks": N_("Checks"),
    "is_mafia": N_("mafia"),
    "is_town": N_("not mafia"),
    "is_sheriff": N_("the Sheriff"),
    "not_sheriff": N_("not the Sheriff"),
    "picks": N_("The mafia's picks"),
    "actions": N_("Your actions"),
    "judge": N_("Judge's console"),
    "control": N_("The game"),
    "winner": N_("Winner: {team}"),
    "ballot": N_("Ballot"),
    "pass": N_("PASS"),
    "viewer_host": N_("You host this game: you see everything."),
    "viewer_onlooker": N_("You watch the public table."),
    "ready": N_("ready"),
    "noir_order": N_("Turn order"),
    "noir_you_are": N_("You are"),
    "noir_mates": N_("Your team"),
    "noir_hand": N_("Your cards"),
    "noir_identities": N_("Identities"),
    "noir_away": N_("away"),
    "timings": N_("Timings"),
    "lobby": N_("Lobby"),
    "lobby_players": N_("Joined"),
    "cancel": N_("Cancel"),
    "confirm_title": N_("Are you sure?"),
    "left_killed": N_("You were killed at night."),
    "left_voted": N_("You were voted out."),
    "left_disqualified": N_("You were disqualified."),
    "left_removed": N_("You were removed from the game."),
    "left_watch": N_("You watch the rest of the game: the table shows what the group sees."),
    "out_killed": N_("killed at night"),
    "out_voted": N_("voted out"),
    "out_disqualified": N_("disqualified"),
    "out_removed": N_("removed"),
    "morning": N_("Morning"),
    "morning_killed": N_("Killed at night: {player}"),
    "morning_nobody": N_("Nobody was killed at night."),
    "morning_met": N_("On the first night the mafia only met: nobody was shot."),
    "morning_saved": N_("Nobody was killed at night: the Doctor saved the target."),
    "checked": N_("checked"),
    "night_n": N_("night {n}"),
    "timings_note": N_("Set with /settings before a game; a running timer is changed by a "
                       "pause, «Next», the end of a speech and, in a turn, the judge's +30 s, "
                       "restart and end."),
    "day_n": N_("day {n}"),
    "nominated_by": N_("nominated by №{seat}"),
    "votes_n": N_("votes: {n}"),
    "fouls_legend": N_("⚠️×3: loses his next speech (may still nominate) · ⚠️×4: removed from "
                       "the game"),
}


#: the judge's tools in words (the console shows only their icons; the page puts these in each
#: button's title and aria-label): code -> msgid with ``{seat}`` and ``{name}``
JUDGE_WORDS = {
    "foul": N_("Foul: №{seat} {name}"),
    "dq": N_("Disqualify: №{seat} {name}"),
    "unfoul": N_("Take a foul back: №{seat} {name}"),
    "warn": N_("Warning: №{seat} {name}"),
    "pl": N_("Procedural loss: the team of №{seat} {name}"),
}
#: the presses the page asks to confirm first (a seat's: the clock's carry their own): code ->
#: question
CONFIRMS = {
    "dq": N_("Disqualify №{seat} {name}? The player leaves the game at once, without a last "
             "word."),
    "pl": N_("A procedural loss for the team of №{seat} {name}? The game ends at once: the "
             "other team wins."),
}


#: the tournament page's words (static/tournament.js; bot/webapp/tournament.py)
TOURNAMENT_TEXTS = {
    "title": N_("Tournament"),
    "tab_schedule": N_("Schedule"),
    "tab_standings": N_("Standings"),
    "tab_mine": N_("My games"),
    "round_n": N_("Round {n}"),
    "table_n": N_("Table {n}"),
    "seat_n": N_("seat {n}"),
    "now": N_("now"),
    "waiting": N_("waiting"),
    "yours": N_("your table"),
    "you": N_("you"),
    "sitting_out": N_("Sitting out"),
    "substitute_for": N_("substitute for {name}"),
    "replaced_by": N_("replaced by {name}"),
    "open_game": N_("Open the game"),
    "not_drawn": N_("The seating is not drawn yet."),
    "final": N_("Final table"),
    "published_n": N_("Published games: {n}"),
    "col_player": N_("Player"),
    "col_points": N_("Pts"),
    "col_games": N_("G"),
    "col_wins": N_("W"),
    "col_add": N_("Add."),
    "col_bm": N_("BM"),
    "col_per_game": N_("/G"),
    "per_game": N_("Points per game"),
    "points": N_("Points"),
    "games": N_("Games"),
    "wins": N_("Wins"),
    "additional": N_("Additional points"),
    "best_move": N_("Best-move points"),
    "won": N_("won"),
    "lost": N_("lost"),
    "as_role": N_("as {role}"),
    "total_points": N_("{points} points"),
    "no_games": N_("You have no games in this tournament."),
    "you_sit_out": N_("You sit out rounds: {rounds}."),
    "download": N_("Download"),
    "export_json": N_("Everything (JSON)"),
    "export_csv": N_("Standings (CSV)"),
    "export_note": N_("The same files as /tournament export; the links work for 5 minutes."),
    "offline": N_("Connection lost; reconnecting…"),
}


def tournament_texts(_: Gettext) -> dict[str, str]:
    """The tournament page's words in the language of ``_`` (gettext)."""
    return {key: _(msgid) for key, msgid in TOURNAMENT_TEXTS.items()}


def page_texts(_: Gettext) -> dict[str, str]:
    """Every page text in the language of ``_`` (gettext)."""
    return {key: _(msgid) for key, msgid in PAGE_TEXTS.items()}


__all__ = ["CONFIRMS", "Gettext", "JUDGE_WORDS", "PAGE_TEXTS", "TOURNAMENT_TEXTS", "page_texts",
           "tournament_texts"]
