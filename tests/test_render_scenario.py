"""``hexwar render SCENARIO`` draws the scenario's regions (issue 23): deploy zones, named
areas, objectives and artillery targets, at a default size where hex labels show."""

from __future__ import annotations

from hexwar.cli.render import AUTO_HEX_SIZE, auto_size
from hexwar.game.scenario import load_scenario
from hexwar.model.hexgrid import Hex
from hexwar.paths import find_content
from hexwar.render.gamescene import scenario_overlays
from hexwar.render.regions import TargetOverlay, ZoneOverlay


def test_scenario_render_overlays_are_both_deploy_zones_its_areas_objectives_and_targets():
    sc = load_scenario(find_content("scenarios", "skirmish"))
    ovs = dict(scenario_overlays(sc, targets=[Hex.from_label("N06")]))
    assert {"deploy-german", "deploy-soviet", "objectives", "targets"} <= set(ovs)
    assert set(ovs["deploy-german"].hexes) == set(sc.sides["german"].deploy)
    for name, hexes in sc.areas.items():
        if len(hexes) > 1:
            assert isinstance(ovs[f"area:{name}"], ZoneOverlay) and set(ovs[f"area:{name}"].hexes) == set(
                hexes
            )
    assert sorted(ovs["objectives"].objectives) == sorted((o.hex, o.points) for o in sc.objectives)
    assert isinstance(ovs["targets"], TargetOverlay) and tuple(ovs["targets"].hexes) == (
        Hex.from_label("N06"),
    )


def test_auto_render_size_gives_each_hex_32_points_from_centre_to_corner():
    # flat-top: columns 1.5 sizes apart plus half a hex; rows sqrt(3) sizes plus the stagger
    assert AUTO_HEX_SIZE == 32.0
    assert auto_size(30, 24) == (int(45.5 * 32 + 32), int(3**0.5 * 24.5 * 32 + 44))
    assert auto_size(4, 4) == (640, 640)  # never smaller than 640 points
