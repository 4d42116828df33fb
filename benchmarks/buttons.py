"""Simulated players of any mafia preset: they press the buttons the bot actually sent.

The party preset keeps its hand-tuned plans (``benchmarks/players.py``); the other presets
(club, online, forum) are played by this generic planner, which needs no knowledge of their
phases. Every step, for every participant it asks the engine what he may do
(``legal_actions``), looks at the newest messages with buttons in his private chat and in the
group, keeps the buttons whose press the game's codec turns into a command that ``legal_actions``
allows (:func:`allowed`), and plans one press per window: a code drawn uniformly among the
allowed codes, then a target among that code's buttons, after a human delay. A participant may
press up to :data:`PRESSES_PER_WINDOW` times in one window (a Don shoots and checks, the best
move takes three taps, the Journalist two), each press planned after the previous one.

The simulation never sends a command the bot would not offer as a button, so the calls counted
are the calls a real table of players would cause, give or take their choices.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ui.callbacks import Act
from engine import GameState, LegalActions, Phase, legal_actions

from .presses import DELAYS, Option, PlanningTable

#: the command that opens each preset's lobby (the forum with some of its optional roles)
NEWGAME = {"party": "/newgame", "club": "/newgame club", "online": "/newgame online",
           "forum": "/newgame forum maniac putana journalist"}
#: players per table when ``--players`` is not given
DEFAULT_PLAYERS = {"party": 7, "club": 10, "online": 8, "forum": 9}
#: codes the simulated players never press: pause/resume and the judge's or host's discipline
NEVER = frozenset({"pause", "resume", "foul", "dq", "warn", "next"})
#: multi-tap codes whose answer is a progress note, not a confirmation (never a refusal)
DRAFTS = frozenset({"bm", "cmp", "bg"})
PRESSES_PER_WINDOW = 3
RECENT = 12  #: newest messages of a chat searched for buttons
TALK_TO_TIMER = 0.1  #: share of turns that run until the timer instead of ending early


def delay_kind(st: GameState) -> str:
    """The human delay (a key of ``presses.DELAYS``) for a press in the phase of ``st``."""
    value = getattr(st.phase, "value", str(st.phase))
    if value in ("speech", "defence", "last_word", "cop", "debate"):
        return "speech"
    if value == "night":
        return "night"
    if value in ("voting", "revote", "ballot", "lift_vote", "day_vote"):
        return "vote"
    return "press"


def allowed(code: str, act: Act, uid: int, st: GameState, la: LegalActions) -> bool:
    """True when the button ``act`` (code ``code``) is one ``uid`` may press now (``la``: his
    ``legal_actions``, the preset's subclass of :class:`LegalActions`); the command is the one
    the game's codec would build."""
    target = None
    if act.t:
        try:
            target = st.by_seat(act.t).user_id
        except KeyError:
            return False

    def flag(name: str) -> bool:  # a yes/no field of the preset's own (False in other presets)
        return bool(getattr(la, name, False))

    def targets(name: str) -> tuple[int, ...]:  # user ids of a preset's own field (or none)
        found: tuple[int, ...] = getattr(la, name, ())
        return found

    if code == "ready":
        return la.ready
    if code == "cont":
        return la.continue_
    if code == "end":
        return la.end_speech
    if code == "nom":
        return target in la.nominate
    if code == "vote":
        return la.vote == target or target in targets("day_vote")
    if code in ("exy", "exn"):
        return la.exclude_vote
    if code == "sleep":
        return la.sleep
    if code in ("kill", "check", "heal", "scheck", "dcheck", "block", "slay", "infect"):
        return (target in la.night_targets and la.night_action is not None) or \
            (target in la.night_extra_targets and la.night_extra is not None)
    if code == "tv":
        return target in targets("ballot") if target else flag("ballot_pass")
    if code in ("lift", "leave"):
        return flag("lift_vote")
    if code == "bm":
        return target in targets("best_move")
    if code == "bmx":
        return bool(targets("best_move"))
    if code == "side":
        return flag("choose_side")
    if code == "cmp":
        return target in targets("compare")
    if code == "sus":
        return target in targets("suspect")
    if code == "rchk":
        return target in targets("reveal_check")
    if code == "hd":
        decide = targets("host_decide")
        return bool(decide) and (target is None or target in decide)
    if code in ("bon", "boff"):
        return flag("bonus_decide")
    if code == "bg":
        return target in targets("bonus_guess")
    if code in ("bgs", "bgx"):
        return bool(targets("bonus_guess"))
    if code == "best":
        return target in targets("best_player")
    return False


@dataclass(frozen=True)
class Button:
    chat_id: int
    message_id: int
    data: str
    code: str


def buttons(table: PlanningTable, chat_id: int, phase_seq: int) -> list[Button]:
    """The callback buttons of this phase (or of no phase) on the newest messages of a chat."""
    out: list[Button] = []
    for message_id in table.session.chat_messages.get(chat_id, ())[-RECENT:]:
        message = table.session.messages.get((chat_id, message_id))
        if not message:
            continue
        for row in (message.get("reply_markup") or {}).get("inline_keyboard", ()):
            for button in row:
                data = button.get("callback_data") or ""
                if not data.startswith("a:"):
                    continue
                act = Act.unpack(data)
                if act.s in (0, phase_seq) and act.a not in NEVER:
                    out.append(Button(chat_id, message_id, data, act.a))
    return out


def options(table: PlanningTable, st: GameState) -> list[Planned]:
    """The planned presses of every participant in this window."""
    group = buttons(table, table.group_id, st.phase_seq)
    kind = delay_kind(st)
    out: list[Planned] = []
    for uid, user in table.by_id.items():
        done = table.plan.get((uid, "done"), 0)
        if done >= PRESSES_PER_WINDOW:
            continue
        key = (uid, "generic", done)
        if key in table.plan:
            planned = table.plan[key]
            if planned is not None:
                out.append(planned)
            continue
        if st.phase is not Phase.LOBBY and uid not in st.players and uid != st.host:
            continue
        la = legal_actions(st, uid)
        mine = [b for b in group + buttons(table, uid, st.phase_seq)
                if allowed(b.code, Act.unpack(b.data), uid, st, la)]
        if not mine:
            continue  # nothing now: asked again at the next step (not planned)
        codes = sorted({b.code for b in mine})
        rng = table.rng
        code = rng.choice(codes)
        if code == "end" and rng.random() < TALK_TO_TIMER:
            table.plan[key] = None  # he talks until the timer
            continue
        pick = rng.choice([b for b in mine if b.code == code])
        start = table.vnow if done else table.window_start
        due = start + rng.uniform(*DELAYS[kind if code != "end" else "speech"])
        planned = Planned(Option(due, user, "generic", pick.chat_id, pick.code, None), pick)
        table.plan[key] = planned
        out.append(planned)
    return out


async def press_planned(table: PlanningTable, planned: Planned, st: GameState) -> None:
    """Press the exact button the planner chose, if it is still offered to him and allowed
    (else count it as missing: the table moved on before he pressed)."""
    from bot.handlers.game import CONFIRM  # here: the engine-only run (cli) needs no handlers

    user, button = planned.option.user, planned.button
    done = table.plan.get((user.id, "done"), 0)
    table.plan[(user.id, "done")] = done + 1
    message = table.session.messages.get((button.chat_id, button.message_id)) or {}
    offered = any(b.get("callback_data") == button.data
                  for row in (message.get("reply_markup") or {}).get("inline_keyboard", ())
                  for b in row)
    if not offered or not allowed(button.code, Act.unpack(button.data), user.id, st,
                                  legal_actions(st, user.id)):
        table.missing += 1
        return
    table.last_answer = None
    table.presses += 1
    await table.feed(table.updates.callback(user, (button.chat_id, button.message_id),
                                            button.data))
    if button.code not in DRAFTS and table.last_answer is not None \
            and table.last_answer not in CONFIRM.values():
        table.refused += 1
        table.refusals[table.last_answer] += 1


@dataclass(frozen=True)
class Planned:
    """A planned press of one exact button (``option`` as the party planner's)."""

    option: Option
    button: Button

    @property
    def due(self) -> float:
        return self.option.due
