"""Engine tests of the online preset (engine/online/), named after its rule IDs."""
