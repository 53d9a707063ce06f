"""Whether the bots run compiled or from their pure-Python source (imported first).

The build compiles the bots' modules with the engine's, in one group: compiled bots call the
compiled engine directly, so they are loaded only when the engine runs compiled too, and
only when this package's manifest matches its sources and ``TNE_PURE_PYTHON`` is unset
(``engine.choose_core``).
"""

from __future__ import annotations

from pathlib import Path

from .. import COMPILED, choose_core

#: True when the bots' compiled modules will be loaded.
WANT_COMPILED = choose_core(__name__.rpartition(".")[0], Path(__file__).resolve().parent, COMPILED)
