"""The editor session's scenario edits: deploy zones, objectives and starting units placed by
the tools, the scenario's settings, variants and Event cards, its typed fields, areas, decks
and artillery (R5.2, R9.1, R9.3, R10.2, R11.3).

A mixin of :class:`hexwar.editor.session.EditorSession`: every change is one undoable
:class:`~hexwar.editor.commands.ScenarioEdit` of the immutable
:class:`~hexwar.editor.scenario_draft.ScenarioDraft` (issue 34: cut from ``session.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import HexwarError
from ..model.hexgrid import Hex
from . import commands as C
from .scenario_draft import SIDES, VARIANTS, ArtilleryDraft, ObjectiveDraft, UnitPlacement
from .tool_host import LEFT

__all__ = ["ScenarioEditsMixin"]


class ScenarioEditsMixin:
    """The scenario half of :class:`~hexwar.editor.session.EditorSession` (see module doc)."""

    doc: Any
    side: str
    objective: Hex | None
    selection: set[Hex]
    status: str
    status_error: bool
    say: Callable[..., None]
    _run: Callable[[Callable[[], C.Command]], bool]
    current_unit: Callable[[], tuple[str, str, str | None] | None]

    def _scenario_edit(self, name: str, after: Any) -> bool:
        return self._run(lambda: C.ScenarioEdit(name, after))

    def _deploy_paint(self, region: set[Hex], add: bool) -> None:
        sc = self.doc.scenario
        if sc is None or not region:
            return
        mine = set(sc.deploy_of(self.side))  # type: ignore[attr-defined]
        other_side = SIDES[1 - SIDES.index(self.side)]
        other = set(sc.deploy_of(other_side))  # type: ignore[attr-defined]
        if add:
            after = sc.with_deploy(self.side, mine | region).with_deploy(other_side, other - region)  # type: ignore[attr-defined]
            name = f"Deploy zone {self.side} +{len(region - mine)}"
        else:
            after = sc.with_deploy(self.side, mine - region)  # type: ignore[attr-defined]
            name = f"Deploy zone {self.side} -{len(region & mine)}"
        self._scenario_edit(name, after)

    def _objective_click(self, h: Hex, button: int) -> None:
        sc = self.doc.scenario
        if sc is None:
            return
        objs = list(sc.objectives)  # type: ignore[attr-defined]
        cur = sc.objective_at(h)  # type: ignore[attr-defined]
        label = self.doc.map.label(h)
        self.objective = h
        if button == LEFT:
            if cur is None:
                objs.append(ObjectiveDraft(h, name=label, points=0))
                name = f"Objective {label}"
            else:
                objs = [
                    ObjectiveDraft(o.hex, o.name, o.points + 5, o.holder) if o.hex == h else o for o in objs
                ]
                name = f"Objective {label} {cur.points + 5} pts"
        else:
            if cur is None:
                self.say(f"{label} is no objective", error=True)
                return
            if cur.points <= 0:
                objs = [o for o in objs if o.hex != h]
                name = f"Remove objective {label}"
            else:
                objs = [
                    ObjectiveDraft(o.hex, o.name, max(0, o.points - 5), o.holder) if o.hex == h else o
                    for o in objs
                ]
                name = f"Objective {label} {max(0, cur.points - 5)} pts"
        self._scenario_edit(name, sc.with_objectives(objs))  # type: ignore[attr-defined]

    def _unit_click(self, h: Hex, button: int) -> None:
        sc = self.doc.scenario
        if sc is None:
            return
        units = list(sc.units)  # type: ignore[attr-defined]
        label = self.doc.map.label(h)
        if button == LEFT:
            u = self.current_unit()
            if u is None:
                self.say("No unit cards available to place", error=True)
                return
            units.append(UnitPlacement(self.side, u[0], h, u[2]))
            name = f"Unit {u[1]} in {label}"
        else:
            idx = [i for i, x in enumerate(units) if x.hex == h]
            if not idx:
                self.say(f"{label} holds no starting unit", error=True)
                return
            gone = units.pop(idx[-1])
            name = f"Remove {gone.card} from {label}"
        self._scenario_edit(name, sc.with_units(units))  # type: ignore[attr-defined]

    def adjust_setting(self, field: str, delta: int) -> None:
        """Change a number setting of the scenario by ``delta``: ``"turns"``,
        ``"victory_points"``, ``"missions"`` or ``"hit_on"`` (the current side's artillery)."""
        sc = self.doc.scenario
        if sc is None:
            self.say("Settings belong to a scenario", error=True)
            return
        if field in ("turns", "victory_points"):
            v = getattr(sc, field) + delta
            self._scenario_edit(f"{field.replace('_', ' ').capitalize()} {v}", sc.with_settings(**{field: v}))  # type: ignore[attr-defined]
            return
        art = sc.artillery_of(self.side)  # type: ignore[attr-defined]
        if field == "missions":
            if art is None:
                other = sc.artillery_of(SIDES[1 - SIDES.index(self.side)])  # type: ignore[attr-defined]
                if other is None:
                    self.say(
                        "Give one side's artillery weapon in the scenario file first "
                        "(name, attack values, Damage Index: R9.1)",
                        error=True,
                    )
                    return
                art = ArtilleryDraft(0, other.weapon_json)
            new = ArtilleryDraft(art.missions + delta, art.weapon_json, art.per_turn, art.hit_on)
            self._scenario_edit(
                f"Artillery {self.side} {new.missions} missions", sc.with_artillery(self.side, new)
            )  # type: ignore[attr-defined]
        elif field == "hit_on":
            if art is None:
                self.say(f"{self.side} has no artillery", error=True)
                return
            from ..rules.terrain_effects import default_effects

            base = art.hit_on if art.hit_on is not None else default_effects().side_hit_on(self.side)
            new = ArtilleryDraft(art.missions, art.weapon_json, art.per_turn, base + delta)
            self._scenario_edit(
                f"Artillery {self.side} hits on {base + delta}+", sc.with_artillery(self.side, new)
            )  # type: ignore[attr-defined]
        else:
            raise HexwarError(f"unknown setting {field!r}")

    def toggle_variant(self, variant: str) -> None:
        """Switch rule variant ``variant`` (``classic``, ``burnout``; R11.3) on or off."""
        sc = self.doc.scenario
        if sc is None or variant not in VARIANTS:
            return
        vs = list(sc.variants)  # type: ignore[attr-defined]
        if variant in vs:
            vs.remove(variant)
        else:
            vs.append(variant)
        self._scenario_edit(
            f"Variant {variant} {'on' if variant in vs else 'off'}", sc.with_settings(variants=vs)
        )  # type: ignore[attr-defined]

    def toggle_event(self, event_id: str) -> None:
        """Shuffle Event card ``event_id`` into the Command deck, or take it out (R4.3)."""
        sc = self.doc.scenario
        if sc is None:
            return
        ev = list(sc.events)  # type: ignore[attr-defined]
        if event_id in ev:
            ev.remove(event_id)
        else:
            ev.append(event_id)
        self._scenario_edit(
            f"Event {event_id} {'in' if event_id in ev else 'out'}", sc.with_settings(events=ev)
        )  # type: ignore[attr-defined]

    # -- typed scenario fields (hexwar.editor.scenario_fields) ------------------------------
    def set_field(self, field: str, text: str) -> str | None:
        """Apply typed ``text`` to scenario field ``field`` (:data:`~hexwar.editor.scenario_fields.FIELDS`):
        ``budget`` and ``hand_size`` of the current side, ``objective_name`` / ``objective_points``
        of the chosen objective (:attr:`objective`), ``area_name`` (a new area of the selected
        hexes), ``weapon`` (the side's artillery weapon, R9.1), ``name``, ``id``, ``description``.

        Returns: ``None`` when applied, else the problem (also shown in the status bar).
        """
        from .scenario_fields import parse_field

        sc = self.doc.scenario
        if sc is None:
            return self._refuse("Fields belong to a scenario")
        try:
            v = parse_field(field, text)
        except ValueError as exc:
            return self._refuse(str(exc))
        side = self.side
        if field in ("name", "id", "description"):
            ok = self._scenario_edit(f"Scenario {field}", sc.with_settings(**{field: v}))  # type: ignore[attr-defined]
        elif field in ("budget", "hand_size"):
            after = sc.with_rest(("sides", side, field), v)  # type: ignore[attr-defined]
            if field == "budget" and v is not None:
                after = after.with_rest(("sides", side, "reserves"), None).with_rest(
                    ("sides", side, "hand"), None
                )
            ok = self._scenario_edit(f"{side} {field} {v if v is not None else 'none'}", after)
        elif field in ("objective_name", "objective_points"):
            o = sc.objective_at(self.objective) if self.objective is not None else None  # type: ignore[attr-defined]
            if o is None:
                return self._refuse("Choose an objective first (G tool, click its hex)")
            new = replace(o, name=v) if field == "objective_name" else replace(o, points=v)
            ok = self._scenario_edit(
                f"Objective {self.doc.map.label(o.hex)} {field[10:]} {v}",
                sc.with_objectives([new if x.hex == o.hex else x for x in sc.objectives]),
            )  # type: ignore[attr-defined]
        elif field == "area_name":
            if not self.selection:
                return self._refuse("Select the area's hexes first (M or W tool)")
            from .scenario_draft import zone_specs

            specs = [z.replace(":", "..") for z in zone_specs(self.selection)]
            ok = self._scenario_edit(
                f"Area {v} ({len(self.selection)} hexes)", sc.with_rest(("areas", v), specs)
            )  # type: ignore[attr-defined]
        else:  # weapon
            art = sc.artillery_of(side)  # type: ignore[attr-defined]
            new_art = ArtilleryDraft(
                art.missions if art else 0,
                json.dumps(v, sort_keys=True),
                art.per_turn if art else 1,
                art.hit_on if art else None,
            )
            ok = self._scenario_edit(f"Artillery {side}: {v['name']}", sc.with_artillery(side, new_art))  # type: ignore[attr-defined]
        return None if ok else (self.status if self.status_error else None)

    def _refuse(self, text: str) -> str:
        self.say(text, error=True)
        return text

    def set_weapon_profile(self, weapon_json: str) -> None:
        """Give the current side's artillery the weapon ``weapon_json`` (a profile, R9.1)."""
        from .scenario_fields import weapon_text

        self.set_field("weapon", weapon_text(json.loads(weapon_json)))

    def cycle_holder(self) -> None:
        """The chosen objective's starting holder: none -> german -> soviet -> none (R10.2)."""
        sc = self.doc.scenario
        o = sc.objective_at(self.objective) if sc is not None and self.objective is not None else None  # type: ignore[attr-defined]
        if sc is None or o is None:
            self._refuse("Choose an objective first (G tool, click its hex)")
            return
        order = [None, *SIDES]
        h = order[(order.index(o.holder) + 1) % len(order)]
        new = replace(o, holder=h)
        self._scenario_edit(
            f"Objective {self.doc.map.label(o.hex)} held by {h or 'nobody'}",
            sc.with_objectives([new if x.hex == o.hex else x for x in sc.objectives]),
        )  # type: ignore[attr-defined]

    def remove_area(self, name: str) -> None:
        """Take area ``name`` out of the scenario's ``[areas]`` table."""
        sc = self.doc.scenario
        if sc is not None and name in sc.areas():  # type: ignore[attr-defined]
            self._scenario_edit(f"Remove area {name}", sc.with_rest(("areas", name), None))  # type: ignore[attr-defined]

    def add_card(self, target: str, card_id: str) -> None:
        """Put unit card ``card_id`` into the current side's ``reserves`` or starting ``hand``
        (a hand card is also added to the Reserves when they hold no spare copy; R5.2). A
        fixed deck replaces the side's budget."""
        sc = self.doc.scenario
        if sc is None:
            return
        side = self.side
        res = list(sc.rest_value("sides", side, "reserves") or [])  # type: ignore[attr-defined]
        hand = list(sc.rest_value("sides", side, "hand") or [])  # type: ignore[attr-defined]
        if target == "hand":
            if res.count(card_id) <= hand.count(card_id):
                res.append(card_id)
            hand.append(card_id)
        else:
            res.append(card_id)
        after = sc.with_rest(("sides", side, "budget"), None).with_rest(("sides", side, "reserves"), res)  # type: ignore[attr-defined]
        after = after.with_rest(("sides", side, "hand"), hand or None)
        self._scenario_edit(f"{side} {target} + {card_id}", after)

    def remove_card(self, target: str, index: int) -> None:
        """Take entry ``index`` out of the current side's ``reserves`` or ``hand`` (a Reserves
        card the hand still needs goes from the hand too)."""
        sc = self.doc.scenario
        if sc is None:
            return
        side = self.side
        res = list(sc.rest_value("sides", side, "reserves") or [])  # type: ignore[attr-defined]
        hand = list(sc.rest_value("sides", side, "hand") or [])  # type: ignore[attr-defined]
        lst = hand if target == "hand" else res
        if not 0 <= index < len(lst):
            return
        gone = lst.pop(index)
        if target == "reserves" and hand.count(gone) > res.count(gone):
            hand.remove(gone)
        after = sc.with_rest(("sides", side, "reserves"), res or None).with_rest(
            ("sides", side, "hand"), hand or None
        )  # type: ignore[attr-defined]
        self._scenario_edit(f"{side} {target} - {gone}", after)

    def adjust_per_turn(self, delta: int) -> None:
        """Missions the current side's artillery may fire a turn, 1..10 (R9.3)."""
        sc = self.doc.scenario
        art = sc.artillery_of(self.side) if sc is not None else None  # type: ignore[attr-defined]
        if sc is None or art is None:
            self._refuse(f"{self.side} has no artillery: choose a weapon first")
            return
        n = art.per_turn + delta
        if not 1 <= n <= 10:
            self._refuse(f"missions per turn: expected 1..10, got {n}")
            return
        self._scenario_edit(
            f"Artillery {self.side} {n} a turn", sc.with_artillery(self.side, replace(art, per_turn=n))
        )  # type: ignore[attr-defined]
