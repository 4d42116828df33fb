"""Shared wording: player labels, role names and descriptions, reasons (all translatable)."""

from __future__ import annotations

from html import escape

from engine import GameState, Role, Team

from .i18n import N_

ROLE_NAMES = {
    Role.CIVILIAN: N_("Civilian"),
    Role.MAFIA: N_("Mafia"),
    Role.COMMISSAR: N_("Commissar"),
    Role.DOCTOR: N_("Doctor"),
    Role.SHERIFF: N_("Sheriff"),
    Role.DON: N_("Don"),
}
ROLE_ICONS = {Role.CIVILIAN: "🙂", Role.MAFIA: "🕶", Role.COMMISSAR: "🔎", Role.DOCTOR: "💉",
              Role.SHERIFF: "⭐", Role.DON: "🎩"}
ROLE_HELP = {
    Role.CIVILIAN: N_("You have no night action. Find the mafia by talking and voting."),
    Role.MAFIA: N_("At night you and your teammates agree on one victim. Write to me at night "
                   "and I pass it on to your team."),
    Role.COMMISSAR: N_("Each night from the second one you check a player and learn whether he "
                       "is mafia."),
    Role.DOCTOR: N_("Each night from the second one you protect one player from the mafia's "
                    "shot; yourself too, and the same player again if you like."),
    Role.SHERIFF: N_("You are the red team's secret leader. Each night after the first you check "
                     "one player and learn whether he is red or black."),
    Role.DON: N_("You lead the black team. You shoot with the mafia, and each night after the "
                 "first you look for the Sheriff among the reds."),
}
PRESET_NAMES = {"party": N_("Party mafia"), "club": N_("Club sport mafia"),
                "online": N_("Online sport mafia")}
TEAM_NAMES = {Team.TOWN: N_("Town"), Team.MAFIA: N_("Mafia")}

ELIMINATION_CAUSES = {
    "vote": N_("{player} is voted out."),
    "sole_nominee": N_("{player} was the only nominee and leaves the game."),
    "exclude_all": N_("{player} leaves the game with the whole tied group."),
    "night": N_("{player} was killed tonight."),
    "disqualified": N_("🟥 {player} is disqualified and leaves at once, without a last word."),
    "lift": N_("{player} is lifted from the table."),
}
NO_ELIMINATION = {
    "no_nominations": N_("Nobody was nominated today."),
    "three_alive": N_("A tie with three players alive: nobody leaves."),
    "all_tied": N_("Every living player is tied: nobody leaves."),
    "half_tied": N_("Half the table is tied: nobody leaves."),
    "exclude_failed": N_("Not enough votes to eliminate the group: nobody leaves."),
    "day1_single": N_("A single nominee on day 1 is not voted on: nobody leaves."),
    "vote_cancelled": N_("A disqualification cancelled today's vote: nobody leaves."),
    "all_pass": N_("Nobody got a vote: nobody leaves."),
    "day1_single_vote": N_("On day 1 a single vote with everyone else on PASS removes nobody."),
    "tie_at_ten": N_("Three or more leaders at a table of ten: nobody leaves."),
    "lift_failed": N_("Not enough «Lift» votes: the candidates stay."),
}
INACTIVE_REASONS = {
    "blocked": N_("{player} cannot be reached (the bot is blocked) and is inactive now."),
    "left": N_("{player} left the group and is inactive now."),
    "away": N_("{player} stepped away and is inactive now."),
    "missed": N_("{player} missed his turns and is inactive now."),
}
ERRORS = {
    "not_in_game": N_("You are not playing in this game."),
    "already_joined": N_("You are already in this game."),
    "game_full": N_("The game is full."),
    "not_enough_players": N_("Not enough players yet."),
    "not_allowed": N_("You can't do that."),
    "phase_closed": N_("This button is out of date."),
    "not_your_turn": N_("It's not your turn."),
    "player_dead": N_("You are out of the game; you can only watch."),
    "target_not_alive": N_("That player is out of the game."),
    "invalid_target": N_("You can't choose that player now."),
    "already_nominated": N_("You have already nominated someone in this speech."),
    "duplicate_nomination": N_("That player is already nominated; choose another."),
    "already_voted": N_("You have already voted in this round."),
    "already_acted": N_("You have already made your choice."),
    "no_night_action": N_("Nothing to do for you tonight."),
    "game_paused": N_("The game is paused."),
    "not_paused": N_("The game is not paused."),
    "pause_limit": N_("You have used all your pauses."),
    "game_over": N_("This game is over."),
    "bad_setup": N_("These settings are not valid."),
    "illegal": N_("That is not possible now."),
}


def label(st: GameState, user_id: int | None) -> str:
    """``№3 Alice`` (HTML-escaped), or just the name before seats are dealt."""
    if user_id is None:
        return "—"
    p = st.players.get(user_id)
    if p is None:
        return escape(st.host_name or "?") if user_id == st.host else "?"
    name = escape(p.name)
    return f"№{p.seat} {name}" if p.seat else name


def seat(st: GameState, user_id: int) -> str:
    p = st.players.get(user_id)
    return f"№{p.seat}" if p and p.seat else "?"
