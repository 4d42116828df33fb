"""``/rules``: a short in-chat summary of each preset, linked to its page in ``docs/rules``.

``/rules`` explains the preset of the chat's running game or open lobby (party when there is
none); ``/rules club`` (any preset name or alias the engine knows: ``find_ruleset``) explains that
one. The summaries paraphrase the rule pages, which stay the reference; the link points to
``RULES_URL`` + ``<page>`` when the environment variable ``RULES_URL`` is set (the base URL of
the published ``docs/rules/`` folder, e.g. a repository's ``…/blob/main/docs/rules/``; the
``RULES_URL`` setting, bot/config.py), and
otherwise names the page in the bot's repository.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .i18n import N_

if TYPE_CHECKING:
    from .i18n import Gettext

#: preset -> its page in docs/rules/
PAGES = {"party": "party.md", "club": "club.md", "online": "online-sport.md",
         "forum": "forum.md", "noir": "noir.md"}

SUMMARIES = {
    "party": N_(
        "<b>Party mafia</b> (5–12 players)\n"
        "Town wins when no mafioso is left; the mafia wins when it is as many as everyone else.\n"
        "Night 1: the mafia gets acquainted; nobody acts.\n"
        "Day: speeches in seat order; during a speech the speaker may nominate one living player "
        "(the speaker too). Nominees defend. A single nominee leaves without a vote; with "
        "several, everyone votes once, candidate by candidate. A tie: the tied defend again and "
        "a new vote follows; the same tie again: a vote on eliminating them all (a majority of "
        "the active living players). With 3 alive, everyone tied or half the table tied, night "
        "falls.\n"
        "Night: the mafia must agree on one victim; the Commissar checks a player; the Doctor "
        "protects one (the Doctor too).\n"
        "Everyone eliminated gets a last word; roles are revealed only at the end."),
    "club": N_(
        "<b>Club sport mafia</b> (exactly 10 players and a judge)\n"
        "7 red (6 civilians and the Sheriff) against 3 black (2 mafiosi and the Don).\n"
        "Night 1: a one-minute mafia meeting; no shots, no checks.\n"
        "Day: one-minute speeches in turn; each speaker may nominate one player. Nominees defend, "
        "then the table votes candidate by candidate; silent votes go to the last nominee. A tie: "
        "the tied speak again and a revote follows; the same tie again: a vote on lifting them "
        "all.\n"
        "Night: the mafia shoot blind (every black on the same seat, or a miss); the Don looks "
        "for the Sheriff, the Sheriff checks red or black; the answers come at dawn.\n"
        "Fouls from the judge: the third costs the next speech, the fourth removes the player; "
        "a disqualification removes at once. Roles are revealed at the end."),
    "online": N_(
        "<b>Online sport mafia</b> (6–10 players)\n"
        "Reds (civilians and the Sheriff) against blacks (the mafia and the Don).\n"
        "Night 1: the blacks meet in the team chat; nobody acts.\n"
        "Day: an open discussion in the group with a vote at the same time: taps are "
        "preliminary until the final ones, PASS is allowed. A tie: the leaders defend and a "
        "revote follows; then, depending on the table, a Lift/Leave decision.\n"
        "Night: the shot needs every black on one target; three misfires in a row and the town "
        "wins. The Don searches for the Sheriff, the Sheriff checks; results come privately.\n"
        "The first victim of a shot names three suspects (the best move). Offline players turn "
        "AFK after a while. Roles are revealed at the end."),
    "forum": N_(
        "<b>Forum mafia</b> (4–12 players, a slow game led by a host)\n"
        "Town against the Mafia, with optional roles chosen in the lobby: the Commissar, the "
        "Doctor, the Maniac, the Putana, the Journalist, the Sleepwalker, the Werewolf and the "
        "Cop.\n"
        "Day: a discussion, then one vote in which everybody must vote; the tied go to a revote "
        "in which they do not vote. A last word only for a Town status; a card is shown when a "
        "player leaves.\n"
        "Night: each role acts in the private chat; the mafia talk in the team chat.\n"
        "The host gives warnings and removals. After the win: a bonus round (guess the "
        "survivors' roles) and a vote for the best player."),
    "noir": N_(
        "<b>NOIR: FBI vs Mafia</b> (6 or 8 players)\n"
        "Two teams: the mafia (Killer, Psycho, Bomber; with 8 also the Sniper) and the agents "
        "(Undercover, Detective, Suit; with 8 also the Profiler). Roles are public; each player "
        "hides behind a secret identity, one suspect of the grid (6×6, with 8 players 7×7), "
        "known only to his team.\n"
        "Turns alternate mafia, agent, …; the Killer opens. A turn is one action, chosen in the "
        "private chat on a picker of the grid: shift a row or a column (wrapping around; never "
        "straight back), collapse the dead, or the role's own action — kill, threaten, bomb, "
        "shoot; accuse, autopsy, interrogate, protect, profile.\n"
        "An accusation that names a mafioso's suspect arrests him (he takes a new identity). "
        "The agents win at 4 arrests (5 with 8 players); the mafia at 18 dead (25), an agent's "
        "identity counting 2.\n"
        "There is no private team chat: talk openly in the group. A turn lasts 120 s "
        "(/settings turn 90); two timeouts in a row and your turns pass until you are back."),
}


def page_link(_: Gettext, preset: str, base: str | None = None) -> str:
    """"Full rules: <link>" for ``preset``; ``base``: the ``RULES_URL`` setting or None (see the
    module docstring)."""
    page = PAGES.get(preset, PAGES["party"])
    base = (base or "").strip()
    if base:
        url = base.rstrip("/") + "/" + page
        return _("Full rules: {link}").format(
            link=f'<a href="{escape(url, quote=True)}">{escape(page)}</a>')
    return _("Full rules: {link}").format(link=f"<code>docs/rules/{escape(page)}</code>")


def rules_text(_: Gettext, preset: str, base: str | None = None) -> str:
    """The summary of ``preset`` (a preset name; unknown ones get party's) and its link
    (``base``: the ``RULES_URL`` setting, or None)."""
    summary = SUMMARIES.get(preset, SUMMARIES["party"])
    other = ", ".join(f"/rules {p}" for p in PAGES if p != preset)
    return "\n".join([_(summary), "", page_link(_, preset, base), _("Other presets: {list}.").format(
        list=other)])
