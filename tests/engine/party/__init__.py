"""Engine tests of the party preset (engine/party/), named after its rule IDs."""
