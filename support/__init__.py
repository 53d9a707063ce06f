"""Helpers shared by the tests (tests/) and the benchmarks (bench/), and nothing else: not part
of the package, never installed (the wheel holds src/ only).

- ``serving``: a real server for tests and benchmarks, in a thread or as a killable process,
  a websocket seat client, and the test PostgreSQL;
- ``hostile``: seeded hostile inputs and the campaign that sends them to a live server;
- ``minimax``: the full-information minimax the strength table measures our search against;
- ``reference``: the open-source engine's evaluation, which that minimax may use;
- ``runs``: a benchmark's JSON file of runs, one run per command;
- ``screenshots``: the board screenshots of docs/web.md, both themes, taken in real Chromium
  (``python -m support.screenshots``).

Both sides import it from the repository's root: pytest puts the root on its path
(pyproject.toml, ``pythonpath``), each bench script adds it to ``sys.path`` itself. tests/ and
bench/ never import each other (tests/test_layout.py): what both need lives here.
"""
