"""The store's Alembic migrations: ``env.py`` and the revisions in ``versions/``.

``store.migrate.upgrade`` runs them at every start of a store (the server's included), so a
database of any earlier version is brought up to date in place. Each revision reads the
store's table prefix from ``context.config.attributes["table_prefix"]``.
"""
