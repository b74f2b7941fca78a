"""The project's file mutator and the fuzz oracle (issue 33), shared by tests/test_fuzz_files.py.

Every file kind hexwar reads has a small valid sample (:func:`samples`); :func:`mutate` makes a
seeded mutant of it (byte edits, or an edit of one value of the parsed JSON/TOML document);
:func:`check_case` feeds it to ``hexwar validate`` (where the kind has one) and to the kind's own
loader, then plays a few commands from whatever was accepted. The outcome is one of:

* ``"accepted"``: validated and loaded, and a few commands were played from it;
* ``"refused"``: a :class:`~hexwar.errors.HexwarError` naming the file (protocol messages: a
  :class:`~hexwar.net.protocol.ProtocolError`);
* a failure: ``"traceback"`` (any other exception), ``"hang"`` (over the per-case timeout),
  ``"unnamed"`` (a refusal that does not name the file) or ``"validates-but-fails"``
  (``validate`` accepts a file its loader or play then refuses).
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import tomllib
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CASE_SECONDS = 10.0  # a mutant that takes longer is a hang


class Hang(BaseException):
    """Raised by the per-case alarm (a BaseException: no ``except Exception`` swallows it)."""


@dataclass
class Kind:
    """A file kind: its sample file name in the corpus folder, syntax, and how it is used."""

    name: str
    file: str
    syntax: str  # "json", "toml" or "text"
    validate: bool  # `hexwar validate` reads this kind
    use: Callable[[Path], Any]  # load it and play a few commands; raises HexwarError to refuse


# -- using each kind: load, then play a few commands ------------------------------------------
def _play_game(state: Any, n: int = 6, seed: int = 0) -> None:
    """A few commands of a hex or lines game, chosen among the legal ones by a seeded RNG."""
    rng = random.Random(seed)
    for _ in range(n):
        if state.over:
            return
        cmds = state.legal_commands(state.to_act)
        assert cmds, "a game that is not over must offer a command"
        state.apply(cmds[rng.randrange(len(cmds))])


def _use_map(p: Path) -> None:
    from hexwar.model.hexgrid import Hex
    from hexwar.model.los import line_of_sight
    from hexwar.model.maps import BattleMap

    m = BattleMap.load(p)
    hexes = list(m.hexes())
    line_of_sight(m, hexes[0], hexes[-1])
    line_of_sight(m, hexes[len(hexes) // 2], hexes[0])
    assert isinstance(hexes[0], Hex)


def _use_scenario(p: Path) -> None:
    from hexwar.game.scenario import load_scenario

    sc = load_scenario(p)
    _play_game(sc.new_game(seed=1))


def _use_save(p: Path) -> None:
    from hexwar.game.save import load_game

    _play_game(load_game(p))  # replays and verifies; then goes on


def _use_campaign_save(p: Path) -> None:
    from hexwar.campaign.save import load_campaign

    st = load_campaign(p)
    rng = random.Random(0)
    for _ in range(6):
        if st.over:
            return
        opts = st.legal_commands(st.to_act)
        st.apply(opts[rng.randrange(len(opts))])


def _use_deck(p: Path) -> None:
    from hexwar.errors import HexwarError
    from hexwar.lines.scenario import deck_problems, load_deck, load_lines_scenario

    side, cards, _ = load_deck(p)
    sc = load_lines_scenario("lines")
    errors, _ = deck_problems(side, list(cards), (sc.sides[side].minimum, sc.sides[side].budget))
    if errors:
        raise HexwarError(f"{p}: " + "; ".join(errors))
    _play_game(sc.with_decks({side: cards}).new_game(seed=1), n=10)


def _use_terrain(p: Path) -> None:
    from hexwar.model.maps import BattleMap
    from hexwar.model.terrain import load_terrain

    rules = load_terrain(str(p))
    m = BattleMap.load(DATA / "game_tiny_map.json", rules=rules)
    from hexwar.model.los import line_of_sight

    hexes = list(m.hexes())
    line_of_sight(m, hexes[0], hexes[-1])


def _use_cards(p: Path) -> None:
    from hexwar.rules.cards.loader import validate_card_file

    validate_card_file(str(p))


def _use_tiled(p: Path) -> None:
    from hexwar.formats.tiled import import_tiled
    from hexwar.model.maps import BattleMap

    res = import_tiled(p)
    m = BattleMap.from_json(res.map.to_json())
    assert m.width == res.map.width


def _use_tile_table(p: Path) -> None:
    from hexwar.formats.tiled import import_tiled, load_tile_table

    import_tiled(p.parent / "unmapped.tmj", load_tile_table(p))


def _use_wesnoth(p: Path) -> None:
    from hexwar.formats.wesnoth import import_wesnoth
    from hexwar.model.maps import BattleMap

    res = import_wesnoth(p)
    BattleMap.from_json(res.map.to_json())


_TINY: list[Any] = []


def _use_protocol(p: Path) -> None:
    """A client frame: parsed and checked against the schema; a command frame is then parsed
    by the game mode and checked against a game (as the server does), never applied blind."""
    from hexwar.errors import HexwarError
    from hexwar.game.commands import command_from_json
    from hexwar.game.scenario import load_scenario
    from hexwar.net.protocol import ProtocolError, parse_client_message

    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("bad_message", "not UTF-8 text") from None  # the websocket layer's refusal
    msg = parse_client_message(text)
    if msg["type"] == "command":
        if not _TINY:
            _TINY.append(load_scenario(DATA / "game_tiny.toml").new_game(seed=1))
        try:
            cmd = command_from_json(msg["command"], "command")
        except HexwarError:
            return  # the server answers bad_command
        why = _TINY[0].check(cmd)
        assert why is None or isinstance(why, str)


KINDS: list[Kind] = [
    Kind("map", "map.json", "json", True, _use_map),
    Kind("scenario-hex", "hex.toml", "toml", True, _use_scenario),
    Kind("scenario-lines", "lines.toml", "toml", True, _use_scenario),
    Kind("save-hex", "save_hex.json", "json", True, _use_save),
    Kind("save-lines", "save_lines.json", "json", True, _use_save),
    Kind("save-campaign", "save_war.json", "json", True, _use_campaign_save),
    Kind("deck", "deck.toml", "toml", True, _use_deck),
    Kind("terrain-table", "terrain.toml", "toml", False, _use_terrain),
    Kind("card-file", "cards.toml", "toml", True, _use_cards),
    Kind("tiled-tmx", "map.tmx", "text", False, _use_tiled),
    Kind("tiled-tmj", "map.tmj", "json", False, _use_tiled),
    Kind("tiled-tile-table", "tiles.toml", "toml", False, _use_tile_table),
    Kind("wesnoth-map", "w.map", "text", False, _use_wesnoth),
    Kind("protocol", "message.json", "json", False, _use_protocol),
]


# -- the corpus ---------------------------------------------------------------------------------
def build_corpus(folder: Path) -> Path:
    """Write one valid sample of every kind into ``folder`` (saves of short seeded games)."""
    from hexwar.campaign.save import write_campaign_save
    from hexwar.campaign.state import new_campaign
    from hexwar.game.save import write_save
    from hexwar.game.scenario import load_scenario

    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DATA / "game_tiny_map.json", folder / "map.json")
    shutil.copy(DATA / "game_tiny_map.json", folder / "game_tiny_map.json")
    shutil.copy(DATA / "game_tiny.toml", folder / "hex.toml")
    shutil.copy(ROOT / "scenarios" / "lines.toml", folder / "lines.toml")
    deck = sorted((ROOT / "decks").glob("*.toml"))[0]
    shutil.copy(deck, folder / "deck.toml")
    shutil.copy(ROOT / "hexwar" / "data" / "terrain.toml", folder / "terrain.toml")
    shutil.copy(ROOT / "hexwar" / "data" / "cards" / "command.toml", folder / "cards.toml")
    shutil.copy(DATA / "tiled" / "odd_csv.tmx", folder / "map.tmx")
    shutil.copy(DATA / "tiled" / "town.tsx", folder / "town.tsx")
    shutil.copy(DATA / "tiled" / "even_zlib.tmj", folder / "map.tmj")
    shutil.copy(DATA / "tiled" / "town.tsj", folder / "town.tsj")
    shutil.copy(DATA / "tiled" / "painted.toml", folder / "tiles.toml")
    shutil.copy(DATA / "tiled" / "unmapped.tmj", folder / "unmapped.tmj")
    shutil.copy(DATA / "wesnoth" / "with_header.map", folder / "w.map")
    (folder / "message.json").write_text(
        json.dumps({"type": "command", "seq": 0, "command": {"cmd": "end_phase", "side": "german"}}) + "\n"
    )
    hex_sc = load_scenario(folder / "hex.toml")
    st = hex_sc.new_game(seed=3)
    from hexwar.game.ai import make_player

    ps = {s: make_player("random", s, 3) for s in ("german", "soviet")}
    while st.turn <= 1 and not st.over:
        st.apply(ps[st.to_act].choose(st))
    write_save(st, folder / "save_hex.json", {"german": "random", "soviet": "random"})
    lines_sc = load_scenario(folder / "lines.toml")
    lt = lines_sc.new_game(seed=3)
    rng = random.Random(3)
    while lt.turn <= 1 and not lt.over:
        cmds = lt.legal_commands(lt.to_act)
        lt.apply(cmds[rng.randrange(len(cmds))])
    write_save(lt, folder / "save_lines.json", {"german": "random", "soviet": "random"})
    war, _ = new_campaign(3)
    from hexwar.campaign.ai import make_player as campaign_player

    cps = {s: campaign_player("random", s, 3) for s in ("german", "soviet")}
    while not war.over and len(war.commands) < 40:
        war.apply(cps[war.to_act].choose(war))
    write_campaign_save(war, folder / "save_war.json", {"german": "random", "soviet": "random"})
    return folder


# -- the mutator ----------------------------------------------------------------------------------
TOKENS = [
    b'"',
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"=",
    b"\x00",
    b"\x1b[31m",
    b"\xff",
    b"-1",
    b"0",
    b"1e999",
    b"99999999999999999999",
    b"NaN",
    b"null",
    b"true",
    b"\n",
    b"#",
    b"../",
    b"/etc/passwd",
    "\u202e".encode(),
    b"1979-05-27",
    b"<",
    b">",
    b"&#27;",
]

VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**31,
    10**30,
    1.5,
    float("inf"),
    "",
    "x",
    "\x1b]0;owned\x07",
    "../../etc/passwd",
    "/etc/passwd",
    "A01",
    "ZZ99",
    "german",
    "soviet",
    [],
    [1, "a"],
    {},
    {"a": 1},
    "9" * 300,
]


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:50]):
            out += _paths(v, prefix + (i,))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _toml_dump(doc: Any) -> str:
    """A small TOML writer for the structural mutants (tables, arrays, scalars)."""

    def val(v: Any) -> str:
        if v is None:
            return '""'  # TOML has no null: the closest refusal-worthy value
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "inf" if v == float("inf") else repr(v)
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(str(k))} = {val(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v))

    return "".join(f"{json.dumps(str(k))} = {val(v)}\n" for k, v in doc.items())


def mutate(data: bytes, syntax: str, rng: random.Random) -> tuple[bytes, str]:
    """One seeded mutant of ``data`` and a description of the change."""
    op = rng.randrange(10)
    if op >= 6 and syntax in ("json", "toml"):
        try:
            doc = json.loads(data) if syntax == "json" else tomllib.loads(data.decode())
        except (ValueError, UnicodeDecodeError):
            doc = None
        if isinstance(doc, dict) and doc:
            paths = [p for p in _paths(doc) if p]
            path = paths[rng.randrange(len(paths))]
            parent = _get(doc, path[:-1])
            how = rng.randrange(4)
            if how == 0 and isinstance(parent, dict):
                del parent[path[-1]]
                what = f"delete {path}"
            elif how == 1 and isinstance(parent, dict):
                parent[f"extra{rng.randrange(9)}"] = VALUES[rng.randrange(len(VALUES))]
                what = f"add a key beside {path}"
            elif how == 2 and isinstance(parent, list) and parent:
                parent.append(parent[rng.randrange(len(parent))])
                what = f"duplicate an item of {path[:-1]}"
            else:
                v = VALUES[rng.randrange(len(VALUES))]
                parent[path[-1]] = v
                what = f"set {path} = {v!r}"[:120]
            try:
                text = json.dumps(doc, indent=1, ensure_ascii=False) if syntax == "json" else _toml_dump(doc)
                return text.encode("utf-8"), what
            except (ValueError, TypeError):
                pass
    b = bytearray(data)
    if not b:
        return bytes(rng.choice(TOKENS)), "from nothing"
    i = rng.randrange(len(b))
    if op in (0, 6):
        b[i] = rng.randrange(256)
        what = f"byte {i} = {b[i]}"
    elif op in (1, 7):
        n = rng.randint(1, 40)
        del b[i : i + n]
        what = f"delete {n} bytes at {i}"
    elif op in (2, 8):
        tok = rng.choice(TOKENS)
        b[i:i] = tok
        what = f"insert {tok!r} at {i}"
    elif op == 3:
        n = rng.randint(1, 60)
        b[i:i] = b[i : i + n]
        what = f"duplicate {n} bytes at {i}"
    elif op == 4:
        del b[i:]
        what = f"truncate at {i}"
    else:
        j = rng.randrange(len(b))
        b[i], b[j] = b[j], b[i]
        what = f"swap bytes {i} and {j}"
    return bytes(b), what


# -- the oracle -----------------------------------------------------------------------------------
def _names_a_file(msg: str, work: Path) -> bool:
    """The refusal names the file read (or the companion file the problem is in: a mutated
    terrain table refuses the map that uses a terrain it lost)."""
    return any(f.name in msg for f in work.iterdir()) or "game_tiny_map.json" in msg


def _alarm(*_: Any) -> None:
    raise Hang()


def check_case(kind: Kind, corpus: Path, work: Path, seed: int) -> tuple[str, str]:
    """Mutate ``kind``'s sample with ``seed`` and classify what hexwar does with it.

    Returns:
        ``(outcome, detail)``: outcome as in the module text; detail says the mutation and,
        for a failure, the error.
    """
    from hexwar.errors import HexwarError
    from hexwar.net.protocol import ProtocolError
    from hexwar.validate import validate_file

    rng = random.Random(seed)
    data, what = mutate((corpus / kind.file).read_bytes(), kind.syntax, rng)
    for f in work.iterdir():
        if f.is_file():
            f.unlink()
    for f in corpus.iterdir():  # the sample's companions (its map, tilesets) beside it
        if f.name != kind.file:
            shutil.copy(f, work / f.name)
    target = work / kind.file
    target.write_bytes(data)
    detail = f"{kind.name} seed {seed}: {what}"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    stage = "validate"
    try:
        validated = None
        if kind.validate:
            try:
                validate_file(str(target))
                validated = True
            except HexwarError as exc:
                validated = False
                if not _names_a_file(str(exc), work):
                    return "unnamed", f"{detail}: validate: {str(exc)[:300]}"
        stage = "use"
        try:
            kind.use(target)
        except ProtocolError:
            return "refused", detail
        except HexwarError as exc:
            if validated:
                return "validates-but-fails", f"{detail}: {str(exc)[:300]}"
            if kind.name != "protocol" and not _names_a_file(str(exc), work):
                return "unnamed", f"{detail}: {str(exc)[:300]}"
            return "refused", detail
        if validated is False:
            return "refused", detail  # validate is stricter than the loader here: still a refusal
        return "accepted", detail
    except Hang:
        return "hang", f"{detail}: over {CASE_SECONDS:g} s in {stage}"
    except Exception:  # noqa: BLE001 - the point: anything else is a traceback a user would see
        return "traceback", f"{detail}: {stage}: " + traceback.format_exc(limit=8)[-1500:]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
