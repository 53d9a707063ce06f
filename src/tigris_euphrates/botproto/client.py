"""The referee's side of ``tne-bot/1``: a bot program as a ``Bot``.

``BotProcess`` runs one program: it starts it with its standard error going to a file,
writes lines to it from a writer thread (so that a bot that stops reading never blocks the
referee) and reads its lines from a reader thread, each with a deadline. ``ProtocolBot``
plays one seat of one game through such a process: ``begin`` shakes hands and announces the
game, ``observe`` forwards the seat's redacted events, ``choose`` sends the decision request
and checks the answer, ``finish`` sends the result and stops the program.

Whatever goes wrong with the program — an answer after its time, an action that is not among
the legal ones, a line that is not the expected message, the program ending — raises
``BotFault`` naming the kind (``late``, ``illegal``, ``garbage``, ``crash``); the program is
stopped there, and the referee decides what the seat does next (``tournament.referee``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from .. import EngineError, parse_action
from ..ai import Budget
from . import messages
from .messages import MAX_LINE, Hello, ProtocolError

#: The seconds a decision gets when the organiser sets none.
DEFAULT_SECONDS = 10.0
#: The seconds a program has to start and answer ``hello``.
HELLO_SECONDS = 20.0
#: The seconds a program has to exit after ``quit`` before it is killed.
QUIT_SECONDS = 2.0
#: How long stopping a program waits for its output to end (a program that left a child
#: holding the pipe open: the reading thread goes on alone and closes it at its end).
READER_SECONDS = 5.0

#: The kinds of fault, as the record names them.
FAULTS = ("late", "illegal", "garbage", "crash")


class BotFault(Exception):
    """A protocol bot failed: ``kind`` is one of ``FAULTS``, ``detail`` says how."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def default_logs() -> Path:
    """Where the bots' standard error goes when the organiser names no folder."""
    return Path(tempfile.gettempdir()) / "tne-bot-logs"


class BotProcess:
    """One running bot program: lines in, lines out, standard error to ``stderr_path``."""

    def __init__(
        self,
        command: Sequence[str],
        stderr_path: Path,
        cwd: Path | None = None,
        append: bool = False,
    ) -> None:
        self.command = list(command)
        self.stderr_path = stderr_path
        stderr_path.parent.mkdir(parents=True, exist_ok=True)
        # a restarted program's standard error goes after its first run's
        self._stderr: IO[bytes] = stderr_path.open("ab" if append else "wb")
        try:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=cwd,
                bufsize=0,
            )
        except OSError as e:
            self._stderr.close()
            raise BotFault("crash", f"could not start {self.command[0]!r}: {e}") from e
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._out: queue.Queue[bytes | None] = queue.Queue()
        # each pipe is closed by the thread that uses it: a pipe closed under a thread about
        # to read it would free its descriptor's number for the next program's pipe, and the
        # old thread would read (and steal) that program's bytes
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._write, daemon=True).start()

    def __repr__(self) -> str:
        return f"BotProcess({self.command!r}, pid={self.proc.pid})"

    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        with stdout, contextlib.suppress(OSError, ValueError):
            while True:
                line = stdout.readline(MAX_LINE)
                if not line:
                    break
                self._lines.put(line)
        self._lines.put(None)

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        with contextlib.suppress(OSError, ValueError):
            while (data := self._out.get()) is not None:
                stdin.write(data)
            stdin.close()

    def send(self, message: messages.Message) -> None:
        """Queue one message for the program (never blocks)."""
        self._out.put(messages.encode(message))

    def receive(self, seconds: float) -> bytes:
        """The program's next line within ``seconds``; ``BotFault`` if it is late, too long
        or the program ended."""
        try:
            line = self._lines.get(timeout=max(seconds, 0.0))
        except queue.Empty:
            raise BotFault("late", f"no answer within {seconds:g} s") from None
        if line is None:
            code = self.proc.wait()
            raise BotFault("crash", f"the program ended (exit code {code})")
        if not line.endswith(b"\n"):
            raise BotFault("garbage", f"a line longer than {MAX_LINE} bytes")
        return line

    def drain(self) -> int:
        """Drop the lines the program wrote that nobody has asked for yet (an answer written
        twice); how many. The end of its output stays, for the next ``receive``."""
        dropped = 0
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return dropped
            if line is None:
                self._lines.put(None)
                return dropped
            dropped += 1

    def close(self, wait: float = QUIT_SECONDS) -> int | None:
        """Stop the program: end its input, give it ``wait`` seconds, then kill it. Its exit
        code (None if it had to be killed)."""
        self._out.put(None)
        code: int | None
        try:
            code = self.proc.wait(timeout=wait) if wait > 0 else None
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            with contextlib.suppress(OSError):
                self.proc.kill()
            self.proc.wait()
        # the program is gone: its output ends and the reading thread closes the pipe
        self._reader.join(READER_SECONDS)
        self._stderr.close()
        return code


class ProtocolBot:
    """A seat played by a ``tne-bot/1`` program (see the module docstring). ``heard`` keeps
    the events forwarded to it, for a fallback bot that takes the seat over."""

    def __init__(
        self,
        command: Sequence[str],
        seed: int = 0,
        name: str = "",
        logs: Path | None = None,
        cwd: Path | None = None,
    ) -> None:
        if not command:
            raise ValueError("a protocol bot needs a command to run")
        self.command = list(command)
        self.seed = seed
        self.name = name or "cmd:" + " ".join(self.command)
        self.logs = logs if logs is not None else default_logs()
        self.cwd = cwd
        self.hello: Hello | None = None
        self.heard: list[dict[str, Any]] = []
        #: the events of each step heard, as sent (to tell a restarted program the game)
        self.steps: list[list[dict[str, Any]]] = []
        self.process: BotProcess | None = None
        self.seconds = DEFAULT_SECONDS
        #: the decisions asked of the current run of the program (the next ``decide``'s id)
        self.decisions = 0
        #: answers dropped because they named an earlier decision or came unasked
        self.stale = 0
        #: answers that named no decision (a bot written before ids: matched by order)
        self.unnamed = 0
        self._game: tuple[dict[str, Any], int, str] | None = None

    def __repr__(self) -> str:
        return f"ProtocolBot({self.command!r}, {self.seed}, name={self.name!r})"

    @property
    def stderr_path(self) -> Path:
        """The file the program's standard error goes to (one per bot seed)."""
        return self.logs / f"bot-{self.seed}.stderr"

    def begin(
        self, options: dict[str, Any], seat: int, budget: Budget | None = None, game: str = ""
    ) -> None:
        """Start the program, shake hands and announce the game, named ``game`` if given
        (``BotFault`` on failure)."""
        if budget is not None and budget.seconds is not None:
            self.seconds = budget.seconds
        self._game = (options, seat, game)
        self._start()

    def restart(self) -> None:
        """Start the program again after a fault: the same handshake and ``new_game``, then
        every step of the game so far, one ``events`` message a step as it first heard them
        (``BotFault`` if it fails again on the way)."""
        if self._game is None:
            raise BotFault("crash", "the program never began a game")
        if self.process is not None:
            self.process.close(wait=0)
            self.process = None
        self._start(append=True)
        for step in self.steps:
            assert self.process is not None
            self.process.send(messages.events(step))

    def _start(self, append: bool = False) -> None:
        """Run the program, shake hands and send ``new_game`` (``begin``'s game)."""
        assert self._game is not None
        options, seat, game = self._game
        self.decisions = 0
        self.process = BotProcess(self.command, self.stderr_path, self.cwd, append)
        self.process.send(messages.hello())
        try:
            self.hello = messages.read_hello(self.process.receive(HELLO_SECONDS))
        except ProtocolError as e:
            self._fail("garbage", f"handshake: {e}")
        except BotFault as e:
            self._fail(e.kind, f"handshake: {e.detail}")
        self.process.send(messages.new_game(options, seat, self.seed, self.seconds, game))

    def _fail(self, kind: str, detail: str) -> NoReturn:
        """Stop the program and raise the fault."""
        if self.process is not None:
            self.process.close(wait=0)
            self.process = None
        raise BotFault(kind, detail)

    def observe(self, events: list[dict[str, Any]]) -> None:
        self.heard.extend(events)
        self.steps.append(events)
        if self.process is not None:
            self.process.send(messages.events(events))

    def default_budget(self, players: int) -> Budget:
        return Budget(seconds=self.seconds)

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        """Ask the program; its answer if it is legal and in time, else ``BotFault``.

        The ``decide`` carries an ``id``, and an answer naming another one (an answer written
        twice, or one to an earlier decision) is dropped, never taken for this one; lines
        written while nothing was asked are dropped before asking. An answer that names no
        id (a bot written before ids) is taken for the decision asked, as it always was."""
        if self.process is None:
            raise BotFault("crash", "the program is not running")
        seconds = budget.seconds if budget is not None and budget.seconds else self.seconds
        self.stale += self.process.drain()
        self.decisions += 1
        self.process.send(messages.decide(view, seconds, self.decisions))
        answer = self._answer(seconds)
        legal = view["legal_actions"]
        if answer in legal:
            return answer
        try:
            canonical = str(parse_action(answer))
        except EngineError:
            canonical = ""
        if canonical in legal:
            return canonical
        self._fail("illegal", f"{answer[:80]!r} is not a legal action")

    def _answer(self, seconds: float) -> str:
        """The program's action for decision ``self.decisions`` within ``seconds``, dropping
        answers to other decisions (``BotFault`` if none comes or a line is bad)."""
        assert self.process is not None
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.process.receive(deadline - time.monotonic())
                answer, decision = messages.read_answer(line)
            except BotFault as e:
                detail = f"no answer within {seconds:g} s" if e.kind == "late" else e.detail
                self._fail(e.kind, detail)
            except ProtocolError as e:
                self._fail("garbage", str(e))
            if decision is None:
                self.unnamed += 1
                return answer
            if decision == self.decisions:
                return answer
            self.stale += 1

    def finish(self, result: dict[str, Any] | None) -> None:
        """Tell the program how the game ended (if it did) and stop it."""
        if self.process is None:
            return
        if result is not None:
            self.process.send(messages.end(result))
        self.process.send(messages.quit_())
        self.process.close()
        self.process = None


def shell_words(text: str) -> list[str]:
    """A command line split as a POSIX shell would (quotes kept together), for ``cmd:``."""
    return shlex.split(text, posix=os.name == "posix")
