"""Seeded AI-vs-AI games give the same commands, result and hashes as main's code before issue 22's
last speed work (R1.2: the seed decides everything).

The games are whole standard-vs-standard games (``hexwar balance``'s game,
:func:`hexwar.balance.play_scenario_game`, which is ``hexwar play --headless --seed``) on frozen
scenario files, so that retuning the shipped scenarios cannot move them: the six round-1 files of
``tests/data/legacy_e9c3826/`` and four 1943 scenarios of main d8650e7 copied to
``tests/data/games_d8650e7/`` (snow, mud, night, minefields, river crossings, burnout, placed
battlefield state). One game is played under fog of war (R12.2: the players decide from their view).

``PINNED`` was obtained on main d8650e7 (before the change) with this file's own :func:`record`::

    git archive d8650e7 | tar -x -C /tmp/d8650e7
    PYTHONPATH=/tmp/d8650e7 python tests/test_seeded_games.py

which prints the table (the function uses only names that exist on that commit). Each row holds the
winner, reason, last turn and score (R10.1, R10.2), the number of commands, the SHA-256 of the
command log (:func:`hexwar.game.save.commands_hash`), the final state hash and the event-log hash
(every roll and event; :func:`hexwar.game.save.log_hash`). A save of each game replays with verify
to the same hashes (R12.3). The saves ``tests/data/games_d8650e7/save_*.json`` were written on that
commit by ``hexwar play FILE --headless --ai german,soviet --seed S --save F`` and must replay too.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent / "data"

#: (scenario file under tests/data, seed, rule variants or None for the scenario's own)
GAMES: tuple[tuple[str, int, tuple[str, ...] | None], ...] = (
    ("legacy_e9c3826/standard.toml", 1, None),
    ("legacy_e9c3826/kharkov.toml", 7, None),
    ("legacy_e9c3826/ponyri.toml", 11, None),
    ("legacy_e9c3826/prokhorovka.toml", 3, ("classic",)),
    ("legacy_e9c3826/dnieper.toml", 5, None),
    ("legacy_e9c3826/skirmish.toml", 2, ("fog",)),
    ("games_d8650e7/stalingrad.toml", 4, None),
    ("games_d8650e7/sinyavino.toml", 9, None),
    ("games_d8650e7/kuban.toml", 6, None),
    ("games_d8650e7/saur_mogila.toml", 8, None),
)

#: file -> (winner, reason, turn, score, commands, commands hash, state hash, log hash) on d8650e7
PINNED: dict[str, tuple] = {
    "legacy_e9c3826/standard.toml": (
        "german",
        "points",
        8,
        [("german", 68), ("soviet", 17)],
        142,
        "a480ad910696a69deca885068a3127c530f182f181635d10d6482ade7291f777",
        "e0468854bc2292d01c79c8d1f81d4cd90c71a808339937ab09c086dfa195fdf9",
        "89daa0fdeda74ee5300e3c23eb3f845ccfffcc5dc025ad58bc0975b355b46e47",
    ),
    "legacy_e9c3826/kharkov.toml": (
        "german",
        "points",
        7,
        [("german", 56), ("soviet", 45)],
        212,
        "1cea4afb011719328c71b6b55cc56aa712385e41c7f32d94a327fbc842a43d80",
        "24ceb9a48b58f49f38eef7c4b36e9104fe0f637dd92dd2ce10425974d0e7566f",
        "c4837a32bab99cc05bc6870d5c99ec4aa7b5efc879b208dd7d15cb807e81f88c",
    ),
    "legacy_e9c3826/ponyri.toml": (
        "german",
        "points",
        3,
        [("german", 58), ("soviet", 29)],
        132,
        "420fceed0f5d3feb8e1d334cda87a4a5f6cbaa0035fe09e3051353e1ccbe0555",
        "1afe27c0b317a67dc12eb3486f47d50b9c7434403ab95980397568f5f9c08d0d",
        "ca9456e2f8bddfeb232b6dd7be607d3caf8d540321e77fb6fd5026ced349b857",
    ),
    "legacy_e9c3826/prokhorovka.toml": (
        "german",
        "points",
        3,
        [("german", 58), ("soviet", 47)],
        92,
        "83199ee80f74190801644f0482d02e2fe151bec808d08fe3fc1b90812fd4d164",
        "dacbcbc87282ae6ac6dcf10c9c795cfbeef6d66c29f97766f9ead5c4b8fdc5c8",
        "e95c0367d8c54af7ba46ac4ba15c5a076968c0db31ef48ac10099b9a0632bda9",
    ),
    "legacy_e9c3826/dnieper.toml": (
        "german",
        "points",
        6,
        [("german", 56), ("soviet", 42)],
        127,
        "ed83ebb4a04586b5b39a0191e1947ae907b186edd5f94afb302c3576a338a130",
        "e435ad07ba8509f0ad80a5cf04f19e1a5348b62fbe6e5b156bbcc3ffd9df1e60",
        "c55bc9db035dbea944122d60bf7bc2d1e7fafdc941ae5af1c420afdae1bd17ad",
    ),
    "legacy_e9c3826/skirmish.toml": (
        "soviet",
        "points",
        7,
        [("german", 18), ("soviet", 52)],
        231,
        "99dfd4c032d86c0546323dacbca592f56ce81f2c0277af46eed45891d3f3fc3d",
        "5b2277a797ab5c2b7e94b975c83028cac0ef642cba115379c25a0de6b25fc32d",
        "0e5449fa74446d43072b7f24d7123723f79abc8496f862e7736b6b4eb5885eca",
    ),
    "games_d8650e7/stalingrad.toml": (
        "soviet",
        "points",
        8,
        [("german", 71), ("soviet", 101)],
        256,
        "b43b2766e101404b0f249206391b646987931d1385574f3f02922b1f7226f730",
        "0419f08a950d7561eb771cfed43db69673400ebe26fe541153db9c9032a24f00",
        "108933f5375306c0433b4eca90475315d785ba226b538167ec6caf5109cc800a",
    ),
    "games_d8650e7/sinyavino.toml": (
        "soviet",
        "turn limit",
        8,
        [("german", 40), ("soviet", 65)],
        234,
        "d1f18837c14571252211f5b60e83b220e85d2f2e674b127000bd34b06fedf602",
        "df2e175b4a550bbf34a29fe88cc727e610be95899820830460631374d078ebd7",
        "f24524215dae9d3f2f430c1cbc65584e9fb07342fd562c8d5e1cb168f4d21de9",
    ),
    "games_d8650e7/kuban.toml": (
        "soviet",
        "points",
        7,
        [("german", 58), ("soviet", 101)],
        237,
        "82975a6aa45b90d7d0e5b2f72b5079524016c9146498418663351de8549fc44a",
        "172ed4dcd4302ce24c3a460286a2983bca6cb67f6ff36da9a5f57dc1fcfd0cfd",
        "5909f4b0befffc976304bc0c6c610b132a95a3259dc1fd3ca1897473f9b85b2e",
    ),
    "games_d8650e7/saur_mogila.toml": (
        "soviet",
        "points",
        8,
        [("german", 49), ("soviet", 100)],
        202,
        "83c1d981a2bf76ca8bf964f852c81af79235c36e748ccc9e9b64139c6f4f1c44",
        "2eba7b8df822855223874df658857452f20214e35cdb2d7d9cc7b1ba1b95a495",
        "4767870cf19a01c9aa453ce005a0048f9f29288bf50d2faf121187243000ff48",
    ),
}


def play_game(name: str, seed: int, variants: tuple[str, ...] | None) -> Any:
    """Play one seeded standard-vs-standard game of ``tests/data/NAME``; the final game state."""
    from hexwar import balance as bal
    from hexwar.game.ai import make_player
    from hexwar.game.headless import play
    from hexwar.game.scenario import load_scenario

    sc = load_scenario(HERE / name)
    players = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
    return play(sc, players, seed=seed, variants=variants, max_turns=bal.MAX_TURNS).state


def record(name: str, seed: int, variants: tuple[str, ...] | None) -> tuple:
    """The result and hashes of :func:`play_game` (one ``PINNED`` row)."""
    from hexwar.game.headless import result_of
    from hexwar.game.save import commands_hash, log_hash

    st = play_game(name, seed, variants)
    res = result_of(st)
    return (
        res.winner,
        res.reason,
        res.turn,
        sorted(res.score.items()),
        len(st.commands),
        commands_hash(st.commands),
        st.state_hash(),
        log_hash(st),
    )


SAVES = sorted((HERE / "games_d8650e7").glob("save_*.json"))


def test_the_pinned_games_cover_ten_scenarios_fog_and_classic():
    assert set(PINNED) == {g[0] for g in GAMES}
    assert len(GAMES) == 10
    assert {v for g in GAMES for v in (g[2] or ())} == {"classic", "fog"}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g[0]).stem)
def test_a_seeded_ai_game_gives_the_commands_result_and_hashes_pinned_on_d8650e7(game):
    assert record(*game) == PINNED[game[0]], f"seed {game[1]} of {game[0]}"


def test_a_save_of_a_seeded_game_replays_with_verify_to_the_pinned_hashes(tmp_path):
    from hexwar.game.save import load_game, log_hash, write_save

    game = GAMES[-1]
    st = play_game(*game)
    shutil.copytree(HERE / "games_d8650e7", tmp_path / "g")  # the save finds its scenario beside it
    write_save(st, tmp_path / "g" / "game.json", {"german": "standard", "soviet": "standard"})
    again = load_game(tmp_path / "g" / "game.json")  # verify=True: checkpoints, final, commands and log
    pinned = PINNED[game[0]]
    assert (len(again.commands), again.state_hash(), log_hash(again)) == (pinned[4], pinned[6], pinned[7])


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_a_save_written_on_d8650e7_replays_with_verify_to_its_hashes(path, tmp_path, capsys):
    from hexwar.cli import main
    from hexwar.game.save import load_game, log_hash

    saved = json.loads(path.read_text())
    for f in path.parent.iterdir():  # a copy elsewhere: the scenario is found beside the save
        if f.is_dir():
            shutil.copytree(f, tmp_path / f.name)
        else:
            shutil.copy(f, tmp_path / f.name)
    state = load_game(tmp_path / path.name)  # verify=True: checkpoints, final, commands and log
    assert state.state_hash() == saved["final"]["hash"]
    assert log_hash(state) == saved["final"]["log_hash"]
    assert len(state.commands) == saved["final"]["commands"]
    rc = main(["replay", str(tmp_path / path.name), "--verify"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "replays exactly" in out.out


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    for g in GAMES:
        print(f"    {g[0]!r}: {record(*g)!r},", flush=True)
