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
sc.new_game(seed=sc.seed)  # the game `play` then plays
played = sorted(sys.modules)
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
    "played": played,
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
    # the shipped scenario, map and rules tables come from their compiled forms
    # (hexwar/model/compiled_docs.py): no pydantic, no file model, before or after the set-up
    models = sorted(
        m for m in got["played"] if m.split(".")[0] in ("pydantic", "pydantic_core") or m.endswith("_file")
    )
    assert models == [], f"`hexwar play {scenario} --headless` start imports {models}"


def _user_copy(name: str, folder: Path) -> str:
    """A user's copy of a shipped scenario, one comment line added: bytes without a compiled
    form, so the start validates it by its model."""
    target = folder / f"{name}_copy.toml"
    target.write_text((ROOT / "scenarios" / f"{name}.toml").read_text() + "\n# a user's copy\n")
    return str(target)


def test_each_game_mode_starts_without_the_other_modes_machinery(tmp_path):
    hexgame = _start("standard")
    assert hexgame["mode"] == "Scenario"
    assert not [m for m in hexgame["modules"] if m.startswith("hexwar.lines")]
    lines = _start("lines_bukrin")
    assert lines["mode"] == "LinesScenario"
    # a shipped scenario makes no model at all (compiled documents); a user's file makes its own
    # mode's models, never the other mode's (hexwar.formats hands both modules out lazily)
    assert hexgame["made"] == [] and lines["made"] == []
    hex_user, lines_user = (
        _start(_user_copy("standard", tmp_path)),
        _start(_user_copy("lines_bukrin", tmp_path)),
    )
    assert "hexwar.formats.scenario_file" in hex_user["made"]
    assert "hexwar.formats.scenario_file" not in lines_user["made"]
    assert "hexwar.formats.lines_file" in lines_user["made"]
    assert "hexwar.formats.lines_file" not in hex_user["made"]
    # a lines game takes its dice log from hexwar.game.rolllog, not the hex set-up (R11)
    hex_only = {
        "hexwar.game.setup",
        "hexwar.game.turn",
        "hexwar.game.actions",
        "hexwar.game.movement",
        "hexwar.game.resolution",
    }
    assert sorted(hex_only & set(lines["modules"])) == []


def test_a_lines_game_set_up_for_play_imports_no_hex_game_machinery():
    """Issue 35: the lines game shares the cards, the combat engine, the dice and the event log
    with the hex game (R11.1), not the hex game's state, commands, actions or line of sight: the
    outcome types (hexwar.game.outcome), the command codec (hexwar.game.command_codec) and the
    action registry (hexwar.game.action_registry) are modules of their own. Before, a lines
    game's set-up imported the whole hex game (its 18 command and state dataclasses, every hex
    action, LOS): about 0.02 s of CPU at every `hexwar play lines` start."""
    lines = _start("lines_bukrin")
    hex_machinery = {
        "hexwar.game.state",
        "hexwar.game.commands",
        "hexwar.game.actions",
        "hexwar.game.ruleset",
        "hexwar.model.los",
    }
    assert sorted(hex_machinery & set(lines["played"])) == []
    # the shared pieces are there: the check above is not vacuous
    assert {"hexwar.game.outcome", "hexwar.game.command_codec", "hexwar.game.action_registry"} <= set(
        lines["played"]
    )
    assert "hexwar.lines.actions" in lines["played"]


def _threads_after_numpy(env_extra: dict[str, str]) -> tuple[int, str]:
    code = (
        "import os, hexwar, numpy\n"
        "print(len(os.listdir('/proc/self/task')), repr(os.environ.get('PYDANTIC_DISABLE_PLUGINS')))\n"
    )
    env = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "PYDANTIC_DISABLE_PLUGINS")
    }
    env.update(env_extra, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    n, plugins = out.stdout.split(maxsplit=1)
    return int(n), plugins.strip()


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2, reason="needs Linux, 2+ cores"
)
def test_process_defaults_one_openblas_thread_unless_the_user_sets_it():
    """hexwar.PROCESS_DEFAULTS (issue 35): importing hexwar before numpy keeps OpenBLAS to one
    thread (its pool of spinning threads cost 0.04-0.05 s of CPU at every start) and turns
    pydantic's plugin scan off; a value the user set wins."""
    n, plugins = _threads_after_numpy({})
    assert n == 1 and plugins == "'__all__'"
    n, plugins = _threads_after_numpy({"OPENBLAS_NUM_THREADS": "2", "PYDANTIC_DISABLE_PLUGINS": ""})
    assert n == 2 and plugins == "''"
