"""The revisions, oldest first: ``0001`` the baseline (the tables before Alembic)."""
