"""Undoable editor commands and the command stack (DESIGN: undo/redo is a command stack over
the map model; the editor writes through the model's own validation).

Every edit is a :class:`Command` with :meth:`~Command.apply` and :meth:`~Command.undo`:

* :class:`MapEdit` -- a patch of hexes (paint, line, fill, levels, roads, wrecks, rubble, fire,
  paste, clear). It runs an *operation* that changes the map only through
  :class:`~hexwar.model.maps.BattleMap` methods inside a :class:`~hexwar.editor.hexstate.MapTransaction`;
  if the map refuses any step (:class:`~hexwar.model.maps.MapError`) every hex goes back as it was and
  the error propagates, so an invalid edit changes nothing. What it recorded (each touched hex's
  state before and after) is then replayed for undo and redo.
* :class:`ReplaceMap` -- new size (resize), with the scenario's hexes moved along.
* :class:`MapProperties` -- name and description.
* :class:`ScenarioEdit` -- any scenario change, as a before/after pair of immutable
  :class:`~hexwar.editor.scenario_draft.ScenarioDraft` values.

A brush stroke of many hexes is one command: see :class:`Stroke`.

The factory functions (:func:`paint_terrain`, :func:`change_level`, :func:`place_wreck` ...) build
commands; :meth:`hexwar.editor.model.EditorDocument.execute` applies and records them.

>>> from hexwar.editor.model import EditorDocument
>>> from hexwar.model.hexgrid import Hex
>>> doc = EditorDocument.new(5, 4)
>>> before = doc.map.to_text()
>>> _ = doc.execute(paint_terrain([Hex.from_label("B02"), Hex.from_label("C02")], "woods"))
>>> doc.map.terrain_at(Hex.from_label("C02")).key
'woods'
>>> doc.undo() and doc.map.to_text() == before
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..model.hexgrid import Hex
from ..model.maps import BattleMap, MapError
from .hexstate import HexState, MapTransaction, write_states

if TYPE_CHECKING:  # pragma: no cover
    from .scenario_draft import ScenarioDraft

__all__ = [
    "Change",
    "Command",
    "CommandStack",
    "EditedDocument",
    "MapEdit",
    "MapProperties",
    "NothingToDo",
    "ReplaceMap",
    "ScenarioEdit",
    "Stroke",
    "change_level",
    "clear_hexes",
    "flood_fill",
    "paint_terrain",
    "paste_states",
    "place_wreck",
    "remove_wreck",
    "resize",
    "set_fire",
    "set_level",
    "set_road",
    "set_rubble",
]


class EditedDocument(Protocol):
    """What a command changes of the document it is applied to (``map``: the BattleMap, which a
    resize replaces; ``scenario``: the ScenarioDraft or ``None``; ``path``: the file Save writes).

    :class:`hexwar.editor.model.EditorDocument` satisfies it structurally; the commands never
    import the document, so the two modules do not import each other (issue 34).
    """

    map: BattleMap
    scenario: ScenarioDraft | None
    path: Path | None


#: An operation of a :class:`MapEdit`: change the map through its methods, calling
#: ``tx.touch(h)`` before changing hex ``h``.
MapOp = Callable[[BattleMap, MapTransaction], None]


class NothingToDo(MapError):
    """An edit that would change nothing (painting woods on woods); nothing is recorded."""


@dataclass(frozen=True)
class Change:
    """What a command changed, for views to redraw.

    Attributes:
        hexes: hexes whose state changed (empty for whole-map or scenario-only changes).
        whole_map: the map was replaced (new size) or its properties changed.
        scenario: the scenario data changed.
    """

    hexes: frozenset[Hex] = frozenset()
    whole_map: bool = False
    scenario: bool = False


class Command:
    """One undoable edit. Subclasses set :attr:`name` (shown as "Undo <name>")."""

    name: str = "edit"

    def apply(self, doc: EditedDocument) -> Change:
        """Do (or redo) the edit on ``doc``; raise ``MapError`` and change nothing if invalid."""
        raise NotImplementedError

    def undo(self, doc: EditedDocument) -> Change:
        """Return ``doc`` to exactly the state before :meth:`apply`."""
        raise NotImplementedError


class MapEdit(Command):
    """A patch of hexes: the first :meth:`apply` runs ``op``; later ones replay the recorded states.

    Args:
        name: what the edit did ("Paint woods").
        op: the operation (see :data:`MapOp`); or ``None`` with ``changes`` given.
        changes: ``hex -> (before, after)`` states of an edit already applied (a stroke).
    """

    def __init__(
        self,
        name: str,
        op: MapOp | None = None,
        changes: Mapping[Hex, tuple[HexState, HexState]] | None = None,
    ) -> None:
        if (op is None) == (changes is None):
            raise ValueError("MapEdit needs exactly one of op and changes")
        self.name = name
        self._op = op
        self.changes: dict[Hex, tuple[HexState, HexState]] | None = (
            dict(changes) if changes is not None else None
        )

    def apply(self, doc: EditedDocument) -> Change:
        """Run the operation atomically (first time) or write the recorded after-states.

        Raises:
            MapError: the map's refusal (nothing changed); :class:`NothingToDo` when the
                operation changed no hex.
        """
        m = doc.map
        if self.changes is None:
            assert self._op is not None
            tx = MapTransaction(m)
            try:
                self._op(m, tx)
            except MapError:
                tx.rollback()
                raise
            changes = tx.changes()
            if not changes:
                raise NothingToDo(f"{self.name}: nothing to change")
            self.changes = changes
            self._op = None
        else:
            write_states(m, {h: ab[1] for h, ab in self.changes.items()})
        return Change(hexes=frozenset(self.changes))

    def undo(self, doc: EditedDocument) -> Change:
        """Write every touched hex's before-state back."""
        assert self.changes is not None, "undo before apply"
        write_states(doc.map, {h: ab[0] for h, ab in self.changes.items()})
        return Change(hexes=frozenset(self.changes))


class ReplaceMap(Command):
    """Swap the whole map (resize, new size) and, in scenario mode, the scenario data with it.

    Args:
        name: e.g. ``"Resize to 32x20"``.
        after: the new map (the command keeps it; the old one is kept for undo).
        scenario_after: the scenario with its hexes moved (``None`` to leave the scenario alone).
    """

    def __init__(self, name: str, after: BattleMap, scenario_after: ScenarioDraft | None = None) -> None:
        self.name = name
        self.after = after
        self.before: BattleMap | None = None
        self.scenario_after = scenario_after
        self.scenario_before: ScenarioDraft | None = None

    def apply(self, doc: EditedDocument) -> Change:
        """Install the new map (and scenario)."""
        self.before = doc.map
        doc.map = self.after
        if self.scenario_after is not None:
            self.scenario_before = doc.scenario
            doc.scenario = self.scenario_after
        return Change(whole_map=True, scenario=self.scenario_after is not None)

    def undo(self, doc: EditedDocument) -> Change:
        """Put the old map (and scenario) back."""
        assert self.before is not None
        doc.map = self.before
        if self.scenario_after is not None:
            doc.scenario = self.scenario_before
        return Change(whole_map=True, scenario=self.scenario_after is not None)


class MapProperties(Command):
    """Change the map's name and/or description (text shown to players, never interpreted)."""

    def __init__(self, name: str | None = None, description: str | None = None) -> None:
        self.new = (name, description)
        self.old: tuple[str, str] | None = None
        self.name = "Map properties"

    def apply(self, doc: EditedDocument) -> Change:
        """Set the new texts.

        Raises:
            MapError: an empty or over-long name, or a description over 4000 characters.
        """
        n, d = self.new
        if n is not None and not (1 <= len(n.strip()) <= 120):
            raise MapError("map name must be 1..120 characters")
        if d is not None and len(d) > 4000:
            raise MapError("map description must be at most 4000 characters")
        m = doc.map
        self.old = (m.name, m.description)
        if n is not None:
            m.name = n.strip()
        if d is not None:
            m.description = d
        m.version += 1
        return Change(whole_map=True)

    def undo(self, doc: EditedDocument) -> Change:
        """Restore the old texts."""
        assert self.old is not None
        doc.map.name, doc.map.description = self.old
        doc.map.version += 1
        return Change(whole_map=True)


class ScenarioEdit(Command):
    """Replace the scenario data with ``after`` (validated against the map first).

    Args:
        name: what changed ("Deploy zone german +7").
        after: the new immutable scenario draft.
    """

    def __init__(self, name: str, after: ScenarioDraft) -> None:
        self.name = name
        self.after = after
        self.before: ScenarioDraft | None = None

    def apply(self, doc: EditedDocument) -> Change:
        """Validate ``after`` against the map and install it.

        Raises:
            MapError: no scenario is being edited, or ``after`` names a hex off the map or an
                invalid setting (the scenario stays as it was).
        """
        if doc.scenario is None:
            raise MapError("this document is a map, not a scenario: open or create a scenario first")
        self.after.check(doc.map)
        if self.after == doc.scenario:
            raise NothingToDo(f"{self.name}: nothing to change")
        self.before = doc.scenario
        doc.scenario = self.after
        return Change(scenario=True)

    def undo(self, doc: EditedDocument) -> Change:
        """Put the old scenario back."""
        doc.scenario = self.before
        return Change(scenario=True)


@dataclass
class CommandStack:
    """Undo and redo history with a clean (saved) marker for dirty tracking.

    Attributes:
        limit: at most this many undo steps are kept (the oldest are dropped).
        done: applied commands, oldest first.
        undone: undone commands, the next redo last.
    """

    limit: int = 500
    done: list[Command] = field(default_factory=list)
    undone: list[Command] = field(default_factory=list)
    _dropped: int = 0
    _clean: int | None = 0

    @property
    def position(self) -> int:
        """Number of commands applied since the document was opened (counting dropped ones)."""
        return self._dropped + len(self.done)

    def push(self, cmd: Command) -> None:
        """Record an applied command; clears the redo list."""
        if self._clean is not None and self._clean > self.position:
            self._clean = None  # the saved state lay in the redo branch we are discarding
        self.done.append(cmd)
        self.undone.clear()
        while len(self.done) > self.limit:
            self.done.pop(0)
            self._dropped += 1

    def can_undo(self) -> bool:
        """True when there is a command to undo."""
        return bool(self.done)

    def can_redo(self) -> bool:
        """True when there is a command to redo."""
        return bool(self.undone)

    def mark_clean(self) -> None:
        """The document now equals its file (just saved or opened)."""
        self._clean = self.position

    def is_clean(self) -> bool:
        """True when the document equals its file (after undo/redo back to the saved point too)."""
        return self._clean == self.position

    def clear(self) -> None:
        """Forget all history (a new document); the state counts as clean."""
        self.done.clear()
        self.undone.clear()
        self._dropped = 0
        self._clean = 0


class _NestedTransaction(MapTransaction):
    """A transaction inside another: records its own before-states and the outer one's."""

    def __init__(self, outer: MapTransaction) -> None:
        super().__init__(outer.map)
        self.outer = outer

    def touch(self, h: Hex) -> None:
        """Record ``h`` here and in the outer transaction (``MapError`` off the map)."""
        super().touch(h)
        self.outer.touch(h)


class Stroke:
    """Many small map edits (a drag of the brush) that undo as one step.

    Each :meth:`add` runs an operation atomically on its own: if the map refuses it, only that
    operation is rolled back and the error is returned. :meth:`finish` turns everything the
    stroke changed into one :class:`MapEdit` (already applied).
    """

    def __init__(self, doc: EditedDocument, name: str) -> None:
        """Begin a stroke named ``name`` on ``doc``'s current map."""
        self.doc = doc
        self.name = name
        self.tx = MapTransaction(doc.map)
        self.touched: set[Hex] = set()

    def add(self, op: MapOp) -> MapError | None:
        """Apply one operation of the stroke; return the map's refusal (then undone) or ``None``."""
        if self.doc.map is not self.tx.map:
            return MapError("the map was replaced during the stroke")
        outer = self.tx
        n = len(outer._order)
        dab = _NestedTransaction(outer)
        try:
            op(self.doc.map, dab)
        except MapError as exc:
            dab.rollback()  # only this operation's hexes (cost: the hexes it touched)
            for h in outer._order[n:]:
                del outer.before[h]
            del outer._order[n:]
            return exc
        self.touched.update(outer._order[n:])
        return None

    def cancel(self) -> None:
        """Undo the whole stroke (Esc during a drag)."""
        self.tx.rollback()

    def finish(self) -> MapEdit | None:
        """The stroke as one command, or ``None`` when it changed nothing."""
        ch = self.tx.changes()
        return MapEdit(self.name, changes=ch) if ch else None


# ---------------------------------------------------------------------------------------------
# Factories of map edits. Each is strict: every listed hex must take the change, or nothing
# changes. Tools (hexwar.editor.tools) choose the eligible hexes of a brush beforehand.
# ---------------------------------------------------------------------------------------------


def _uniq(hexes: Iterable[Hex]) -> list[Hex]:
    return list(dict.fromkeys(hexes))


def terrain_op(hexes: Iterable[Hex], key: str) -> MapOp:
    """Operation: set the base terrain of ``hexes`` to ``key`` (R2.4, R2.5)."""
    hs = _uniq(hexes)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch_all(hs)
        for h in hs:
            m.set_terrain(h, key)

    return op


def paint_terrain(hexes: Iterable[Hex], key: str, name: str | None = None) -> MapEdit:
    """Paint terrain type ``key`` (``"woods"``, ``"stone_building"`` ...) on ``hexes``.

    Raises (on apply):
        MapError: a hex off the map or an unknown terrain key.
    """
    return MapEdit(name or f"Paint {key}", terrain_op(hexes, key))


def flood_fill(region: Iterable[Hex], key: str) -> MapEdit:
    """Fill a region (from :func:`hexwar.editor.tools.flood_region`) with terrain ``key``."""
    return MapEdit(f"Fill {key}", terrain_op(region, key))


def level_op(hexes: Iterable[Hex], level: int | None = None, delta: int = 0) -> MapOp:
    """Operation: set ground level to ``level``, or add ``delta`` levels (R2.4, R3.4)."""
    hs = _uniq(hexes)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch_all(hs)
        for h in hs:
            m.set_level(h, level if level is not None else m.level_at(h) + delta)

    return op


def set_level(hexes: Iterable[Hex], level: int) -> MapEdit:
    """Set the ground level of ``hexes`` to ``level`` (0..9; MapError otherwise)."""
    return MapEdit(f"Level {level}", level_op(hexes, level=level))


def change_level(hexes: Iterable[Hex], delta: int) -> MapEdit:
    """Raise (``delta`` > 0) or lower the ground of ``hexes`` by ``delta`` levels.

    Raises (on apply):
        MapError: a hex would leave 0..9 (nothing changes).
    """
    return MapEdit("Raise ground" if delta > 0 else "Lower ground", level_op(hexes, delta=delta))


def road_op(hexes: Iterable[Hex], on: bool) -> MapOp:
    """Operation: put roads through ``hexes`` (or take them away), R2.4.

    A road drawn across water builds a bridge: the water hex becomes road terrain
    (docs/rules.md: a bridge is road terrain; a road flag on water is refused by the map).
    """
    hs = _uniq(hexes)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch_all(hs)
        for h in hs:
            t = m.terrain_at(h)
            if on and t.move and all(v == float("inf") for v in t.move.values()):
                m.set_terrain(h, "road")  # the bridge
            else:
                m.set_road(h, on)

    return op


def set_road(hexes: Iterable[Hex], on: bool = True) -> MapEdit:
    """Roads on (or off) ``hexes``."""
    return MapEdit("Road" if on else "Remove road", road_op(hexes, on))


def wreck_op(h: Hex, wreck_id: str | None, remove: bool = False) -> MapOp:
    """Operation: put wreck counter ``wreck_id`` on ``h``'s stack, or remove it / the top one (R8.1)."""

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch(h)
        if remove:
            m.remove_wreck(h, wreck_id)
        else:
            assert wreck_id is not None
            m.add_wreck(h, wreck_id)

    return op


def place_wreck(h: Hex, wreck_id: str) -> MapEdit:
    """Put wreck counter ``wreck_id`` (``"su-1"``) on top of ``h``'s wreck stack (R8.1).

    Raises (on apply):
        MapError: off-map hex or an unknown wreck id.
    """
    return MapEdit(f"Wreck {wreck_id}", wreck_op(h, wreck_id))


def remove_wreck(h: Hex, wreck_id: str | None = None) -> MapEdit:
    """Remove the top wreck (or the named one) from ``h`` (MapError when there is none)."""
    return MapEdit("Remove wreck", wreck_op(h, wreck_id, remove=True))


def rubble_op(hexes: Iterable[Hex], on: bool) -> MapOp:
    """Operation: rubble on (R8.3: needs a building, puts out fire) or off ``hexes``."""
    hs = _uniq(hexes)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch_all(hs)
        for h in hs:
            m.set_rubble(h, on)

    return op


def set_rubble(hexes: Iterable[Hex], on: bool = True) -> MapEdit:
    """Reduce the buildings of ``hexes`` to rubble (R8.3), or restore them."""
    return MapEdit("Rubble" if on else "Remove rubble", rubble_op(hexes, on))


def fire_op(hexes: Iterable[Hex], on: bool) -> MapOp:
    """Operation: building fire on (R8.4: needs an intact building) or off ``hexes``."""
    hs = _uniq(hexes)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch_all(hs)
        for h in hs:
            m.set_fire(h, on)

    return op


def set_fire(hexes: Iterable[Hex], on: bool = True) -> MapEdit:
    """Set building fires burning in ``hexes`` (R8.4), or put them out."""
    return MapEdit("Fire" if on else "Put out fire", fire_op(hexes, on))


def states_op(states: Mapping[Hex, HexState]) -> MapOp:
    """Operation: write whole hex states (paste)."""
    items = dict(states)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        tx.touch_all(items)
        for h, st in items.items():
            st.write(m, h)

    return op


def paste_states(states: Mapping[Hex, HexState], name: str = "Paste") -> MapEdit:
    """Write copied hex states (already placed, rotated, flipped and clipped) onto the map."""
    return MapEdit(name, states_op(states))


def clear_hexes(hexes: Sequence[Hex] | Iterable[Hex], fill: str = "clear") -> MapEdit:
    """Reset ``hexes`` to bare ``fill`` terrain at level 0 (Delete on a selection)."""
    hs = _uniq(hexes)

    def op(m: BattleMap, tx: MapTransaction) -> None:
        blank = HexState(terrain=m.rules.index_of_key(fill) if fill in {t.key for t in m.rules.types} else -1)
        tx.touch_all(hs)
        for h in hs:
            blank.write(m, h)

    return MapEdit("Delete", op)


def resize(
    doc: EditedDocument, left: int = 0, right: int = 0, top: int = 0, bottom: int = 0, fill: str = "clear"
) -> ReplaceMap:
    """A command that adds (positive) or trims (negative) columns and rows on each side.

    The content moves by an exact grid translation, so an odd number of columns on the left
    adds one row (see :mod:`hexwar.editor.tools`); scenario hexes move along, and those that
    fall off the map are dropped (and come back on undo).

    Raises:
        MapError: a side would leave 1..500 hexes, nothing would change, or unknown ``fill``.
    """
    from .tools import resized_map

    if not (left or right or top or bottom):
        raise NothingToDo("resize: nothing to change")
    new, t = resized_map(doc.map, left, right, top, bottom, fill)
    sc = doc.scenario.translated(t, new) if doc.scenario is not None else None  # type: ignore[attr-defined]
    return ReplaceMap(f"Resize to {new.width}x{new.height}", new, sc)


def describe(cmd: Command | None) -> str:
    """The command's name for menus ("Paint woods"), or ``""``."""
    return cmd.name if cmd is not None else ""
