"""Engine tests of the forum preset (engine/forum/), named after its rule IDs."""
