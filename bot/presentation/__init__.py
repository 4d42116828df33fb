"""The shared presentation: what the bot shows for any game, found in the game's bot package.

* ``presenter`` — :class:`~bot.presentation.presenter.Presenter`: engine events × audience →
  localized messages queued on the Sender; it keeps the standing messages' refs and hands each
  step to the game's own presenter (``bot.games.bot_game(ruleset).presenter``);
* ``views`` — the table, the timings and the lobby's optional roles of any game.

May import: ``engine``, the registry ``bot.games`` (never a game's package), ``bot.ui`` and the
layers below it. The Sender is handed to the presenter (``bot.app`` builds both); the service,
the handlers and the Mini App are above it."""
