"""The engine core: what every game needs and no game's rules -- the command and event base
classes and their registries, audiences, the refusals (``errors``), the storage format
(``serialize``), the timer and pause records (``state``), the :class:`~.step.Step` of one
command, and :func:`~.game.apply` / :func:`~.game.replay` with the registry of games.  It
imports no game's package (an import-linter contract checks it)."""
