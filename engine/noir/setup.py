"""The lobby and the deal (NOIR-01..05, 08, Q17, Q18, X09, X23)."""

from __future__ import annotations

from . import turns
from .commands import CancelGame, CreateGame, Join, Leave, StartGame
from .errors import AlreadyJoined, BadSetup, GameFull, NotAllowed, NotInGame, WrongPhase
from .events import Event, GameCancelled, GameCreated, GameStarted, PlayerJoined, PlayerLeft
from .identities import send_cards, send_hand
from .rules import HAND_SIZE, TABLES, Role, Team, options, timings
from .state import NoirState, Player
from .step import Step

MAX_PLAYERS = max(TABLES)


def create(cmd: CreateGame) -> tuple[NoirState, list[Event]]:
    """``CreateGame``: a lobby.  BadSetup on a bad timing or option."""
    try:
        t, o = timings(cmd.settings), options(cmd.settings)
    except ValueError as exc:
        raise BadSetup(str(exc)) from exc
    st = NoirState(organiser=cmd.user_id, settings=dict(cmd.settings), timings=t, options=o)
    return st, [GameCreated(organiser=cmd.user_id, timings=tuple(sorted(t.items())))]


def _lobby(st: NoirState) -> None:
    if st.phase != "lobby":
        raise WrongPhase(st.phase)


def join(s: Step, cmd: Join) -> None:
    st = s.st
    _lobby(st)
    if cmd.user_id is None:
        raise NotInGame()
    if cmd.user_id in st.players:
        raise AlreadyJoined()
    if len(st.players) >= MAX_PLAYERS:
        raise GameFull()
    st.players[cmd.user_id] = Player(user_id=cmd.user_id, name=str(cmd.name))
    s.emit(PlayerJoined(user_id=cmd.user_id, name=str(cmd.name), count=len(st.players)))


def leave(s: Step, cmd: Leave) -> None:
    st = s.st
    _lobby(st)
    if cmd.user_id not in st.players:
        raise NotInGame()
    del st.players[cmd.user_id]
    s.emit(PlayerLeft(user_id=cmd.user_id, count=len(st.players)))


def cancel(s: Step, cmd: CancelGame) -> None:
    st = s.st
    if cmd.user_id is not None and cmd.user_id != st.organiser:
        raise NotAllowed()
    st.phase = "cancelled"
    st.step = ""
    st.paused = None
    st.window = None
    st.queue = []
    s.disarm()
    s.emit(GameCancelled(by=cmd.user_id, reason=cmd.reason))


def check_deal(st: NoirState, cmd: StartGame) -> None:
    """NOIR-01, 02, 07, 08, Q18, X09: 6 or 8 joined players, the table's roles, alternating teams
    with the Killer first; ``layout`` and ``deck`` permutations of the suspects."""
    n = len(st.players)
    if n not in TABLES:
        raise BadSetup(f"needs 6 or 8 players, has {n}")
    table = TABLES[n]
    order, roles = tuple(cmd.order), tuple(Role(r) for r in cmd.roles)
    if sorted(order) != sorted(st.players) or len(roles) != n:
        raise BadSetup("the order must hold every joined player once")
    if sorted(r.value for r in roles) != sorted(r.value for r in table.roles):
        raise BadSetup("roles do not match the table")
    if roles[0] != Role.KILLER:
        raise BadSetup("the Killer goes first")
    if any(r.team != (Team.MAFIA if i % 2 == 0 else Team.AGENTS) for i, r in enumerate(roles)):
        raise BadSetup("teams must alternate")
    if not isinstance(cmd.seed, int) or isinstance(cmd.seed, bool):
        raise BadSetup("seed must be an int")
    every = list(range(table.size * table.size))
    if sorted(cmd.layout) != every or sorted(cmd.deck) != every:
        raise BadSetup("layout and deck must hold every suspect once")


def start(s: Step, cmd: StartGame) -> None:
    """Deal: identities from the deck's top in turn order, then the Profiler's 4 cards; the
    Killer's turn opens (NOIR-08)."""
    st = s.st
    _lobby(st)
    if cmd.user_id is not None and cmd.user_id != st.organiser:
        raise NotAllowed()
    try:
        check_deal(st, cmd)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, BadSetup):
            raise
        raise BadSetup(f"malformed deal: {exc}") from exc
    n = len(st.players)
    size = TABLES[n].size
    st.order = list(cmd.order)
    st.players = {u: st.players[u] for u in st.order}
    deck = list(cmd.deck)
    for u, r in zip(st.order, cmd.roles, strict=True):
        st.players[u].role = Role(r)
        st.players[u].identity = deck.pop(0)
    if Role.PROFILER in st.table.roles:
        st.hand, deck = deck[:HAND_SIZE], deck[HAND_SIZE:]
    st.deck = deck
    layout = list(cmd.layout)
    st.grid = [layout[r * size:(r + 1) * size] for r in range(size)]
    st.size = size
    st.seed = cmd.seed
    st.phase = "play"
    st.turn = 0
    s.emit(GameStarted(order=tuple((u, st.players[u].dealt_role.value) for u in st.order),
                       rows=size, cols=size, layout=tuple(layout),
                       arrests_needed=st.table.arrests_needed,
                       points_needed=st.table.points_needed))
    send_cards(s, Team.MAFIA)
    send_cards(s, Team.AGENTS)
    send_hand(s)
    turns.begin_turn(s)
