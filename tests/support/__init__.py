"""Helpers shared by the tests: factories, the walks over every route and form, the
world they walk, workers, migrations (docs/testing.md#where-tests-and-helpers-live)."""
