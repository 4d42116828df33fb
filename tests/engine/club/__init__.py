"""Engine tests of the club preset (engine/club/), named after its rule IDs."""
