"""The application service: runs the engine for every game and keeps it durable.

* ``game_service`` — :class:`~bot.services.game_service.GameService`: one command at a time per
  game, ``engine.apply``, the log in the database, the deadlines, the listeners; ``index``
  (which game a chat or a user is in), ``ops`` (lobbies, the deal, pauses, delivery failures)
  and ``lifecycle`` (start-up, hand-over, the ``ui`` record's writes, stop) are its parts,
  ``base`` declares what they share, ``live`` is the game in memory
  (``LiveGame``), ``roster`` the lobby commands by type; ``recovery`` replays the open games at
  start-up;
* ``deadlines`` — the games' timers as APScheduler jobs; ``visible_clock`` — a phase's clock
  starts when its messages are visible (BOT-X01); ``afk`` — the AFK clock (ONLINE-48);
* ``onlookers`` (ONLINE-43/44/45), ``said`` (ONLINE-41), ``discipline`` (who may write in the
  group: CLUB-06/14, ONLINE-35/38) — the state kept beside a game and its policies.

May import: ``engine``, the registry ``bot.games`` (never a game's package: see the contracts in
``pyproject.toml``), ``bot.ui``, ``bot.telegram``, ``bot.storage``, ``bot.config``. Never the
handlers, the Mini App, the cluster or the presentation: the presenter is handed to it."""
