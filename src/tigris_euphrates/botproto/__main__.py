"""``python -m tigris_euphrates.botproto LEVEL``: a built-in level as a ``tne-bot/1`` program."""

from .host import main

raise SystemExit(main())
