"""The web app: ``rolling serve`` runs a FastAPI site where people and bots play together.

- :mod:`.app`: the app factory :func:`~rolling.web.app.create_app` (API, pages, WebSockets);
- :mod:`.db`, :mod:`.models`, :mod:`.migrations`: storage through SQLAlchemy 2, schema by Alembic;
- :mod:`.service`: games as records (config, seed, actions), the cached live states, acting,
  undo, bots, programmed actions, time limits and the live updates;
- :mod:`.api`: the JSON API under ``/api`` and the WebSocket ``/ws/games/{id}``;
- :mod:`.decisions`: a seat's legal moves as controls with the engine's previews;
- :mod:`.tokens`: seat tokens (secret, stored as SHA-256 hashes).

See docs/web.md.
"""
