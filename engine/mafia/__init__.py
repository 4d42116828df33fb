"""What the mafia presets share: the lobby and the deal (``lobby``), speeches, nominations,
voting and ties, last words, the night's collection and resolution, the win check (``flow``),
readiness and the night actions (``play``), pause, presence and the host (``control``),
``legal_actions`` (``queries``), the state, commands, events, roles and rule sets -- and the base
class of every preset's game object (``variant.MafiaVariant``).  Imports only the core."""
