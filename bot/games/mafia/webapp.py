"""The mafia presets' live table for the Mini App (``bot/webapp/``, docs/miniapp.md): the state
as JSON for one viewer, and his buttons as ``Act`` codes of the game's codec.

Pure functions of the state and of the events the viewer was shown (already filtered by their
audiences in ``bot/webapp/``).  What is not public is read only from those events (his role,
his team, his checks, the mafia's picks) -- or, for the host, from the state.  A preset extends
:class:`MafiaWebView` with its own fields (club: fouls and the judge's tools; online: the open
ballot; forum: its phases' buttons).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine import GameState, Phase, Role, Team, legal_actions
from engine.mafia.queries import LegalActions

from ...ui.keyboards import plain_label
from ...ui.texts import ROLE_ICONS, ROLE_NAMES, TEAM_NAMES
from ..hints import Gettext
from ..spec import Viewer
from .night import ACTION_CODES
from .views import phase_name

if TYPE_CHECKING:
    from ..hints import Live

Event = dict[str, Any]
#: ``PlayerEliminated.cause`` -> how the page words it (``left_<key>``)
LEFT = {"night": "killed", "vote": "voted", "sole_nominee": "voted", "exclude_all": "voted",
        "lift": "voted", "disqualified": "disqualified"}


class MafiaWebView:
    """The shared mafia table: seats, names, alive, speaker, nominations, the vote, the ready
    gate, the pause; the viewer's role, team and checks; his buttons from ``legal_actions``."""

    #: the phases whose table shows the day's nominations (they are kept until the next day)
    NOMINATION_PHASES = (Phase.SPEECH, Phase.DEFENCE, Phase.VOTING)
    #: night action (``legal_actions``) -> (button code, label prefix)
    ACTION_CODES: dict[str, tuple[str, str]] = {
        **ACTION_CODES, "kill": ("kill", "🕶 "), "check": ("check", "🔎 "),
        "heal": ("heal", "💉 "), "sheriff_check": ("scheck", "⭐ ")}

    # --- the table -------------------------------------------------------------------------
    def table(self, _: Gettext, st: GameState, viewer: Viewer, events: Sequence[Event],
              g: Live | None = None) -> dict:
        """The table as ``viewer`` may see it. ``events``: the stored events (dicts) whose
        audience includes him, in log order (all of them for the host)."""
        known = self.knowledge(st, viewer, events)
        me = st.players.get(viewer.user_id)
        nominations = st.nominations if st.phase in self.NOMINATION_PHASES else []
        players = []
        for p in st.seated() or sorted(st.players.values(), key=lambda p: p.user_id):
            row: dict[str, Any] = {
                "seat": p.seat, "name": p.name, "alive": p.alive, "active": p.active,
                "me": p.user_id == viewer.user_id, "speaker": p.user_id == st.speaker,
                "nominated": p.user_id in nominations,
                "ready": st.phase is Phase.READY and p.user_id in st.ready,
            }
            role = known["roles"].get(p.user_id)
            if role is not None:
                row["role"] = self.role_json(_, role)
            team = known["teams"].get(p.user_id)
            if team is not None:
                row["team"] = {"id": team.value, "name": _(TEAM_NAMES.get(team, team.value))}
            if p.user_id in known["left"]:
                row["left"] = known["left"][p.user_id]
            row.update(self.player_extra(_, st, p.user_id))
            players.append(row)
        out: dict[str, Any] = {
            "phase": st.phase.value, "phase_name": self.phase_title(_, st),
            "phase_seq": st.phase_seq, "day": st.day, "night": st.night,
            "over": st.over, "players": players,
            "speaker": self.seat(st, st.speaker),
            "nominations": [self.seat(st, u) for u in nominations],
            "vote": self.vote_json(st), "exclude": self.exclude_json(st),
            "paused": self.pause_json(_, st),
            "host": st.host_name if st.host is not None else None,
            "winner": (_(TEAM_NAMES.get(st.winner, st.winner.value))
                       if st.winner is not None else None),
            "checks": known["checks"], "morning": known["morning"],
        }
        if me is not None and viewer.kind == "player":
            out["me"] = {"seat": me.seat, "alive": me.alive}
            role = known["roles"].get(me.user_id)
            if role is not None:
                out["me"]["role"] = self.role_json(_, role)
        elif me is not None and me.seat and not me.alive:  # how he left (public)
            out["me"] = {"seat": me.seat, "alive": False, "left": known["left"].get(me.user_id)}
        if known["picks"] is not None:
            out["picks"] = known["picks"]
        out.update(self.table_extra(_, st, viewer))
        return out

    def knowledge(self, st: GameState, viewer: Viewer, events: Sequence[Event]) -> dict:
        """What the viewer was told: ``roles`` {user: Role}, ``teams`` {user: Team}, ``checks``
        [{checker, target, kind, result, night}] by seats, ``picks`` (the mafia's picks
        tonight, seats) or None, ``left`` {user: 'killed' | 'voted' | 'disqualified' |
        'removed'} (public), ``morning`` the last night's result until the next night
        ({night, killed: seat or None, saved}) or None.  The host knows every role (HostRoles,
        the state) and sees each check of the running night as it is made, with its result
        (CLUB-33 tells the Don and the Sheriff theirs at dawn)."""
        roles: dict[int, Role] = {}
        teams: dict[int, Team] = {}
        checks: list[dict] = []
        picks = None
        left: dict[int, str] = {}
        morning: dict | None = None
        night = 0
        for e in events:
            t = e.get("type")
            if t == "PhaseStarted":
                night = int(e.get("night") or 0)
                if morning is not None and night > morning["night"]:
                    morning = None  # a new night: the last morning is history
            if t == "NightResult":
                morning = {"night": night, "killed": self.seat(st, e.get("killed")),
                           "saved": bool(e.get("saved"))}
            elif t == "PlayerEliminated":
                left[int(e["user_id"])] = LEFT.get(e.get("cause", ""), "removed")
            if t == "RoleAssigned":
                roles[int(e["user_id"])] = Role(e["role"])
                teams[int(e["user_id"])] = Team(e["team"])
            elif t == "HostRoles":
                roles.update({int(u): Role(r) for u, r in e["roles"]})
            elif t == "MafiaRevealed":
                for u in e["members"]:  # his own card's team stands (the forum's Sleepwalker)
                    teams.setdefault(int(u), Team.MAFIA)
                if e.get("don") is not None:
                    roles[int(e["don"])] = Role.DON
            elif t == "CheckResult":
                checks.append({"checker": self.seat(st, e["checker"]),
                               "target": self.seat(st, e["target"]), "kind": "mafia",
                               "result": bool(e["is_mafia"]), "night": night})
            elif t == "DonCheckResult":
                checks.append({"checker": self.seat(st, e["checker"]),
                               "target": self.seat(st, e["target"]), "kind": "sheriff",
                               "result": bool(e["is_sheriff"]), "night": night})
            elif t == "MafiaPicks":
                picks = [[self.seat(st, u), self.seat(st, p)] for u, p in e["picks"]]
            elif t == "PhaseStarted":
                picks = None  # a new phase: last night's picks are history
            elif t == "PlayerEliminated" and e.get("role"):
                roles[int(e["user_id"])] = Role(e["role"])  # FORUM-Q08: the card is public
            elif t == "GameEnded":
                roles.update({int(u): Role(r) for _s, u, r in e["roles"]})
        if viewer.kind == "host":
            for p in st.seated():
                if p.role is not None:
                    roles[p.user_id] = p.role
                if p.team is not None:
                    teams[p.user_id] = p.team
            if st.phase is Phase.NIGHT:
                picks = [[self.seat(st, u), self.seat(st, t)] for u, t in st.mafia_picks.items()]
                checks.extend(self.live_checks(st, checks))
        for uid, role in roles.items():
            teams.setdefault(uid, role.team)
        return {"roles": roles, "teams": teams, "checks": checks, "picks": picks,
                "left": left, "morning": morning}

    def live_checks(self, st: GameState, told: list[dict]) -> list[dict]:
        """The host's view of tonight's checks made so far (``night_actions``), with their
        results from the roles, but for those already told (a preset without CLUB-33's dawn:
        the checker learnt it at once, the event is in ``told``)."""
        out = []
        for uid, (action, target) in st.night_actions.items():
            if action not in ("check", "sheriff_check", "don_check") or target is None:
                continue
            role = st.players[target].role
            check = {"checker": self.seat(st, uid), "target": self.seat(st, target),
                     "kind": "sheriff" if action == "don_check" else "mafia",
                     "result": (role is Role.SHERIFF if action == "don_check"
                                else role is not None and role.team is Team.MAFIA),
                     "night": st.night}
            if not any(c["checker"] == check["checker"] and c["target"] == check["target"]
                       and c["night"] == st.night for c in told):
                out.append(check)
        return out

    @staticmethod
    def role_json(_: Gettext, role: Role) -> dict:
        return {"id": role.value, "name": _(ROLE_NAMES[role]), "icon": ROLE_ICONS[role]}

    @staticmethod
    def seat(st: GameState, uid: int | None) -> int | None:
        p = st.players.get(uid) if uid is not None else None
        return p.seat if p is not None and p.seat else None

    def phase_title(self, _: Gettext, st: GameState) -> str:
        if st.phase is Phase.LOBBY:
            return _("Lobby")
        if st.over:
            return _("The game is over.")
        return phase_name(_, st)

    def vote_json(self, st: GameState) -> dict | None:
        """The running vote (public: the group's vote message shows it)."""
        v = st.vote
        if v is None or st.phase is not Phase.VOTING:
            return None
        return {"candidates": [self.seat(st, c) for c in v.candidates],
                "current": self.seat(st, v.current),
                "votes": {str(self.seat(st, c)): sorted(self.seat(st, u) for u, t in
                                                        v.votes.items() if t == c)
                          for c in v.candidates}}

    def exclude_json(self, st: GameState) -> dict | None:
        if st.phase is not Phase.EXCLUDE_VOTE:
            return None
        return {"candidates": [self.seat(st, c) for c in st.exclude_candidates],
                "yes": sorted(self.seat(st, u) for u, y in st.exclude_votes.items() if y),
                "no": sorted(self.seat(st, u) for u, y in st.exclude_votes.items() if not y)}

    @staticmethod
    def pause_json(_: Gettext, st: GameState) -> dict | None:
        if st.pause is None:
            return None
        return {"reason": st.pause.reason,
                "text": _("⏸ Paused") if st.pause.reason != "host_lost"
                else _("⏸ Waiting for the host")}

    def player_extra(self, _: Gettext, st: GameState, uid: int) -> dict:
        """A preset's public fields of a seat (club: fouls)."""
        return {}

    def table_extra(self, _: Gettext, st: GameState, viewer: Viewer) -> dict:
        """A preset's own public fields of the table (online: the open ballot)."""
        return {}

    # --- the buttons -----------------------------------------------------------------------
    def buttons(self, _: Gettext, st: GameState, viewer: Viewer, g: Live | None = None) -> list[dict]:
        """What the viewer may press now: [{a, t, label, kind}] (``a``: a code of the game's
        codec, ``t``: a seat or 0; ``kind`` groups them on the page).  Built from
        ``legal_actions`` like the bot's keyboards, plus the judge's tools."""
        if st.over or st.phase is Phase.LOBBY:
            return []
        la = legal_actions(st, viewer.user_id)
        out: list[dict] = []

        def add(code: str, label: str, kind: str, target: int | None = None) -> None:
            out.append({"a": code, "t": self.seat(st, target) or 0, "label": label, "kind": kind})

        if la.ready and not (st.host and st.phase is Phase.READY):  # PARTY-Q14, X27: the
            # host's «Next» replaces the night gate's readiness (the forum's debate keeps it)
            add("ready", _("✅ I have read my role") if st.ready_purpose == "intro"
                else _("✅ Ready"), "ready")
        if la.continue_:
            add("cont", _("▶️ Continue"), "ready")
        if la.end_speech:
            add("end", _("⏹ End speech"), "turn")
        for uid in la.nominate:
            add("nom", "🎯 " + plain_label(st, uid), "turn", uid)
        if la.vote is not None:
            add("vote", _("👎 Against {player}").format(player=plain_label(st, la.vote)), "vote",
                la.vote)
        if la.exclude_vote:
            add("exy", _("✅ Yes"), "vote")
            add("exn", _("❌ No"), "vote")
        for action, targets in ((la.night_action, la.night_targets),
                                (la.night_extra, la.night_extra_targets)):
            if action in self.ACTION_CODES:
                code, prefix = self.ACTION_CODES[action]
                for t in targets:
                    add(code, prefix + plain_label(st, t), "night", t)
        if la.sleep:
            add("sleep", _("💤 Sleep") if not la.night_action else _("💤 Skip"), "night")
        out.extend(self.own_buttons(_, st, viewer, la, g))
        if la.host_next:
            add("next", _("⏭ Next"), "control")
        if la.pause:
            add("pause", _("⏸ Pause"), "control")
        if la.resume:
            add("resume", _("▶️ Resume"), "control")
        if viewer.judge:
            out.extend(self.judge_buttons(_, st))
        return out

    def own_buttons(self, _: Gettext, st: GameState, viewer: Viewer, la: LegalActions,
                    g: Live | None = None) -> list[dict]:
        """A preset's own buttons from its ``legal_actions`` fields (``g``: the live game, for
        the viewer's drafts; None in a pure call)."""
        return []

    def judge_buttons(self, _: Gettext, st: GameState) -> list[dict]:
        """The judge's tools (club: fouls, disqualification, taking a nomination back)."""
        return []


VIEW = MafiaWebView()
