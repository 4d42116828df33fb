"""What the mafia presets share on the bot side: the presenter they extend (lobby, table, turns,
ready gate, votes, nights, pause, the end), the standing messages' views and the button codec
of the shared mechanics.  Imports no preset package (an import-linter contract checks it)."""
