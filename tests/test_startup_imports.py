"""What a game's start imports and builds (issue 35: a CLI game loads its scenario and map in
under 0.3 s of CPU; benchmarks/bench_startup.py, bench_ai.py --startup and bench_maps.py time it).

Each case starts a fresh interpreter that does what ``hexwar play SCENARIO --headless`` does
before its first command (the lazy command group imports ``play``, which reads the scenario,
its map and the cards and sets a game up) and reports ``sys.modules``. Nothing here is timed:
the test pins the structure the figure rests on, so an import that drags a heavy package or
another game mode's machinery into the start fails here instead of slowly raising the figure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_START = """
import json, sys
from hexwar.cli import cli
cli.get_command(None, "play")  # as `hexwar play` imports its command
from hexwar.cli.game import _game_to_play
sc = _game_to_play(sys.argv[1], None, (), None, None, (), False, None)[0]
modules = sorted(sys.modules)  # what the start imported (before this script's own imports below)
from hexwar.model.filemodel import FileModel
def subclasses(c):
    for s in c.__subclasses__():
        yield s
        yield from subclasses(s)
made = sorted({c.__module__ for c in subclasses(FileModel)})  # the model classes created
from hexwar.formats.save_file import SaveFileV2
from hexwar.model.map_file import MapFileV1
print(json.dumps({
    "modules": modules,
    "built": {"SaveFileV2": SaveFileV2.__pydantic_complete__, "MapFileV1": MapFileV1.__pydantic_complete__},
    "mode": type(sc).__name__,
    "made": made,
}))
"""

#: packages a game's start never needs (windows, Dask, the exact-LOS reference, old schema
#: validation, the progress bar, the network, scipy's graph search: a move's first reach
#: imports it, the load does not; asyncio: only the network play's, about 0.02 s of CPU, which
#: typing_extensions before 4.16 imported for pydantic-core's deprecated functions)
HEAVY = (
    "asyncio",
    "scipy",
    "dask",
    "distributed",
    "pyglet",
    "PIL",
    "jsonschema",
    "shapely",
    "tomlkit",
    "tqdm",
    "websockets",
    "matplotlib",
    "pandas",
)


def _start(scenario: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run(
        [sys.executable, "-c", _START, scenario],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("scenario", ["standard", "lines_bukrin"])
def test_a_game_start_imports_no_heavy_package_and_builds_no_save_model(scenario):
    got = _start(scenario)
    heavy = sorted({m.split(".")[0] for m in got["modules"]} & set(HEAVY))
    assert heavy == [], f"`hexwar play {scenario} --headless` start imports {heavy}"
    # the save and round-1 map validators are built when a save or an old map is read
    assert got["built"] == {"SaveFileV2": False, "MapFileV1": False}
    # the shipped cards come from their compiled form: no card file model, no card file read
    # (hexwar/rules/cards/shipped.py; a stale compiled set would fall back to the full load)
    card_code = sorted(
        {"hexwar.formats.card_file", "hexwar.formats.card_vocab", "hexwar.rules.cards.loader"}
        & set(got["modules"])
    )
    assert card_code == [], f"`hexwar play {scenario} --headless` start imports {card_code}"
    # a start reads no save: the save models' module is not even imported (formats/save_steps.py)
    assert "hexwar.formats.save_file" not in got["modules"]


def test_each_game_mode_starts_without_the_other_modes_machinery():
    hexgame = _start("standard")
    assert hexgame["mode"] == "Scenario"
    assert not [m for m in hexgame["modules"] if m.startswith("hexwar.lines")]
    lines = _start("lines_bukrin")
    assert lines["mode"] == "LinesScenario"
    # the hex scenario's models exist once a hex scenario is read, never in a lines game (its
    # module is handed out lazily by hexwar.formats, issue 35)
    assert "hexwar.formats.scenario_file" in hexgame["made"]
    assert "hexwar.formats.scenario_file" not in lines["made"]
    assert "hexwar.formats.lines_file" in lines["made"] and "hexwar.formats.lines_file" not in hexgame["made"]
    # a lines game takes its dice log from hexwar.game.rolllog, not the hex set-up (R11)
    hex_only = {
        "hexwar.game.setup",
        "hexwar.game.turn",
        "hexwar.game.actions",
        "hexwar.game.movement",
        "hexwar.game.resolution",
    }
    assert sorted(hex_only & set(lines["modules"])) == []
