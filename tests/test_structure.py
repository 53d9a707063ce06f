"""The package's shape, read from its source (nothing is imported): no import cycle among its
modules, no import inside a function of the server, every module of the package (the page's
scripts too) and every function in it small enough to read, no ruleset named outside the
engine but in data, and no hand-split message in the server.

An import counts when the module runs it as it loads (at the top, or in an ``if``/``try``
there), not under ``if TYPE_CHECKING:``. ``from X import a`` counts as importing ``X.a`` when
that is a module of the package, else ``X``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
TESTS = ROOT / "tests"
PACKAGE = "tigris_euphrates"
#: The bounds of every module of the package and of every function in it (a function: its
#: def line to its last).
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
#: Modules whose functions are table declarations, one long call per table: only the
#: module's length is bounded.
TABLE_DECLARATIONS = {"store/schema.py"}
#: The page's scripts.
SCRIPTS = SRC / PACKAGE / "server" / "static" / "js"


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its dotted name -> (file, whether it is a package)."""
    found = {}
    for path in (SRC / PACKAGE).rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def loading_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs as it loads."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _type_checking(node.test):
                yield from loading_imports(node.body)
            yield from loading_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for part in (node.body, node.orelse, node.finalbody):
                yield from loading_imports(part)
            for handler in node.handlers:
                yield from loading_imports(handler.body)


def imported(
    name: str, package: bool, node: ast.Import | ast.ImportFrom, known: set[str]
) -> set[str]:
    """The package's modules ``node`` (in module ``name``) imports."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = name.split(".") if package else name.split(".")[:-1]
            start = here[: len(here) - node.level + 1]
            base = ".".join(start + ([node.module] if node.module else []))
        targets = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
            for alias in node.names
        ]
    found = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    graph: dict[str, set[str]] = {}
    for name, (path, package) in mods.items():
        edges: set[str] = set()
        for node in loading_imports(ast.parse(path.read_text(encoding="utf-8")).body):
            edges |= imported(name, package, node, known)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_the_graph_sees_the_imports_it_must() -> None:
    graph = import_graph()
    assert "tigris_euphrates.server.hub" in graph["tigris_euphrates.server.deps"]
    assert "tigris_euphrates.store" in graph["tigris_euphrates.server.app"]
    assert "tigris_euphrates.catalogues" in graph["tigris_euphrates.server.routes.catalogues"]
    # an import only for the type checker is no edge
    assert "tigris_euphrates.server.hub" not in graph["tigris_euphrates.server.chat"]


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def _server_files() -> list[Path]:
    return sorted((SRC / PACKAGE / "server").rglob("*.py"))


@pytest.mark.parametrize("path", _server_files(), ids=lambda p: p.name)
def test_no_import_inside_a_function_of_the_server(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = [
        f"line {node.lineno}"
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert inner == []


def _package_files() -> list[Path]:
    """The file of every module of the package: its subpackages' and the root's."""
    return sorted((SRC / PACKAGE).rglob("*.py"))


def _bounded() -> Iterator[object]:
    for path in _package_files():
        yield pytest.param(path, id=path.relative_to(SRC / PACKAGE).as_posix())


def _long_functions(text: str) -> dict[str, int]:
    """The functions (methods and nested ones too) of a module longer than the bound, with
    their lengths."""
    return {
        node.name: node.end_lineno - node.lineno + 1
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    }


def test_every_part_of_the_package_is_bounded() -> None:
    parts = {path.parent for path in _package_files()}
    assert SRC / PACKAGE in parts  # the root's modules
    subpackages = {p.parent for p in (SRC / PACKAGE).rglob("__init__.py")}
    assert subpackages <= parts
    assert {"engine", "ai", "cli", "server", "store", "rl"} <= {p.name for p in parts}


def test_long_functions_are_found() -> None:
    body = "".join(f"    x = {i}\n" for i in range(MAX_FUNCTION_LINES))
    text = f"def long():\n{body}\n\nclass C:\n    def fits(self):\n        pass\n"
    text += "    async def method(self):\n" + body.replace("    ", "        ")
    assert _long_functions(text) == {
        "long": MAX_FUNCTION_LINES + 1,
        "method": MAX_FUNCTION_LINES + 1,
    }


@pytest.mark.parametrize("path", list(_bounded()))
def test_modules_and_functions_are_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    if path.relative_to(SRC / PACKAGE).as_posix() in TABLE_DECLARATIONS:
        return
    assert _long_functions(text) == {}


def _function_lengths(text: str) -> dict[str, int]:
    """Each function of a script and its length in lines: from the line that opens it
    (``function f(``, ``const f = (…) =>``, a method) to its closing brace, by counting the
    braces (the scripts keep strings and regular expressions free of unbalanced braces)."""
    lines = text.splitlines()
    opening = re.compile(
        r"^\s*(export\s+)?(async\s+)?(function\s*\*?\s*(\w+)|(const|let)\s+(\w+)\s*=\s*"
        r"(async\s+)?(\([^)]*\)|\w+)\s*=>\s*\{)"
    )
    found: dict[str, int] = {}
    for i, line in enumerate(lines):
        match = opening.match(line)
        if match is None or "{" not in line:
            continue
        name = match.group(4) or match.group(6) or f"line {i + 1}"
        depth = 0
        for j in range(i, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth <= 0:
                found[name] = max(found.get(name, 0), j - i + 1)
                break
    return found


@pytest.mark.parametrize("path", sorted(SCRIPTS.glob("*.js")), ids=lambda p: p.name)
def test_the_pages_scripts_are_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    long = {name: n for name, n in _function_lengths(text).items() if n > MAX_FUNCTION_LINES}
    assert long == {}


def test_script_lengths_are_measured() -> None:
    text = "function a() {\n  if (x) {\n  }\n}\nconst b = async (y) => {\n  return y;\n};\n"
    assert _function_lengths(text) == {"a": 4, "b": 3}


#: The rulesets' names (the engine's registry, read from its source: nothing is imported).
RULESET_NAMES = ("classic", "galaxy")


def _named_ruleset(node: ast.Compare) -> bool:
    sides = [node.left, *node.comparators]
    return any(isinstance(s, ast.Constant) and s.value in RULESET_NAMES for s in sides)


def _decisions(tree: ast.AST) -> list[ast.Compare]:
    """The comparisons of a test module that decide something (an ``assert``'s are what the
    test expects of the ruleset it chose to play, and may name it)."""
    expected = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert) for n in ast.walk(a)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Compare) and id(n) not in expected]


def _reads_ruleset(node: ast.expr) -> bool:
    """Whether ``node`` reads a game's ruleset name: ``x.ruleset``, ``x["ruleset"]`` or
    ``x.get("ruleset")``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "ruleset"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "ruleset"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and any(isinstance(a, ast.Constant) and a.value == "ruleset" for a in node.args)
    )


def test_the_ruleset_names_are_the_engines() -> None:
    engine = (SRC / PACKAGE / "engine" / "rules.py").read_text(encoding="utf-8")
    galaxy = (SRC / PACKAGE / "engine" / "galaxy.py").read_text(encoding="utf-8")
    assert 'DEFAULT_RULESET = "classic"' in engine and 'GALAXY = Ruleset(\n    "galaxy",' in galaxy


def test_no_ruleset_name_is_compared_outside_the_engine() -> None:
    """Outside the engine a program reads a ruleset's facts (``Ruleset.facts``, sent by
    ``/api/meta``), never its name: a new ruleset then needs no change there but data. So do
    the tests' helpers and checks: a test may name the ruleset it plays and expect things of
    it, but what a game's rules are is read from its ruleset's facts, not its name."""
    compared = [
        f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
        for path in sorted((SRC / PACKAGE).rglob("*.py"))
        if "engine" not in path.relative_to(SRC / PACKAGE).parts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Compare) and _named_ruleset(node)
    ]
    compared += [
        f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
        for path in sorted(TESTS.rglob("*.py"))
        for node in _decisions(ast.parse(path.read_text(encoding="utf-8")))
        if _named_ruleset(node) and any(_reads_ruleset(s) for s in [node.left, *node.comparators])
    ]
    names = "|".join(RULESET_NAMES)
    in_scripts = re.compile(rf"""[=!]==?\s*["']({names})["']|["']({names})["']\s*[=!]==?""")
    compared += [
        f"{path.name}:{i + 1}"
        for path in sorted(SCRIPTS.glob("*.js"))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines())
        if in_scripts.search(line)
    ]
    assert compared == []


def test_the_server_reads_no_hand_split_message() -> None:
    """The messages between processes and the websocket frames are typed (``notices``,
    ``frames``, ``inputs``), each read and written in one place: no text is split by hand."""
    split = [
        f"{path.relative_to(SRC).as_posix()}:{i + 1}"
        for part in ("server", "store")
        for path in sorted((SRC / PACKAGE / part).rglob("*.py"))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines())
        if 'split("|"' in line or "split('|'" in line
    ]
    assert split == []
