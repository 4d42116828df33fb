"""The mafia's role actions: Killer, Psycho, Bomber, Sniper (NOIR-19..27, Q06, Q08..Q10, Q27),
and the identity change the Killer shares with the Undercover (NOIR-19, 29, Q14).

Each ``*_targets`` function is the exact set the action accepts; :mod:`.queries` offers it."""

from __future__ import annotations

from . import turns
from .commands import ChangeIdentity, Detonate, Kill, MoveToken, PlaceBomb, PlaceThreats, Shoot, Swap
from .common import guard, main_done
from .errors import InvalidTarget
from .events import (
    BombPlaced,
    Detonated,
    KillAttempted,
    Shot,
    Swapped,
    ThreatsPlaced,
    TokenMoved,
)
from .grid import adjacent, diagonal, neighbours, positions
from .grid import swap as swap_cells
from .identities import identity_usable, new_identity, peek
from .rules import LINE_REACH, Role
from .state import NoirState, Player
from .step import Step

TOKEN_KINDS = ("bomb", "threat", "shield")


def _tokens(st: NoirState, kind: str) -> set[int]:
    return {"bomb": st.bombs, "threat": st.threats, "shield": st.shields}[kind]


# --- Killer ------------------------------------------------------------------------------------
def kill_targets(st: NoirState, p: Player) -> list[int]:
    """NOIR-19, Q27: adjacent living, unarrested suspects (a teammate's too)."""
    if p.identity is None:
        return []
    return [x for x in neighbours(st, p.identity) if st.killable(x)]


def kill(s: Step, cmd: Kill) -> None:
    p = guard(s, cmd.user_id, roles=(Role.KILLER,))
    if cmd.target not in kill_targets(s.st, p):
        raise InvalidTarget("kill")
    s.st.last_action = ("kill", cmd.target)
    s.emit(KillAttempted(player=p.user_id, target=cmd.target))
    turns.run_kills(s, [(cmd.target, "kill")], "end")


def can_change_identity(st: NoirState) -> bool:
    """NOIR-X21: only while the deck holds a usable card."""
    return bool(peek(st, lambda c: identity_usable(st, c), 1))


def change_identity(s: Step, cmd: ChangeIdentity) -> None:
    p = guard(s, cmd.user_id, roles=(Role.KILLER, Role.UNDERCOVER))
    if not can_change_identity(s.st):
        raise InvalidTarget("no card")
    s.st.last_action = ("identity",)
    new_identity(s, p, "chose")
    turns.finish_action(s)


# --- Psycho ------------------------------------------------------------------------------------
def swap_pairs(st: NoirState, p: Player) -> list[tuple[int, int]]:
    """NOIR-21, Q06, X13: any two suspects both adjacent to the Psycho (dead ones too)."""
    if p.identity is None:
        return []
    ns = neighbours(st, p.identity)
    return [(a, b) for i, a in enumerate(ns) for b in ns[i + 1:]]


def swap(s: Step, cmd: Swap) -> None:
    p = guard(s, cmd.user_id, roles=(Role.PSYCHO,))
    st = s.st
    pair = (cmd.first, cmd.second)
    if pair not in swap_pairs(st, p) and pair[::-1] not in swap_pairs(st, p):
        raise InvalidTarget("swap")
    swap_cells(st, cmd.first, cmd.second)
    st.last_action = ("swap", cmd.first, cmd.second)
    s.emit(Swapped(player=p.user_id, first=cmd.first, second=cmd.second))
    main_done(s, p)


def place_threats(s: Step, cmd: PlaceThreats) -> None:
    """NOIR-22, Q08: 1..3 different cells from :func:`turns.threat_cells`."""
    p = guard(s, cmd.user_id, roles=(Role.PSYCHO,), step="threats")
    st = s.st
    cells = turns.threat_cells(st, p)
    targets = tuple(cmd.targets) if isinstance(cmd.targets, (tuple, list)) else ()
    if not 1 <= len(targets) <= 3 or len(set(targets)) != len(targets) \
            or any(t not in cells for t in targets):
        raise InvalidTarget("threats")
    st.threats.update(targets)
    st.last_action = ("threats", *targets)
    s.emit(ThreatsPlaced(player=p.user_id, targets=targets))
    turns.finish_action(s)


# --- Bomber ------------------------------------------------------------------------------------
def bomb_targets(st: NoirState, p: Player) -> list[int]:
    """NOIR-23, Q09: his own suspect or an adjacent one, living, unarrested, without a bomb."""
    if p.identity is None:
        return []
    return [x for x in [p.identity] + neighbours(st, p.identity)
            if st.killable(x) and x not in st.bombs]


def place_bomb(s: Step, cmd: PlaceBomb) -> None:
    p = guard(s, cmd.user_id, roles=(Role.BOMBER,))
    if cmd.target not in bomb_targets(s.st, p):
        raise InvalidTarget("bomb")
    s.st.bombs.add(cmd.target)
    s.st.last_action = ("bomb", cmd.target)
    s.emit(BombPlaced(player=p.user_id, target=cmd.target))
    turns.finish_action(s)


def chain_links(st: NoirState, bomb: int, chain: tuple[int, ...] = ()) -> list[int]:
    """NOIR-24, 25, Q09, X15: the suspects the blast may reach next after ``bomb`` and ``chain``:
    living, unarrested neighbours of the last link not yet in the chain; none once the last link
    carries no bomb.  The chain may stop after any link, and must have one when one is open."""
    if chain and chain[-1] not in st.bombs:
        return []
    last = chain[-1] if chain else bomb
    seen = {bomb, *chain}
    return [x for x in neighbours(st, last) if st.killable(x) and x not in seen]


def detonate(s: Step, cmd: Detonate) -> None:
    p = guard(s, cmd.user_id, roles=(Role.BOMBER,))
    st = s.st
    if cmd.bomb not in st.bombs:
        raise InvalidTarget("no bomb")
    if not isinstance(cmd.chain, (tuple, list)):
        raise InvalidTarget("chain")
    chain = tuple(cmd.chain)
    for i, link in enumerate(chain):
        if link not in chain_links(st, cmd.bomb, chain[:i]):
            raise InvalidTarget("chain")
    if not chain and chain_links(st, cmd.bomb):
        raise InvalidTarget("the blast takes a neighbour")
    st.last_action = ("detonate", cmd.bomb, *chain)
    s.emit(Detonated(player=p.user_id, bomb=cmd.bomb, chain=chain))
    turns.run_kills(s, [(x, "bomb") for x in (cmd.bomb, *chain)], "end")


# --- Sniper ------------------------------------------------------------------------------------
def shot_targets(st: NoirState, p: Player) -> list[int]:
    """NOIR-26: living, unarrested suspects 1..3 cells away on a diagonal."""
    if p.identity is None:
        return []
    return [x for x in diagonal(st, p.identity, LINE_REACH) if st.killable(x)]


def shoot(s: Step, cmd: Shoot) -> None:
    p = guard(s, cmd.user_id, roles=(Role.SNIPER,))
    if cmd.target not in shot_targets(s.st, p):
        raise InvalidTarget("shot")
    s.st.last_action = ("shot", cmd.target)
    s.emit(Shot(player=p.user_id, target=cmd.target))
    turns.run_kills(s, [(cmd.target, "shot")], "end")


def token_moves(st: NoirState) -> list[tuple[str, int, int]]:
    """NOIR-27, Q10: (kind, source, dest): any token to an adjacent living, unarrested suspect
    without a token of that kind."""
    pos = positions(st)
    out = []
    for kind in TOKEN_KINDS:
        tokens = _tokens(st, kind)
        for src in sorted(tokens, key=pos.__getitem__):
            for dst in neighbours(st, src, pos):
                if st.killable(dst) and dst not in tokens:
                    out.append((kind, src, dst))
    return out


def move_token(s: Step, cmd: MoveToken) -> None:
    p = guard(s, cmd.user_id, roles=(Role.SNIPER,))
    st = s.st
    if cmd.kind not in TOKEN_KINDS:
        raise InvalidTarget("token kind")
    tokens = _tokens(st, cmd.kind)
    pos = positions(st)
    if cmd.source not in tokens or cmd.dest in tokens or cmd.dest not in pos \
            or not st.killable(cmd.dest) or not adjacent(st, cmd.source, cmd.dest, pos):
        raise InvalidTarget("token move")
    tokens.discard(cmd.source)
    tokens.add(cmd.dest)
    st.last_action = ("token", cmd.source, cmd.dest)
    s.emit(TokenMoved(player=p.user_id, kind=cmd.kind, source=cmd.source, dest=cmd.dest))
    turns.finish_action(s)
