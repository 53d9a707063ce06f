"""The package's shape, read from its source (nothing is imported): no import cycle among its
modules, no import inside a function of the server, and the server and the store in modules
and functions small enough to read.

An import counts when the module runs it as it loads (at the top, or in an ``if``/``try``
there), not under ``if TYPE_CHECKING:``. ``from X import a`` counts as importing ``X.a`` when
that is a module of the package, else ``X``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "tigris_euphrates"
#: The parts whose size is bounded, and the bounds (a function: its def line to its last).
BOUNDED = ("server", "store")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
#: Modules over a bound today, in the hands of other work on the hub and the store: their
#: test may fail until they are split.
OVERSIZE = {
    "server/hub.py": "1453 lines; Hub.create 111 lines",
    "store/schema.py": "make_tables 156 lines",
}


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


def _bounded() -> Iterator[object]:
    root = SRC / PACKAGE
    for part in BOUNDED:
        for path in sorted((root / part).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            marks = (
                [pytest.mark.xfail(reason=OVERSIZE[rel], strict=False)] if rel in OVERSIZE else []
            )
            yield pytest.param(path, id=rel, marks=marks)


@pytest.mark.parametrize("path", list(_bounded()))
def test_modules_and_functions_are_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    long = {
        node.name: node.end_lineno - node.lineno + 1
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    }
    assert long == {}
