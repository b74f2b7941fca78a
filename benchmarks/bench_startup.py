"""Start-up of a command-line game (issue 34): CPU seconds from a fresh process to a loaded
scenario and map, the way ``hexwar play SCENARIO --headless`` starts.

Each shipped scenario is started in its own fresh process, which does what ``hexwar play``
does before its first command: import the command line and the ``play`` command (through
the lazy command group), then read the scenario, its map and the cards and check them by
setting a game up (``hexwar.cli.game._game_to_play``, the code ``play`` runs). The figure is
the slowest scenario's CPU time (the least of ``--runs`` fresh processes each, since a shared
machine only ever adds time), against issue 34's target of 0.3 s (0.44 s before it).

The start is cut into phases by importing their modules first, in this order: the ``hexwar``
package itself (as the console script does first: its ``__init__`` sets the process defaults of
``hexwar.PROCESS_DEFAULTS``, one OpenBLAS thread and no pydantic plugin scan, unless the
environment sets them), click and numpy (a start imports no pydantic and no file model: the
shipped files are read from their compiled forms, :mod:`hexwar.model.compiled_docs`), hexwar's
command line and the scenario module, then the load itself (reading, the model checks and the set-up check of a validated scenario, with the
modules the load imports on first use: the hex game's set-up and turn machinery, or a lines
game's own; importing those here, ahead of the load, would time another start than
``hexwar play``'s: a lines game's start imports no hex set-up, and a load runs with the cyclic
collector paused). Setting
up the game that is then played (``Scenario.new_game``) is printed beside, outside the figure.
The package's bytecode is compiled first, as an installed hexwar's is.

    python benchmarks/bench_startup.py [--runs 3] [SCENARIO ...]
    python benchmarks/bench_startup.py --quick        # one run per scenario
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 0.3  #: issue 34: a CLI game loads its scenario and map in under 0.3 s of CPU
BEFORE_S = 0.44  #: the same start before issue 34 (the issue's figure)

_CODE = """
import importlib, json, sys, time

def load(names):
    for n in names:
        try:
            importlib.import_module(n)
        except ImportError:  # a module another branch renamed: its cost falls in a later phase
            pass

c = [time.process_time()]
# the console script `hexwar` imports the package first: its __init__ sets the process defaults
# (OPENBLAS_NUM_THREADS, PYDANTIC_DISABLE_PLUGINS) before numpy and pydantic are imported
load(["hexwar", "click", "numpy"]); c.append(time.process_time())
# no pydantic and no file model: since issue 35's fifth session a shipped scenario, its map and
# the rules tables are read from their compiled forms (hexwar/model/compiled_docs.py;
# tests/test_startup_imports.py); a user's own file imports them in the load
from hexwar.cli import cli
cli.get_command(None, "play")  # imports the play command as `hexwar play` does
from hexwar.cli.game import _game_to_play
load(["hexwar.game.scenario"]); c.append(time.process_time())  # as play's _load imports it
sc = _game_to_play(sys.argv[1], None, (), None, None, (), False, None)[0]
c.append(time.process_time())
sc.new_game(seed=sc.seed)
c.append(time.process_time())
print(json.dumps([b - a for a, b in zip(c, c[1:])]))
"""
PHASES = ("click+numpy", "hexwar", "load", "new game")


def run_one(scenario: str) -> list[float]:
    """CPU seconds of each of :data:`PHASES` in one fresh process starting ``scenario``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run(
        [sys.executable, "-c", _CODE, scenario], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    return [float(x) for x in json.loads(out.stdout.strip().splitlines()[-1])]


def main(argv: list[str] | None = None) -> int:
    """Print the table and the FIGURE line; returns 0 (a miss is stated, not an error)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help="scenario names or files (default: every shipped one)")
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per scenario (the least is kept)")
    ap.add_argument("--quick", action="store_true", help="one run per scenario")
    args = ap.parse_args(argv)
    runs = 1 if args.quick else max(1, args.runs)
    compileall.compile_dir(str(ROOT / "hexwar"), quiet=1)  # as `pip install` does
    names = args.scenarios or sorted(p.stem for p in (ROOT / "scenarios").glob("*.toml"))
    print(
        f"`hexwar play SCENARIO --headless` start in a fresh process, CPU s, least of {runs} "
        f"(load average {os.getloadavg()[0]:.1f})"
    )
    print(f"{'scenario':<20}" + "".join(f"{p:>12}" for p in PHASES) + f"{'start':>8}")
    worst = 0.0
    for name in names:
        best = min((run_one(name) for _ in range(runs)), key=lambda r: sum(r[:3]))
        total = sum(best[:3])  # everything before the game is set up for play
        worst = max(worst, total)
        print(f"{name:<20}" + "".join(f"{v:>12.3f}" for v in best) + f"{total:>8.3f}")
    print(f"before issue 34: {BEFORE_S} s")
    met = TARGET_S / max(worst, 1e-9)
    print(
        f"FIGURE | slowest `hexwar play --headless` start: imports + scenario + map load (CPU s) | "
        f"{worst:.3f} | < {TARGET_S} s | {met:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
