"""Reading a map file: the typed model first, then what it means on the board (R2.4, R5.2, R8, R10.2).

:func:`read_model` validates a parsed document by :class:`~hexwar.model.map_file.MapFile` and,
when the model refuses parts the board does not hang on, leaves them out so the rest is still
checked; :class:`MapReader` runs the semantic checks on the model (terrain codes of the table,
hexes on the board, wrecks that exist, rubble and fire only in buildings, deploy zones apart,
one objective per hex) and fills a new map's arrays. ``BattleMap.from_json`` calls both; every
problem of both is reported at once.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import Problem
from .hexgrid import Hex, HexLabelError, column_index
from .map_format import MAP_FORMAT, MAP_SCHEMA_VERSION, lean_document, rect_hexes, zone_rect
from .terrain import RulesTerrain, impassable_to_all

if TYPE_CHECKING:  # pragma: no cover
    from .map_file import MapFile

__all__ = ["read_model", "MapReader"]

_FATAL = ("width", "height")  # the board hangs on these: nothing else can be checked


def read_model(
    data: dict[str, Any], src: str, *, lean: bool = True
) -> tuple[MapFile | None, list[Problem], dict[str, list[Any] | None], list[int] | None]:
    """Validate ``data`` by the map model: ``(model, problems, raw grid rows, objective indices)``.

    When the model refuses parts the board does not hang on, they are left out and the rest
    is validated again, so the semantic checks still run on it; the model is ``None`` only
    when the size is refused. The raw ``terrain`` or ``levels`` rows (``None``: not a list) and
    a side's raw ``deploy.SIDE`` specs come back when the model refused some of them, so the
    rest are still checked (and named) hex by hex, spec by spec; the objective
    indices are those in the file of the objectives kept (``None``: all of them).

    With ``lean`` (and compiled documents not :func:`~hexwar.model.compiled_docs.bypassed`,
    as ``hexwar validate`` does) a plain current document that the model accepts unchanged is
    read by :func:`~hexwar.model.map_format.lean_document`: the model's value, without
    importing pydantic (issue 35); anything else goes through the model.
    """
    from . import compiled_docs

    doc = lean_document(data) if lean and compiled_docs.ENABLED else None
    if doc is not None:
        return doc, [], {}, None
    import pydantic  # the model machinery: imported when a map is validated, not read compiled

    from .filemodel import problems_of, validate
    from .map_file import MapFile

    try:
        return validate(MapFile, data), [], {}, None
    except pydantic.ValidationError as exc:
        problems = problems_of(exc, MapFile, src)
        errors = exc.errors(include_url=False)
    pruned = dict(data)
    drop: dict[str, set[Any]] = {}  # entries refused whole
    leaves: dict[tuple[str, Any], set[str]] = {}  # keys refused inside a kept entry
    raw_grids: dict[str, list[Any] | None] = {}
    index: list[int] | None = None
    for err in errors:
        loc = err["loc"]
        top = str(loc[0]) if loc else ""
        if not loc or top in _FATAL:
            return None, problems, {}, None
        if top in ("format", "schema_version"):
            pruned[top] = MAP_FORMAT if top == "format" else MAP_SCHEMA_VERSION
        elif top == "deploy" and len(loc) >= 3 and loc[2] != "[key]":
            # a bad spec: the side's specs are read raw, each spec checked where it stands
            raw_grids[f"deploy.{loc[1]}"] = data["deploy"][loc[1]]
            drop.setdefault(top, set()).add(loc[1])
        elif top in ("features", "objectives") and len(loc) >= 3 and loc[2] not in ("[key]", "hex"):
            leaves.setdefault((top, loc[1]), set()).add(str(loc[2]))
        elif top == "features" and len(loc) == 2 and err["type"] == "fire_needed":
            leaves.setdefault((top, loc[1]), set()).add("fire_turns")
        elif top in ("features", "deploy", "objectives") and len(loc) >= 2:
            drop.setdefault(top, set()).add(loc[1])
        else:
            if top in ("terrain", "levels"):  # not a list of rows: no row is read
                raw = data.get(top)
                raw_grids[top] = raw if isinstance(raw, list) else None
            pruned.pop(top, None)
            if top == "terrain":
                pruned["terrain"] = []  # required: its rows are read from raw_grids
    for (key, entry), bad_keys in leaves.items():
        val = pruned[key] = copy.copy(pruned[key])
        val[entry] = {k: v for k, v in val[entry].items() if k not in bad_keys}
    for key, bad_keys in drop.items():
        val = pruned.get(key)
        if isinstance(val, dict):
            pruned[key] = {k: v for k, v in val.items() if k not in bad_keys}
        elif isinstance(val, list):  # objectives: keep the indices of the rest in the reports
            pruned[key] = [v for i, v in enumerate(val) if i not in bad_keys]
            index = [i for i in range(len(val)) if i not in bad_keys]
    try:
        doc = validate(MapFile, pruned)
    except pydantic.ValidationError:  # pragma: no cover - pruning leaves a valid document
        return None, problems, {}, None
    return doc, problems, raw_grids, index


class MapReader:
    """The semantic checks of one map document (after the model), filling a new map.

    Args:
        m: the new, empty ``BattleMap`` of the document's size (its arrays are filled).
        doc: the validated (possibly pruned) document.
        src: the file name for the reports.
        rules: the terrain table the codes refer to.
        raw_grids: raw rows and specs the model refused (see :func:`read_model`).
        obj_index: the file indices of the objectives kept (``None``: all).

    Attributes:
        problems: every problem found, in file order.
    """

    def __init__(
        self,
        m: Any,
        doc: MapFile,  # or its compiled form (hexwar.model.compiled_docs.Doc)
        src: str,
        rules: RulesTerrain,
        raw_grids: dict[str, list[Any] | None],
        obj_index: list[int] | None,
    ) -> None:
        self.doc, self.src, self.rules, self.raw_grids = doc, src, rules, raw_grids
        self.obj_index = obj_index
        self.problems: list[Problem] = []
        self.map = m

    def bad(self, where: str, msg: str) -> None:
        """Report a problem at ``where`` (a field path, or a field path and a hex label)."""
        self.problems.append(Problem(self.src, where, msg))

    def read(self) -> list[tuple[Hex, str, int]]:
        """Run every check in file order, filling the map's arrays, wrecks and deploy zones
        and :attr:`problems`; returns the objective markers ``(hex, name, points)``."""
        m, rules = self.map, self.rules
        code_index = {t.code: i for i, t in enumerate(rules.types)}
        t_lut = np.full(256, -1, dtype=np.int64)  # byte -> terrain index (-1: take the per-hex path)
        for code, i in code_index.items():
            if len(code) == 1 and code.isascii():
                t_lut[ord(code)] = i
        l_lut = np.full(256, -1, dtype=np.int64)
        l_lut[ord("0") : ord("9") + 1] = np.arange(10)

        def terrain_cell(ch: str) -> tuple[int, str | None]:
            if ch not in code_index:
                return 0, f"unknown terrain code {ch!r}; expected one of {rules.codes!r}"
            return code_index[ch], None

        def level_cell(ch: str) -> tuple[int, str | None]:
            if not ("0" <= ch <= "9"):
                return 0, f"ground level {ch!r}; expected a digit 0-9"
            return int(ch), None

        terrain = self.raw_grids.get("terrain", self.doc.terrain)
        if terrain is not None:
            self.grid("terrain", terrain, m.terrain, t_lut, terrain_cell)
        levels = self.raw_grids.get("levels", self.doc.levels)
        if levels is not None and (levels or "levels" in self.doc.model_fields_set):
            self.grid("levels", levels, m.level, l_lut, level_cell)
        self.features()
        self.deploy()
        return self.objectives()

    def grid(self, key: str, rows: list[Any], out: np.ndarray, lut: np.ndarray, cell: Any) -> None:
        """Row strings into ``out``: one vectorized store per valid row; a bad hex named by label."""
        w, h, digits = self.map.width, self.map.height, self.map.row_digits
        if len(rows) != h:
            self.bad(key, f"expected {h} rows (height), found {len(rows)}")
        for ri, row in enumerate(rows[:h]):
            if not isinstance(row, str):
                continue
            if len(row) != w:
                self.bad(f"{key}[{ri}]", f"row {ri + 1} has {len(row)} characters, expected {w} (width)")
            elif row.isascii():
                vals = lut[np.frombuffer(row.encode("ascii"), dtype=np.uint8)]
                if (vals >= 0).all():  # every hex valid: one store (500x500 maps)
                    out[ri, :] = vals
                    continue
            for ci, ch in enumerate(row[:w]):  # the per-hex path names each bad hex
                v, err = cell(ch)
                if err:
                    self.bad(f"{key}[{ri}] {Hex.from_offset(ci, ri).to_label(digits)}", err)
                else:
                    out[ri, ci] = v

    def on_board(self, label: str, where: str) -> Hex | None:
        """The hex of ``label`` when it lies on the board, else a problem at ``where``."""
        try:
            hx = Hex.from_label(label)
        except HexLabelError as exc:
            self.bad(where, str(exc))
            return None
        if not self.map.in_bounds(hx):
            self.bad(where, f"hex {label!r} is off the {self.map.width}x{self.map.height} map")
            return None
        return hx

    def features(self) -> None:
        """Roads, rubble, fire and wrecks (R2.4, R8.1, R8.3, R8.4): where they may stand."""
        m, rules = self.map, self.rules
        types = rules.types
        water = [impassable_to_all(t) for t in types]
        road_code = next((t.code for t in types if t.key == "road"), "=")
        columns: dict[str, int] = {}  # column letters -> index (a 500x500 map has 500)
        w, h = m.width, m.height
        for label, f in self.doc.features.items():
            where = f"features.{label}"
            # the model checked the label's shape (letters, 2-3 digits): parse it here directly
            letters = label.rstrip("0123456789")
            col = columns.get(letters)
            if col is None:
                col = columns[letters] = column_index(letters)
            row = int(label[len(letters) :]) - 1
            if not (0 <= col < w and 0 <= row < h):
                self.on_board(label, where)  # the one wording of a label off the board
                continue
            idx = (row, col)
            ti = int(m.terrain[idx])
            ttype = types[ti]
            if f.get("road"):
                if water[ti]:
                    self.bad(
                        f"{where}.road",
                        f"a road flag on {ttype.name.lower()} is ambiguous: a bridge is road "
                        f"terrain over the river (docs/rules.md): write {road_code!r} for this hex "
                        f"in its terrain row instead",
                    )
                m.road[idx] = True
            if f.get("rubble"):
                if not ttype.is_building:
                    self.bad(f"{where}.rubble", "rubble needs a building hex (R8.3)")
                m.rubble[idx] = True
            if f.get("fire"):
                if not ttype.is_building:
                    self.bad(f"{where}.fire", "fire needs a building hex (R8.4)")
                if f.get("rubble"):
                    self.bad(f"{where}.fire", "a rubble hex cannot burn (R8.3)")
                m.fire[idx] = True
                m.fire_turns[idx] = f.get("fire_turns", 0)
            wrecks = f.get("wrecks")
            if wrecks:
                for wid in wrecks:
                    if wid not in rules.wrecks:
                        self.bad(
                            f"{where}.wrecks",
                            f"unknown wreck {wid!r}; expected one of {sorted(rules.wrecks)}",
                        )
                known = [x for x in wrecks if x in rules.wrecks]
                if known:
                    m.wrecks[Hex.from_offset(col, row)] = known

    def deploy(self) -> None:
        """Deploy-zone markers (R5.2): rectangles on the board, the two sides apart."""
        m = self.map
        sides: dict[str, list[Any]] = {str(k): list(v) for k, v in self.doc.deploy.items()}
        for key, raw in self.raw_grids.items():
            if key.startswith("deploy.") and raw is not None:
                sides[key[len("deploy.") :]] = raw
        rects: dict[str, list[tuple[int, int, int, int]]] = {}  # side -> (c0, r0, c1, r1) read
        for side, specs in sides.items():
            for i, spec in enumerate(specs):
                zw = f"deploy.{side}[{i}]"
                if not isinstance(spec, str):
                    continue  # the model said so
                try:
                    rect = zone_rect(spec)
                except HexLabelError as exc:
                    self.bad(zw, str(exc))
                    continue
                # a rectangle lies on the board when its two corners do (column-major order)
                c0, r0, c1, r1 = rect
                if not (m.in_bounds(Hex.from_offset(c0, r0)) and m.in_bounds(Hex.from_offset(c1, r1))):
                    off = next(x for x in rect_hexes(rect) if not m.in_bounds(x))
                    self.bad(zw, f"{spec!r} reaches off the {m.width}x{m.height} map (e.g. {off.label})")
                    continue
                rects.setdefault(side, []).append(rect)
        # issue 35: the zones' hexes (25,000 a side on a generated 500x500 map) are made when
        # the map's deploy zones are first read (BattleMap.deploy), not by every load
        m.defer_deploy(rects)
        # the sides overlap when two of their rectangles do; the hexes are listed only then
        crossing = any(
            a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
            for a in rects.get("german", ())
            for b in rects.get("soviet", ())
        )
        if crossing and len(m.deploy) == 2:
            both = sorted(set(m.deploy["german"]) & set(m.deploy["soviet"]))
            self.bad(
                "deploy",
                f"the german and soviet deploy zones overlap in {len(both)} hexes, e.g. {both[0].label}",
            )

    def objectives(self) -> list[tuple[Hex, str, int]]:
        """Objective markers (R10.2): on the board, one per hex."""
        index = self.obj_index if self.obj_index is not None else range(len(self.doc.objectives))
        objs: list[tuple[Hex, str, int]] = []
        for i, o in zip(index, self.doc.objectives, strict=True):
            ox = self.on_board(o.hex, f"objectives[{i}].hex")
            if ox is None:
                continue
            if any(x[0] == ox for x in objs):
                self.bad(f"objectives[{i}].hex", f"{ox.label} is already an objective")
                continue
            objs.append((ox, o.name, o.points))
        return objs
