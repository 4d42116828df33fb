"""Many workers, one bot (issue 12): shards, leases, update streams; docs/deployment.md."""
