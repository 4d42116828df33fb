"""End-to-end tests: the real bot process against a stand-in Bot API (fake_api.FakeBotAPI)."""
