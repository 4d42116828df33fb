"""The UI toolkit every presenter uses, the shared one and each game's: texts, buttons, codes.

* ``i18n`` — gettext catalogues and the :class:`~bot.ui.i18n.Translator`; ``i18n_tools`` — the
  catalogues' maintenance (``python -m bot.ui.i18n_tools update|check``);
* ``texts`` — shared translatable texts (roles, teams, causes, errors); ``names`` — players'
  names made safe for HTML and bidirectional text; ``timings`` — tempo and timing names;
  ``deadline_text`` — a deadline as each viewer's clock time (BOT-X03); ``rules_text`` —
  ``/rules``;
* ``keyboards`` — inline keyboards; ``callbacks`` — the button codec (``Act``, ``LobbyAct``,
  ``Cfg``, ``Hist`` callback data); ``replies`` — answers to a group command are replies to it;
* ``drafts`` — multi-tap choices in progress, kept in a game's ``ui`` state.

May import: ``engine``, aiogram's types and utilities, Babel, ``bot.telegram`` (its limits) and
the layers below it. Never ``bot.games``: the games' bot packages are built on this toolkit."""
