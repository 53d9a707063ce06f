"""Whether the research adapters' numpy-free fast path (``bits``, ``indices``) runs compiled
or from its pure-Python source (imported first).

The build compiles those two modules with the engine's and the bots', in one group: they call
the compiled engine directly, so they are loaded only when the engine runs compiled too, and
only when this package's manifest matches its sources and ``TNE_PURE_PYTHON`` is unset
(``engine.choose_core``). The package's other modules (numpy, gymnasium, PettingZoo) are
always Python.
"""

from __future__ import annotations

from pathlib import Path

from .. import COMPILED, choose_core

#: True when the compiled modules of the fast path will be loaded.
WANT_COMPILED = choose_core(__name__.rpartition(".")[0], Path(__file__).resolve().parent, COMPILED)
