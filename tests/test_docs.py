"""The documentation works as written: every code block of README.md and docs/*.md that is
marked ``runnable`` runs (Python with this interpreter, shell with bash and this
environment's ``tne`` first on the PATH, each in a fresh folder), and every link inside the
repository leads to a file that exists and, with ``#anchor``, to a heading that exists.

A block is marked runnable by the word after its language: ```` ```python runnable ```` or
```` ```sh runnable ```` (GitHub still colours it by the first word). A block is run on its
own, from an empty folder; blocks of one file do not share anything. Mark a block runnable
when it is quick (seconds) and needs nothing but the package: no server, no network.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)
LINK = re.compile(r"(?<!\\)\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _blocks() -> list[tuple[str, str, str]]:
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if "runnable" in m.group(2).split():
                line = text.count("\n", 0, m.start()) + 1
                out.append((f"{path.relative_to(ROOT)}:{line}", m.group(1), m.group(3)))
    return out


BLOCKS = _blocks()


def test_the_docs_mark_some_blocks_runnable() -> None:
    assert {name.split(":")[0] for name, _, _ in BLOCKS} >= {"README.md", "docs/formats.md"}


@pytest.mark.parametrize(("where", "language", "code"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_a_runnable_block_runs(where: str, language: str, code: str, tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    if language == "python":
        args = [sys.executable, "-c", code]
    elif language in ("sh", "bash", "shell"):
        args = ["bash", "-e", "-o", "pipefail", "-c", code]
    else:
        pytest.fail(f"{where}: a runnable block is python or sh, not {language}")
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{where} failed:\n{done.stdout}\n{done.stderr}"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, markup and punctuation dropped (word
    characters, spaces and hyphens kept), spaces made hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\W)|(?<=\W)_|\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = "".join(c for c in text.lower() if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in ``path`` (a repeated heading gets -1, -2, …), outside code
    blocks."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for m in HEADING.finditer(text):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    out |= set(re.findall(r'<a (?:name|id)="([^"]+)"', text))
    return out


def _links() -> list[tuple[str, str]]:
    out = []
    markdown = [
        p
        for p in ROOT.rglob("*.md")
        if not ({".venv", "node_modules", "build"} & set(p.relative_to(ROOT).parts))
    ]
    for path in sorted(markdown):
        text = FENCE.sub("", path.read_text(encoding="utf-8"))
        text = re.sub(r"`[^`\n]*`", "", text)
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto: — outside the repository
                continue
            out.append((str(path.relative_to(ROOT)), target))
    return out


LINKS = _links()


def test_the_docs_have_links_to_check() -> None:
    assert len(LINKS) > 50


def test_every_link_inside_the_repository_leads_somewhere() -> None:
    broken = []
    for source, target in LINKS:
        file, _, anchor = target.partition("#")
        here = ROOT / source
        goal = (here.parent / file).resolve() if file else here
        if not goal.exists() or (ROOT not in goal.parents and goal != ROOT):
            broken.append(f"{source}: {target} (no such file in the repository)")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{source}: {target} (no heading #{anchor})")
    assert broken == []
