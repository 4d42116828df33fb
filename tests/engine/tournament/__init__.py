"""Engine tests of the tournaments (engine/tournament/), named after their rule IDs (TOUR)."""
