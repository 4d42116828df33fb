"""mafia-bot: the aiogram adapter around the pure rules engine in ``engine/``.

Run the bot with ``python -m bot``; configuration comes from the environment or
``.env`` (see :mod:`bot.config`). Importing this package is cheap: it does not
import aiogram.
"""

__version__ = "0.1.0"
