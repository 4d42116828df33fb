"""Shared wording: player labels, role names and descriptions, reasons (all translatable)."""

from __future__ import annotations

from engine import GameState, Role, Team

from .i18n import N_
from .names import isolate

ROLE_NAMES = {
    Role.CIVILIAN: N_("Civilian"),
    Role.MAFIA: N_("Mafia"),
    Role.COMMISSAR: N_("Commissar"),
    Role.DOCTOR: N_("Doctor"),
    Role.SHERIFF: N_("Sheriff"),
    Role.DON: N_("Don"),
    Role.MANIAC: N_("Maniac"),
    Role.PUTANA: N_("Putana"),
    Role.JOURNALIST: N_("Journalist"),
    Role.SLEEPWALKER: N_("Sleepwalker"),
    Role.WEREWOLF: N_("Werewolf"),
    Role.COP: N_("Cop"),
}
ROLE_ICONS = {Role.CIVILIAN: "🙂", Role.MAFIA: "🕶", Role.COMMISSAR: "🔎", Role.DOCTOR: "💉",
              Role.SHERIFF: "⭐", Role.DON: "🎩", Role.MANIAC: "🔪", Role.PUTANA: "💋",
              Role.JOURNALIST: "📰", Role.SLEEPWALKER: "🌛", Role.WEREWOLF: "🐺", Role.COP: "👮"}
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
    Role.MANIAC: N_("On the first night you choose the side you win with (Town if you do not). "
                    "On your nights you kill any other living player, a mafioso too."),
    Role.PUTANA: N_("On the first night you choose the side you win with (Town if you do not). "
                    "On your nights you infect a player: he dies at the end of the next night "
                    "unless the Doctor heals him."),
    Role.JOURNALIST: N_("Each night from the second one you compare two other players and learn "
                        "whether they play for the same side (Mafia, Maniac or Town)."),
    Role.SLEEPWALKER: N_("You are Town, but you sit in the mafia's chat and know the mafiosi; they "
                         "do not know who you are. Your pick never counts; if the mafia agree on "
                         "you, you are revealed and leave in the morning."),
    Role.WEREWOLF: N_("You are Town until the last mafioso leaves the game: then you become the "
                      "Mafia yourself."),
    Role.COP: N_("Each night from the second one you act first: the player you choose is immune "
                 "tonight; if he is a mafioso, the mafia kill nobody."),
}
PRESET_NAMES = {"party": N_("Party mafia"), "club": N_("Club sport mafia"),
                "online": N_("Online sport mafia"), "forum": N_("Forum mafia")}
TEAM_NAMES = {Team.TOWN: N_("Town"), Team.MAFIA: N_("Mafia")}

ELIMINATION_CAUSES = {
    "vote": N_("{player} is voted out."),
    "sole_nominee": N_("{player} was the only nominee and leaves the game."),
    "exclude_all": N_("{player} leaves the game with the whole tied group."),
    "night": N_("{player} was killed tonight."),
    "disqualified": N_("🟥 {player} is disqualified and leaves at once, without a last word."),
    "lift": N_("{player} is lifted from the table."),
    "host_decision": N_("{player} leaves the game by the host's decision."),
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
    "no_votes": N_("Nobody voted: nobody leaves."),
    "tie_again": N_("The revote is tied again: nobody leaves."),
    "host_spared": N_("The host spares the tied: nobody leaves."),
}
#: FORUM: why a player is warned or removed (``IssueWarning.reason``, ``PlayerRemoved.reason``)
SANCTION_REASONS = {
    "no_vote": N_("did not vote"),
    "oath": N_("swearing"),
    "insult": N_("insulting a player"),
    "card": N_("opened his card"),
    "mafia_list": N_("published the mafia's list"),
    "private_messages": N_("private messages about the game"),
    "warnings": N_("too many warnings"),
}
INACTIVE_REASONS = {
    "blocked": N_("{player} cannot be reached in private (he has not started the bot or has "
                   "blocked it) and is inactive now."),
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
    # NOIR's refusals (engine/noir/errors.py); the only bad setup a lobby can meet is its count
    "noir_bad_setup": N_("NOIR needs exactly 6 or 8 players."),
    "noir_not_in_game": N_("You are not playing in this game."),
    "noir_already_joined": N_("You are already in this game."),
    "noir_game_full": N_("The game is full."),
    "noir_not_allowed": N_("You can't do that."),
    "noir_wrong_phase": N_("This button is out of date."),
    "noir_not_your_turn": N_("It's not your turn."),
    "noir_invalid_target": N_("You can't choose that now."),
    "noir_undo_forbidden": N_("That shift would undo the previous one: not allowed."),
    "noir_already_used": N_("You have already made your choice."),
    "noir_paused": N_("The game is paused."),
    "noir_not_paused": N_("The game is not paused."),
    "noir_pause_limit": N_("You have used all your pauses."),
    "noir_game_over": N_("This game is over."),
}

#: refusals worded by the engine's reason (``str(error)``), where the class alone says too
#: little: the judge's tools (CLUB-41, CLUB-X16, CLUB-X18..X20)
REASONS = {
    "only the host gives fouls": N_("Only the judge can do that."),
    "nothing to undo": N_("Nothing to take back: Undo works right after your foul, removed "
                          "nomination or disqualification, before anything else happens."),
    "the game has moved on": N_("Too late to take it back: the game has moved on. A foul can "
                                "still be taken back with /unfoul."),
    "a silenced turn has no speech": N_("This turn has no speech (three fouls): no time to add."),
    "the turn is long enough": N_("The turn would pass 5 minutes: no more time."),
    "no turn": N_("No speech, defence or last word is running now."),
}


def label(st: GameState, user_id: int | None) -> str:
    """``№3 ⁨Alice⁩`` (HTML-escaped, the name bidi-isolated: :mod:`bot.ui.names`), or just the name
    before seats are dealt. The state's names are the current display names (the service's
    name map), so an invisible name reads ``№6 Player 6``."""
    if user_id is None:
        return "—"
    p = st.players.get(user_id)
    if p is None:
        return isolate(st.host_name) if user_id == st.host else "?"
    if not p.seat:
        return isolate(p.name)
    return f"№{p.seat} {isolate(p.name, fallback='')}".rstrip()


def seat(st: GameState, user_id: int) -> str:
    p = st.players.get(user_id)
    return f"№{p.seat}" if p and p.seat else "?"
