"""Development data: the demo organisation (`manage.py seed_demo`) and the organisation
at scale for benchmarks (`manage.py seed_scale`). Installed only by the local and test
settings, never by production's, and left out of the package and the image; nothing in
the product imports it (import-linter's layers contract). See devdata/README.md."""
