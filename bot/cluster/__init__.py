"""Many workers, one bot (issue 12)."""
