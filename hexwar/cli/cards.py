"""``hexwar cards``: list the unit cards (R4.1) by side, or show one card's help text;
``--events``, ``--command`` and ``--damage`` list the Event, Command and Damage cards (R4.3).

The names and ids printed here are what ``hexwar odds`` and scenario files take (an Event id
goes into a scenario's ``events`` list). Every text is generated from the card data.
"""

from __future__ import annotations

from typing import Any

import click

from ..rules.cards import default_cards
from . import echo_json

__all__ = ["cards"]


@click.command()
@click.argument("name", required=False)
@click.option("--side", type=click.Choice(["german", "soviet"]), default=None, help="Only this side's cards.")
@click.option("--crews/--no-crews", default=False, show_default=True, help="Include crew cards.")
@click.option(
    "--events", "kind", flag_value="events", help="List the Event cards (ids for a scenario's events)."
)
@click.option(
    "--command", "kind", flag_value="command", help="List the Command cards with their copies in the deck."
)
@click.option(
    "--damage", "kind", flag_value="damage", help="List the Damage cards, one effect per unit type."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def cards(name: str | None, side: str | None, crews: bool, kind: str | None, as_json: bool) -> None:
    """List the unit cards (id, name, type, Defense, Endurance, cost, weapons), or show card NAME."""
    cs = default_cards()
    if kind is not None:
        if name:
            raise click.UsageError(f"--{kind} lists every card of that kind; leave out NAME ({name[:40]!r})")
        _list_other(cs, kind, as_json)
        return
    if name:
        card = cs.find_unit(name, side)  # CardError (a HexwarError) names what did not match
        if as_json:
            echo_json({"id": card.id, "name": card.name, "side": card.side, "help": card.help_text(cs)})
        else:
            click.echo(f"{card.id}  {card.name} ({card.side})")
            click.echo(card.help_text(cs))
        return
    rows: list[dict[str, Any]] = []
    for s in [side] if side else ["german", "soviet"]:
        for u in cs.side_units(s, crews=crews):
            rows.append(
                {
                    "id": u.id,
                    "name": u.name,
                    "side": u.side,
                    "type": u.unit_type,
                    "defense": u.defense,
                    "endurance": [u.endurance_full, u.endurance_half],
                    "cost": u.cost,
                    "weapons": [w.name for w in u.weapons],
                }
            )
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        weapons = "; ".join(f"{i}. {w}" for i, w in enumerate(r["weapons"], 1))
        click.echo(
            f"{r['id']:<26} {r['name']:<28} {r['type']:<15} D{r['defense']:<2} "
            f"E{r['endurance'][0]}/{r['endurance'][1]:<3} {r['cost']:>2} VP  {weapons}"
        )


def _list_other(cs: Any, kind: str, as_json: bool) -> None:
    """Print the Event, Command or Damage cards (R4.3) with the help text generated from their data."""
    if kind == "events":
        rows = [
            {"id": e.id, "title": e.title, "turns": e.turns, "help": e.help_text(cs.rules)}
            for e in sorted(cs.events.values(), key=lambda e: e.id)
        ]
    elif kind == "command":
        rows = [
            {
                "id": c.id,
                "title": c.title,
                "copies": c.copies,
                "phase": c.phase,
                "help": c.help_text(cs.rules),
            }
            for c in sorted(cs.command.values(), key=lambda c: c.id)
        ]
    else:
        rows = [
            {"id": d.id, "help": d.help_text(cs.rules)}
            for d in sorted(cs.damage.values(), key=lambda d: d.id)
        ]
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        head = r["id"] + (f"  {r['title']}" if "title" in r else "")
        if kind == "command":
            head += f"  ({r['copies']} in the deck, {r['phase']} phase)"
        elif kind == "events" and r["turns"] is not None:
            head += f"  ({r['turns']} turn{'s' if r['turns'] != 1 else ''})"
        click.echo(head)
        for line in str(r["help"]).splitlines():
            click.echo(f"    {line}")
