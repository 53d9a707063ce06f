"""tests/ and bench/ never import each other: what both need lives in support/ (the repository's
shared helpers, never installed). A benchmark script is run by hand and imported by nothing;
a test helper serves the tests only.

The check reads every Python file's imports and its additions to the import path
(``sys.path.insert``, ``append``, ``extend``, an assignment to ``sys.path``,
``site.addsitedir``): bench/ may not reach tests/, tests/ may not reach bench/, support/ may
reach neither. Besides the folder's own name, the top-level names of the modules in a folder
count as reaching it (pytest puts tests/ on the path, a script's own folder is on its path,
so ``import diagram`` or ``import minimax`` would).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The folders checked and the folders each may not reach.
FORBIDDEN = {"bench": ("tests",), "tests": ("bench",), "support": ("tests", "bench")}


def module_names(folder: Path) -> set[str]:
    """The folder's own name and the top-level names its modules and packages import as."""
    names = {folder.name}
    for path in folder.iterdir():
        if path.suffix == ".py":
            names.add(path.stem)
        elif path.is_dir() and (path / "__init__.py").exists():
            names.add(path.name)
    return names


def _is_sys_path(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def _path_additions(tree: ast.AST) -> list[ast.expr]:
    """The expressions a module adds to (or sets as) its import path."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, method = node.func.value, node.func.attr
            on_sys_path = _is_sys_path(owner) and method in ("insert", "append", "extend")
            on_site = isinstance(owner, ast.Name) and owner.id == "site" and method == "addsitedir"
            if on_sys_path or on_site:
                found.extend(node.args)
        elif isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if _is_sys_path(target) or (
                    isinstance(target, ast.Subscript) and _is_sys_path(target.value)
                ):
                    found.append(node.value)
    return found


def reaches(source: str, folders: dict[str, set[str]]) -> list[str]:
    """What in ``source`` reaches one of ``folders`` (a folder's name: its module names):
    an import of one of their modules, or a path addition naming the folder."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        tops: list[str] = []
        if isinstance(node, ast.Import):
            tops = [alias.name.partition(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops = [node.module.partition(".")[0]]
        for top in tops:
            for folder, names in folders.items():
                if top in names:
                    found.append(f"line {node.lineno}: imports {top} ({folder}/)")
    for expr in _path_additions(tree):
        words = {
            part
            for sub in ast.walk(expr)
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str)
            for part in sub.value.replace("\\", "/").split("/")
        }
        for folder in folders:
            if folder in words:
                found.append(f"line {expr.lineno}: adds {folder}/ to the import path")
    return found


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_no_folder_reaches_one_it_may_not(folder: str) -> None:
    forbidden = {name: module_names(ROOT / name) for name in FORBIDDEN[folder]}
    problems = [
        f"{path.relative_to(ROOT)}: {problem}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for problem in reaches(path.read_text(), forbidden)
    ]
    assert not problems, "\n".join(problems)


def test_pytest_puts_support_and_not_bench_on_the_path() -> None:
    """support/ comes from the repository's root; bench/ is not on the tests' path."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    paths = config["tool"]["pytest"]["ini_options"]["pythonpath"]
    assert "." in paths
    assert not any(Path(p).parts[:1] == ("bench",) for p in paths), paths


def test_support_is_not_shipped() -> None:
    """The wheel holds the packages under src/ only: support/ stays in the repository."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]
    assert (ROOT / "support" / "__init__.py").exists()


def test_the_check_finds_each_way_of_reaching_a_folder() -> None:
    tests = {"tests": {"tests", "diagram", "serving"}}
    assert reaches("import diagram\nfrom serving import X\nimport tests.playout\n", tests) == [
        "line 1: imports diagram (tests/)",
        "line 2: imports serving (tests/)",
        "line 3: imports tests (tests/)",
    ]
    added = (
        "import sys, site\n"
        "sys.path.insert(0, str(Path(__file__).parent.parent / 'tests'))\n"
        "sys.path.append('../tests/x')\n"
        "sys.path[:0] = ['tests']\n"
        "site.addsitedir('tests')\n"
    )
    assert sorted(p.partition(":")[0] for p in reaches(added, tests)) == [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
    ]
    fine = (
        "import sys\n"
        "sys.path.insert(0, str(Path(__file__).resolve().parents[1]))\n"
        "from support.serving import ServerProcess\n"
        "from .diagram import x\n"
        "from tigris_euphrates.engine import tests_done\n"
    )
    assert reaches(fine, tests) == []
