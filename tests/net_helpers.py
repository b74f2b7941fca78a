"""Helpers for the network tests: real ``hexwar serve`` / ``hexwar join`` processes on 127.0.0.1.

Every process started here is killed by :func:`cleanup` (the tests call it in ``finally``),
waits are bounded, and no address but 127.0.0.1 is ever used.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from game_helpers import DATA

SMALL = str(DATA / "game_tiny.toml")  # a whole game in about 75 commands
HEXWAR = [sys.executable, "-m", "hexwar.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "HEXWAR_HEADLESS": "1"}


def load_game(path: Path, *scenarios: str):
    """:func:`hexwar.game.save.load_game` of a server's save, the test scenario (and ``scenarios``) allowed."""
    from hexwar.game.save import load_game as load

    return load(path, scenario_paths=(SMALL, *scenarios))


def seat_hashes(state) -> dict:
    """``{seat: view hash}`` of a finished game's views, the spectator's under ``None`` (what the
    clients end with: the server sends no hash of the whole state, R12.1)."""
    from hexwar.game.view import view

    return {s: view(state, s).hash for s in ("german", "soviet", None)}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Procs:
    """The processes of one test; :meth:`cleanup` kills what is still running."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.all: list[subprocess.Popen] = []

    def server(self, folder: Path, port: int, *args: str, name: str = "server") -> subprocess.Popen:
        """Start ``hexwar serve`` and wait (at most 30 s) until it listens."""
        out = open(self.tmp / f"{name}.out", "ab")
        err = open(self.tmp / f"{name}.err", "ab")
        p = subprocess.Popen(
            [
                *HEXWAR,
                "serve",
                *args,
                "--games",
                str(folder),
                "--port",
                str(port),
                "--tokens",
                str(folder / "tokens.json"),
            ],
            stdout=out,
            stderr=err,
            env=ENV,
        )
        self.all.append(p)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if p.poll() is not None:
                raise AssertionError(
                    f"server exited {p.returncode}: {(self.tmp / f'{name}.err').read_text()[-2000:]}"
                )
            with socket.socket() as s:
                s.settimeout(0.2)
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return p
            time.sleep(0.05)
        raise AssertionError("server did not listen within 30 s")

    def client(self, url: str, *args: str, name: str) -> subprocess.Popen:
        """Start ``hexwar join URL ARGS`` with output to ``name.out``."""
        out = open(self.tmp / f"{name}.out", "ab")
        p = subprocess.Popen([*HEXWAR, "join", url, *args], stdout=out, stderr=subprocess.STDOUT, env=ENV)
        self.all.append(p)
        return p

    def cleanup(self) -> None:
        """Kill every process still running."""
        for p in self.all:
            if p.poll() is None:
                p.kill()
        for p in self.all:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                pass


def commands_saved(save: Path) -> int:
    """Commands in a save file right now (0 while it is missing or being replaced)."""
    try:
        return len(json.loads(save.read_text())["commands"])
    except (OSError, ValueError, KeyError):
        return 0


def wait_for_commands(save: Path, n: int, timeout: float = 60) -> int:
    """Wait until the save holds at least ``n`` commands; returns how many it holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        k = commands_saved(save)
        if k >= n:
            return k
        time.sleep(0.02)
    raise AssertionError(f"{save} did not reach {n} commands in {timeout} s")


def tokens(folder: Path) -> dict[str, dict[str, str]]:
    """The tokens file the server wrote."""
    return json.loads((folder / "tokens.json").read_text())


def wait_all(procs: list[subprocess.Popen], timeout: float) -> None:
    """Wait for every process, failing after ``timeout`` seconds in all."""
    deadline = time.monotonic() + timeout
    for p in procs:
        p.wait(max(0.1, deadline - time.monotonic()))


def last_json(path: Path) -> dict:
    """The JSON object a ``--json`` client printed last."""
    text = path.read_text()
    start = text.rfind("\n{")
    return json.loads(text[start + 1 if start >= 0 else text.find("{") :])


def local_game(scenario_path: str, seed: int, fog: bool, ai_seed: int = 0):
    """The same game played locally to its end, each side deciding from its view."""
    from hexwar.game.ai import make_player
    from hexwar.game.headless import play
    from hexwar.game.scenario import load_scenario
    from hexwar.game.view import ViewPlayer

    sc = load_scenario(scenario_path)
    players = {s: ViewPlayer(make_player("standard", s, ai_seed)) for s in ("german", "soviet")}
    run = play(sc, players, seed=seed, variants=sc.variants + (("fog",) if fog else ()))
    return run.state


def local_hash(scenario_path: str, seed: int, fog: bool, ai_seed: int = 0) -> str:
    """The final state hash of :func:`local_game`."""
    return local_game(scenario_path, seed, fog, ai_seed).state_hash()
