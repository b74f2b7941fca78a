#!/usr/bin/env python3
"""Build hexwar's shipped battle maps (``maps/*.json``) from hand-authored layouts.

The shipped maps are generated, never edited by hand: each map is a function below that draws
its place through the :class:`~hexwar.model.maps.BattleMap` API (``set_terrain``, ``set_level``,
``set_road``, ``set_rubble``) with a small drawing kit (:class:`MapBuilder`): smooth curves
through hex labels for rivers and roads, bands of a given width, rectangles, polygons,
ellipses, street blocks, villages strung along a road, and a ground-level field with hills,
ramps and carved valleys. Everything is deterministic: the only "randomness" is a hash of the
hex's offset and a text salt (:func:`noise`), so the same source always gives byte-identical
files.

Usage::

    python tools/build_maps.py             # rebuild every map in maps/ (atomic writes)
    python tools/build_maps.py kharkov     # rebuild one map
    python tools/build_maps.py --check     # exit 1 and name the stale files if maps/ differs
    python tools/build_maps.py --out DIR   # write (or --check) another folder

Conventions (R2): odd-q flat-topped hexes, columns ``A..``, rows ``01..``; points are given as
CoH labels (``"D07"``) or 0-based offset tuples ``(col, row)``. Internally positions are hex
centres in "hex units": neighbouring centres lie 1.0 apart, ``x = 0.866 * col``,
``y = row + 0.5`` on odd columns. Map decisions (R2.4): every ``'='`` road hex carries the road
flag and every road-flag hex has road terrain; a bridge is a road hex drawn across a river
(the water hex becomes road terrain), so movement needs no special bridge rule.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from hexwar.errors import HexwarError
from hexwar.mapkit import MapBuilder, Point, noise  # the drawing kit lives in the package
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap

__all__ = ["MAPS", "MapBuilder", "build", "check", "main", "noise", "write"]

ROOT = Path(__file__).resolve().parent.parent
MAPS_DIR = ROOT / "maps"


# =====================================================================================
# The maps. Each function draws one place; MAPS lists them by file name.
# =====================================================================================


def kharkov() -> BattleMap:
    """Kharkov, March 1943: the city centre between the Lopan and the Kharkov rivers.

    North is up. Dzerzhinsky Square with the reinforced Gosprom complex and the Party
    buildings at the top; Sumskaya street runs south through the stone centre to Tevelev
    Square; the Shevchenko Garden (woods) lies south-west of the square. The Lopan (west)
    and Kharkov (east) rivers meet at the bottom, with three bridges. Wooden suburbs on the
    Kholodnaya Gora heights (west), the factory quarter across the Kharkov river (east) and
    the South Station (south-west). Ground rises from the confluence (level 0) to the square
    (level 2-3).
    """
    b = MapBuilder(
        32,
        22,
        "Kharkov, March 1943",
        "Central Kharkov, 11-14 March 1943: the SS Panzer Corps fights down Sumskaya street to "
        "Dzerzhinsky Square while the Soviet garrison holds the stone blocks of the centre. "
        "Streets are the only fast lanes; every block of wood (DR13) and stone (DR14) buildings "
        "blocks LOS, so fire lanes run along the streets and across the squares. The reinforced "
        "Gosprom, Party and factory buildings (DR15) are the strongpoints. The Lopan and Kharkov "
        "rivers can be crossed only at the bridges. The centre stands on a rise (levels 2-3) "
        "that overlooks the river valleys; rubble from earlier fighting dots the blocks.",
    )
    lopan = ["D01", "E06", "G11", "J15", "M18", "P19"]
    kharkiv = ["AC01", "AB05", "Y10", "W14", "T17", "P19"]
    below = ["P19", "Q21", "Q24"]
    # ground: the plateau rises to the north; the rivers cut valleys; Kholodnaya Gora in the west
    b.ramp("P22", "P01", 0.8, 2.6)
    b.hill("A12", 2.7, 8.0, 11.0)
    b.hill("P02", 3.2, 6.0, 3.5)
    for river in (lopan, kharkiv, below):
        b.carve(river, 0.0, 0.8, 0.5)
    # the rivers: one hex wide and continuous, wider below the confluence
    b.paint(b.path(lopan), "~")
    b.paint(b.path(kharkiv), "~")
    b.paint(b.band(below, 1.6), "~")
    # squares and the park before the streets, so streets leave them whole
    b.square(b.rect(12, 1, 19, 3))  # Dzerzhinsky Square
    b.square(b.rect(14, 14, 16, 15))  # Tevelev Square
    park = b.polygon(["K05", "O06", "O10", "L11", "K08"])
    b.paint(park, "T")
    b.paint(b.ring_of(park), ",", over=".", chance=0.35, salt="park")
    b.road(["M04", "M07", "N09", "N12"])  # the garden's central alley
    # streets of the centre, then the avenues, bridges and suburban streets
    water = b.map.terrain == b.map.rules.index_of_code("~")
    west_bank = {r: max(c for c in range(16) if water[r, c]) for r in range(19)}
    east_bank = {r: min(c for c in range(14, 32) if water[r, c]) for r in range(19)}
    between = [
        h for h in b.rect(0, 4, 31, 18) if west_bank[h.offset[1]] < h.offset[0] < east_bank[h.offset[1]]
    ]
    b.street_grid(cols=(7, 11, 19, 23), rows=(5, 9, 13, 17), within=between)
    b.road(["P01", "P16"], smooth=False)  # Sumskaya street
    b.road(["P16", "T18", "Y19", "AF20"], bridges=1)  # Moskovsky prospekt over the Kharkov river bridge
    b.road(["O15", "K15", "E14", "A14"], bridges=1)  # Poltava road over the Lopan bridge
    b.road(["H09", "E08", "A08"], bridges=1)  # upper Lopan bridge to Kholodnaya Gora
    b.road(["T04", "Y02", (27, -1)])  # Pushkinskaya street north-east
    b.road([(11, -1), "L04", "T04"], smooth=False)  # Klochkovskaya street and the square's south side
    b.road(["E14", "G18", "H22"])  # down to the South Station
    b.road(["X05", "AB06", "AF08"], bridges=1)  # bridge east to the tractor plant road
    b.road(["AB06", "AB16", "Y19"], smooth=False)  # factory street along the east bank
    b.road(["B08", "B21"], smooth=False)  # Kholodnaya Gora main street
    b.road(["B04", "B08"], smooth=False)
    b.road(["G19", "K19", "K22"])  # south bank lane
    # the seats of power around the square (reinforced) and the stone centre
    gosprom = [h for h in b.rect(8, 0, 11, 3) if h.offset not in ((11, 2), (8, 0), (8, 3))]
    b.paint(gosprom, "R", keep="~=")
    b.paint(b.rect(13, 0, 18, 0), "s", keep="=")  # university and hotels on the north side
    b.paint([b.hex("N05"), b.hex("O05")], "R")  # Party headquarters
    b.paint([b.hex("R05"), b.hex("S05")], "R", over=".")  # NKVD building
    b.paint(b.rect(12, 4, 18, 4), "s", over=".")  # south side of the square
    b.paint([b.hex("U01"), b.hex("U02"), b.hex("U03")], "s", over=".")
    b.city_blocks(between, stone_share=(0.35, 0.6, 0.85, 0.95), salt="centre")
    b.paint([b.hex("T10"), b.hex("M14")], "R")  # the State Bank and the telephone exchange
    # east bank: the factory quarter (reinforced workshops), workers' houses
    b.paint(b.rect(25, 9, 30, 9), "R", over=".")
    b.paint(b.rect(25, 11, 26, 13) + b.rect(29, 11, 30, 13), "s", over=".")
    b.paint(b.rect(27, 12, 28, 12), "R", over=".")
    b.paint(b.rect(25, 15, 29, 15), "R", over=".")
    b.road(["AF12", "AB12"], smooth=False)  # factory yard lane
    east = [h for h in b.rect(24, 0, 31, 21) if h.offset[1] < 8 or h.offset[1] > 16]
    b.village([h for h in east if b.map.road[b.map.index(h)]], density=0.8, stone=0.1, salt="east")
    # west bank: Kholodnaya Gora's wooden streets; the South Station
    b.paint(b.rect(5, 18, 7, 19), "s", over=".")
    b.paint([b.hex("G19")], "R", over=".")  # station water tower and signal box
    west = [h for h in b.rect(0, 0, 6, 21) if b.map.road[b.map.index(h)]]
    b.village(west, density=0.85, stone=0.05, salt="west")
    south = [h for h in b.rect(8, 16, 31, 21) if b.map.road[b.map.index(h)]]
    b.village(south, density=0.8, stone=0.15, salt="south")
    b.city_blocks(b.rect(0, 0, 31, 21), stone_share=(0.05, 0.2), courtyard=0.6, salt="rest")
    # trees along the banks
    banks = b.ring_of([h for h in b.all() if b.code(h) == "~"])
    b.paint(banks, ",", over=".o", chance=0.4, salt="bank")
    b.rubble(h for h in b.rect(7, 4, 24, 17) if b.code(h) in "hs" and noise(*h.offset, "rubble") < 0.15)
    return b.finish()


def prokhorovka() -> BattleMap:
    """Prokhorovka, 12 July 1943: the corridor between the Psel and the railway.

    North is up. The Psel meanders along the top in its marshy floodplain, with the villages
    of Vasilyevka (west) and Mikhailovka (east) on its south bank. The Belgorod road and the
    railway embankment run from the south-west to Prokhorovka (wooden village, stone station,
    the church) at the east end. Between them: the Oktyabrsky state farm (stone, a reinforced
    granary) and Hill 252.2 (levels 2-3) astride the road. Balkas (level-0 ravines full of
    brush) cut the level-1 plateau down to the river; orchards, wheat fields and the
    Storozhevoe woods south of the railway.
    """
    b = MapBuilder(
        44,
        32,
        "Prokhorovka, 12 July 1943",
        "The tank field west of Prokhorovka, 12 July 1943: the Leibstandarte holds Hill 252.2 and the "
        "Oktyabrsky state farm; the 18th and 29th Tank Corps attack out of Prokhorovka down the "
        "corridor between the Psel and the railway. Open steppe and wheat give long fire lanes "
        "(wheat and orchards only hinder); Hill 252.2 (levels 2-3) overlooks the whole corridor; "
        "the raised railway embankment blocks LOS across it and the balkas (level-0 ravines with "
        "brush) hide approaching tanks until they crest the lip. The Psel's marshy banks stop "
        "vehicles; the farm's stone buildings (DR14) and granary and Prokhorovka's church (DR15) "
        "are the only hard cover.",
        base_level=1.0,
    )
    psel: list[Point] = [(-1, 6), "F06", "K08", "P05", "V07", "AB04", "AH06", "AM03", (44, 1)]
    rail: list[Point] = [(3, 33), (40, 12), (45, 8)]
    road: list[Point] = [(-1, 24), "J22", "S17", "Z15", "AH14", "AM13"]
    balkas = [
        ["G21", "F17", "H13", "G10", "H07"],  # western balka down to the Psel
        ["AE19", "AC15", "AD11", "AB07", "AC05"],  # the balka before Prokhorovka
        ["R14", "Q11", "P07"],  # short gully north of the farm
        ["N32", "O29", "S26", "V25"],  # Storozhevoe balka, south of the railway
    ]
    # -- ground: plateau at 1, Psel valley 0, north bank rising, Hill 252.2, Prokhorovka's rise
    b.carve(psel, 0.0, 1.2, 0.5)
    b.hill("AC01", 2.4, 9.0, 3.0, base=1.0)  # the high north bank of the Psel
    b.hill("X18", 3.4, 7.5, 6.0, base=1.0)  # Hill 252.2
    b.hill("AP18", 2.3, 8.0, 8.0, base=1.0)  # Prokhorovka's rise
    b.hill("AJ29", 2.2, 6.0, 4.0, base=1.0)  # a rise behind the Soviet lines
    for bk in balkas:
        b.carve(bk, 0.0, 0.4, 1.2)
    # the railway embankment: level 2 across the level-1 plateau and over the balkas (a fill
    # with culverts), in a cutting where the ground is higher
    rail_hexes = b.path(rail, smooth=False)
    b.set_z(rail_hexes, 2.0, mode="max")
    # -- the river, its floodplain, villages on the south bank
    river = b.path(psel)
    flood = b.band(psel, 3.6)
    b.paint(flood, "m", chance=0.55, salt="flood")
    b.paint(b.band(psel, 5.5), ",", over=".", chance=0.35, salt="willow")
    b.paint(river, "~")
    b.paint(b.ellipse("I04", 2.5, 1.5, rough=0.6, salt="wd1"), "T", over=".,m")
    b.paint(b.ellipse("AF03", 2.0, 1.2, rough=0.6, salt="wd2"), "T", over=".,m")
    # -- woods, fields and orchards on the plateau
    b.paint(b.ellipse("R29", 7.5, 3.5, rough=0.7, salt="storozh"), "T")  # Storozhevoe woods
    b.paint(b.ellipse("AJ23", 2.0, 1.5, rough=0.5, salt="copse"), "T")
    fields = [
        ["C11", "H11", "H16", "C16"],
        ["K16", "P14", "Q19", "L21"],
        ["B24", "G23", "H29", "B30"],
        ["U22", "Z20", "AB25", "W27"],
        ["AE23", "AI21", "AJ26", "AF27"],
        ["L09", "O09", "O12", "L13"],
        ["Y08", "AB08", "AB12", "Y13"],
        ["AF10", "AI09", "AJ12", "AF14"],
    ]
    for f in fields:
        b.paint(b.polygon(f), "w", over=".")
    for bk in balkas:  # brush and scrub in the ravines and on their slopes
        b.paint(b.band(bk, 1.2), ",", over=".w")
        b.paint(b.band(bk, 2.6), ",", over=".w", chance=0.4, salt="bk")
    # -- roads and the railway line
    b.road(road)
    b.road([(-1, 9), "F09", "M10", "S12", "V13"])  # river road through Vasilyevka to the farm
    b.road(["V13", "Z15"], smooth=False)
    b.road(["AH14", "AG10", "AE08"])  # Prokhorovka to Mikhailovka
    b.road(["AE08", "AC09", "AC10", "Y11", "V13"])  # Mikhailovka back to the farm
    b.road(["AM13", "AM05", (38, -1)], smooth=False, bridges=1)  # north over the Psel to Kartashevka
    b.road(["AM13", "AR13"], smooth=False)  # east out of Prokhorovka
    b.road(["AM13", "AO20", "AQ27", (42, 32)])  # south along the station
    b.road(["AO20", "AR21"], smooth=False)
    b.road(["AI17", "AN17"], smooth=False)  # village street
    b.road(["AJ09", "AR09"], smooth=False)  # village street
    # -- the Oktyabrsky state farm: stone barns in rows, a reinforced granary, orchards
    farm = b.rect(18, 11, 23, 14)
    b.paint(farm, ".", over="w,")
    b.paint([h for h in farm if h.offset[1] in (11, 13) and noise(*h.offset, "farm") < 0.85], "s", over=".")
    b.paint([b.hex("V15")], "R", over=".")  # the granary
    b.paint(b.rect(17, 8, 22, 9), "o", over=".w")
    # -- villages along the roads
    vas = [h for h in b.rect(0, 7, 14, 10) if b.map.road[b.map.index(h)]]
    b.village(vas, density=0.75, salt="vas")
    mikh = [h for h in b.rect(26, 5, 33, 10) if b.map.road[b.map.index(h)]]
    b.village(mikh, density=0.7, salt="mikh")
    prokh = [h for h in b.rect(33, 4, 43, 24) if b.map.road[b.map.index(h)]]
    b.village(prokh, density=0.8, stone=0.05, salt="prokh", garden_chance=0.7)
    b.paint(b.rect(38, 13, 39, 14), "s", keep="=")  # Prokhorovka station
    b.paint([b.hex("AO10")], "R", keep="=")  # the church of Saints Peter and Paul
    b.paint([b.hex("AN17"), b.hex("AP16")], "s", keep="=")  # school and village soviet
    # the railway embankment itself stays open ground (it is its height that matters)
    b.paint(rail_hexes, ".", keep="=~")
    return b.finish()


def ponyri() -> BattleMap:
    """Ponyri station, July 1943: a village strung along the Orel-Kursk railway.

    North is up; the Germans come from the north across open, mined ground. The railway
    embankment runs north-south through the village; the station (stone), the school (stone)
    and the water tower (reinforced) stand where the Olkhovatka road crosses it; the
    machine-tractor station (stone) lies north-east. Wooden houses with orchards line two
    village streets. Hill 253.5 (levels 2-3) rises south-east. Soviet trench lines (brush)
    with bunkers (reinforced) cross the map north of the village and ring the hill; a brushy
    balka runs down the west side.
    """
    b = MapBuilder(
        36,
        24,
        "Ponyri station, July 1943",
        "Ponyri, 9-12 July 1943: the 'Kursk Stalingrad'. German infantry and Ferdinands attack from "
        "the north across open, mined ground (no cover: every approach is in view of the village) "
        "against the 307th Rifle Division's defence in depth. The raised railway embankment splits "
        "the field and blocks LOS across it; the station, school (DR14) and water tower (DR15) are "
        "the keys of the village; wooden houses (DR13) and orchards give cover and hindrance. "
        "Trench lines (brush) with bunkers (DR15) run north of the village and ring Hill 253.5 "
        "(levels 2-3), which overlooks the village from the south-east.",
        base_level=0.6,
    )
    rail: list[Point] = [(16, -1), (18, 25)]
    b.ramp("S01", "S24", 0.3, 1.4)  # the ground rises gently to the south
    b.hill("AC17", 3.4, 7.0, 6.0, base=1.0)  # Hill 253.5
    b.hill("AH05", 1.8, 5.0, 4.0)  # the rise by the 1 May collective farm
    balka = ["F24", "E19", "G14", "F09", "D05"]
    b.carve(balka, 0.0, 0.4, 0.8)
    rail_hexes = b.path(rail, smooth=False)
    for h in rail_hexes:  # the embankment: one level above the ground it crosses
        b.set_z([h], float(b.level(h) + 1))
    # fields and scrub first; buildings and roads come after
    for f in [
        ["Y01", "AJ01", "AJ04", "Y04"],
        ["H16", "M15", "N21", "I22"],
        ["U20", "Z21", "Z24", "U24"],
        ["AF09", "AJ09", "AJ14", "AF13"],
        ["B12", "E12", "E15", "B15"],
    ]:
        b.paint(b.polygon(f), "w")
    b.paint(b.band(balka, 1.2), ",")
    b.paint(b.band(balka, 2.8), ",", over=".w", chance=0.35, salt="bk")
    b.paint(b.ellipse("C17", 2.2, 2.8, rough=0.5, salt="grove"), "T")
    b.paint(b.ellipse("AH21", 2.6, 2.0, rough=0.5, salt="wood2"), "T")
    b.paint(b.ellipse("G06", 1.6, 1.4, rough=0.5, salt="copse"), "T")
    # roads: two village streets along the railway, the Olkhovatka road across it
    east_st = b.road(["V01", "V06", "V12", "W18", "W24"])
    west_st = b.road(["N02", "N06", "M12", "N18", "L24"])
    b.road([(-1, 11), "H11", "M12", "S11", "V12", "AC12", "AK10", (36, 10)])  # Olkhovatka road
    b.road(["V06", "AB06", "AF05"])  # to the machine-tractor station and the 1 May farm
    b.road(["W18", "AC18"], smooth=False)  # track up Hill 253.5
    b.road(["N06", "H04", (5, -1)])  # north-west to Buzuluk
    # the station square and its buildings by the level crossing
    b.road((), hexes=b.rect(19, 11, 20, 12))
    b.paint(b.rect(19, 9, 20, 10), "s")  # station building and goods shed
    b.paint([b.hex("T09")], "R")  # the water tower
    b.paint([b.hex("Q10")], "s")  # platform buildings west of the line
    b.paint(b.rect(22, 13, 23, 14), "s")  # the school
    b.paint(b.rect(24, 4, 26, 5), "s")  # machine-tractor station workshops
    b.paint([b.hex("Z07")], "R")  # its reinforced fuel store
    b.paint(rail_hexes, ".", keep="=")
    # the village: wooden houses on both streets, orchards behind them
    # the village begins behind the first trench line; north of it lies open, mined ground
    b.village(
        [h for h in east_st if h.offset[1] >= 7], density=0.9, stone=0.05, salt="east", garden_chance=0.75
    )
    b.village(
        [h for h in west_st if h.offset[1] >= 7], density=0.9, stone=0.05, salt="west", garden_chance=0.75
    )
    b.village([h for h in b.path([(-1, 11), "H11", "M12"])], density=0.5, salt="xw")
    b.paint(rail_hexes, ".", keep="=")
    # Soviet defence in depth: trench lines (brush) with bunkers (reinforced)
    first = b.path(["B06", "I07", "P06", "W07", "AD06", "AJ07"])
    second = b.path(["Y13", "AE12", "AI15", "AH21", "AB22", "X19"])
    third = b.path(["B20", "H21", "M23"])
    for line in (first, second, third):
        b.paint(line, ",", over=".wo")
        for i, h in enumerate(line):
            if i % 5 == 2 and b.code(h) == ",":
                b.paint([h], "R")
    b.paint([b.hex("AC17"), b.hex("AD18")], "R", over=".,")  # the hill's command post
    return b.finish()


def dnieper() -> BattleMap:
    """The Bukrin bridgehead on the Dnieper, autumn 1943.

    North is up; the Dnieper flows south across the right half of the map, 4-6 hexes of
    water with a willow island. West of it a narrow shore holds the riverside village of
    Grigorovka (wood, a stone church) under the high right bank: an escarpment climbing to
    a plateau at levels 3-4, cut by three wooded ravines, with Bukrin village (stone and wood)
    and German bunkers (reinforced) on top. The low east bank is marsh, floodplain woods and
    sand, joined to the bridgehead by one pontoon bridge.
    """
    b = MapBuilder(
        36,
        24,
        "Dnieper crossing: the Bukrin bridgehead, autumn 1943",
        "The Bukrin bend of the Dnieper, late September - October 1943: Soviet riflemen have crossed "
        "on boats and rafts and cling to the narrow shore below the high right bank, fed over a single "
        "pontoon bridge, while German reserves counterattack from the plateau. The river is "
        "impassable except at the bridge; the east bank is low marsh (no vehicles) and woods. The "
        "escarpment climbs from the shore (level 0) to the plateau (levels 3-4), from where German "
        "guns see the whole crossing; three ravines with brush and woods are the covered ways up. "
        "Wooden houses (DR13) and the stone church (DR14) of Grigorovka on the shore, Bukrin's "
        "stone buildings and the German bunkers (DR15) on the heights.",
        base_level=3.4,
    )
    river: list[Point] = [(18, -1), "U05", "Z10", "AA15", "W20", (21, 25)]
    widths = [4.2, 4.4, 4.8, 5.0, 5.2, 5.6]
    foot: list[Point] = [(13, -1), "O06", "P12", "P18", (14, 25)]  # the foot of the escarpment
    ravines = [
        (["C03", "H05", "M07", "O08"], [3.2, 2.6, 1.2, 0.0]),
        (["D13", "J13", "N14", "Q14"], [3.2, 2.4, 1.0, 0.0]),
        (["F21", "K20", "N21", "Q21"], [3.0, 2.2, 1.0, 0.0]),
    ]
    # -- ground: plateau 3-4 in the west, escarpment down to the bend, low east bank
    b.hill("E09", 4.4, 6.0, 5.0, base=3.4)  # the heights behind Bukrin
    b.hill("H20", 4.3, 4.0, 3.0, base=3.4)
    b.carve(foot, 0.0, 0.0, 1.2)
    fy, fx = _line_x(b, foot)
    ry, rx = _line_x(b, river)
    low = {h for h in b.all() if b.xy(h.offset)[0] > np.interp(b.xy(h.offset)[1], fy, fx)}  # below the foot
    east = {h for h in b.all() if b.xy(h.offset)[0] > np.interp(b.xy(h.offset)[1], ry, rx)}  # the east bank
    b.set_z(low, 0.0, mode="min")
    b.hill("U11", 1.4, 2.5, 3.0)  # a sandy knoll in the bend
    b.hill("AJ03", 1.3, 4.0, 5.0)  # a sandy rise on the east bank
    for pts, floor in ravines:
        b.carve(pts, floor, 0.4, 0.9)
    # -- the river and its island
    b.paint(b.band(river, widths), "~")
    island = b.ellipse("X19", 0.9, 1.5)
    b.paint(island, ",")
    b.paint(island[:1], "m")
    # -- east bank: marsh along the water, floodplain woods, sand
    b.paint(
        b.ring_of([h for h in b.all() if b.code(h) == "~"]),
        "m",
        over=".",
        keep="",
        chance=0.7,
        salt="eastmarsh",
    )
    for h in list(b.all()):  # only the east bank keeps its marsh ring
        if b.code(h) == "m" and h not in east and h not in island:
            b.paint([h], ".")
    b.paint(
        [h for h in b.band([(26, -1), "AD05", "AJ08"], 4.0) if h in east],
        "T",
        over=".m",
        chance=0.9,
        salt="fw1",
    )
    b.paint([h for h in b.ellipse("AG20", 4.5, 3.0, rough=0.6, salt="fw2") if h in east], "T", over=".m")
    b.paint(
        [h for h in b.band(["AF11", "AH14", "AJ16"], 2.5) if h in east], "m", over=".", chance=0.6, salt="ms"
    )
    b.paint([h for h in b.ellipse("T09", 2.0, 1.5, rough=0.5, salt="bendw") if h in low], "T", over=".")
    b.paint([h for h in b.all() if h in east and b.level(h) >= 1], ",", over=".", chance=0.3, salt="sand")
    # -- the escarpment: brush and scrub woods on the steep slopes, woods in the ravines
    for h in b.all():
        if h in east or b.code(h) != ".":
            continue
        c, r = h.offset
        steep = max((b.level(h) - b.level(n) for n in b.map.neighbors(h)), default=0)
        if steep >= 2 or (steep == 1 and noise(c, r, "slope") < 0.45):
            b.paint([h], "T" if noise(c, r, "slopew") < 0.35 else ",")
    for pts, _ in ravines:
        b.paint(b.band(pts, 1.3), "T", over=".,", chance=0.6, salt="rv")
        b.paint(b.band(pts, 2.6), ",", over=".", chance=0.5, salt="rvb")
    # -- fields on the plateau (autumn stubble and late wheat)
    for f in (["A15", "E15", "F19", "A19"], ["I01", "O01", "N04", "I04"], ["A22", "D22", "D24", "A24"]):
        b.paint(b.polygon(f), "w", over=".")
    # -- roads: the plateau road, a lane down the middle ravine, the shore road, the bridge
    b.road([(4, -1), "E06", "F12", "E18", (5, 24)])
    b.road(["F12", "J13", "N14", "Q14", "S15"])  # down the middle ravine into the bend
    b.road([(14, -1), "P03", "R07", "S10", "S15", "R20", (18, 24)])  # the shore road round the bend
    bridge = b.road(["S12", "AE12"], smooth=False, bridges=6)  # the pontoon bridge
    b.road(["AE12", "AH11", (36, 10)])  # east-bank track to the rear
    # -- Grigorovka on the shore, Bukrin on the plateau
    shore = [
        h for h in b.all() if h in low and h not in east and b.map.road[b.map.index(h)] and h not in bridge
    ]
    b.village(shore, density=0.55, salt="grig", garden_chance=0.5, over=".,")
    b.paint([b.hex("T07")], "s")  # Grigorovka church
    b.paint([b.hex("R16")], "s", over=".,ho")  # collective farm office
    bukrin = [h for h in b.rect(2, 3, 8, 16) if b.map.road[b.map.index(h)]]
    b.village(bukrin, density=0.7, stone=0.25, salt="bukrin", garden_chance=0.6)
    b.paint([b.hex("E09"), b.hex("G10")], "s")  # Bukrin school and church
    for lab in ("M04", "N10", "M17", "O23"):  # German bunkers on the crest above the shore
        b.paint([b.hex(lab)], "R")
    return b.finish()


def _line_x(b: MapBuilder, line: Sequence[Point]) -> tuple[np.ndarray, np.ndarray]:
    """A north-south curve as ``(y, x)`` samples sorted by y (hex units), for "east of it" tests."""
    s = b.spline(line)
    order = np.argsort(s[:, 1])
    return s[order, 1], s[order, 0]


def steppe_village() -> BattleMap:
    """A steppe village for the points-based standard game (R10.1), 1943.

    North is up; the sides enter from the west and east edges, so the layout is balanced
    about the centre: the village (wood houses, a stone church, school and collective-farm
    office, one bunker) stands at the crossroads in the middle; a stream with marshy banks
    crosses the south from west to east under two bridges; a hill (levels 2-3) rises south of
    the stream; woods in the north-west and south-east, wheat in the north-east and
    south-west, orchards round the houses.
    """
    b = MapBuilder(
        30,
        24,
        "Steppe village, 1943",
        "A village on the steppe at the crossroads, summer 1943, for the standard game: both sides "
        "enter from opposite edges (west and east) and fight for the village, the hill and the "
        "bridges. The wooden houses (DR13), the stone church, school and farm office (DR14) and "
        "one bunker (DR15) give cover and block LOS; orchards and wheat hinder. The stream is "
        "crossed only at the two bridges, its marshy banks stop vehicles. The hill south of the "
        "stream (levels 2-3) sees over the whole village; woods on both flanks cover the approaches.",
        base_level=1.0,
    )
    stream: list[Point] = [(-1, 15), "E17", "J15", "P17", "V15", "Z17", (30, 15)]
    b.carve(stream, 0.0, 0.6, 0.7)
    b.hill("P21", 3.4, 5.5, 3.5, base=1.0)  # the hill
    b.hill("O02", 2.2, 7.0, 2.5, base=1.0)  # a low ridge along the north edge
    b.paint(b.band(stream, 3.2), "m", chance=0.6, salt="marsh")
    b.paint(b.band(stream, 4.6), ",", over=".", chance=0.35, salt="bank")
    b.paint(b.path(stream), "~")
    b.paint(b.ellipse("D05", 3.8, 3.0, rough=0.6, salt="nw"), "T")
    b.paint(b.ellipse("Z20", 3.6, 3.0, rough=0.6, salt="se"), "T", keep="~")
    b.paint(b.ellipse("AB04", 1.6, 1.3, rough=0.5, salt="ne"), "T")
    b.paint(b.ellipse("C21", 1.6, 1.3, rough=0.5, salt="sw"), "T")
    for f in (
        ["S01", "Z01", "Z06", "T07"],
        ["B10", "G09", "H13", "C13"],
        ["W09", "AB09", "AC13", "X13"],
        ["E19", "J19", "J24", "E24"],
    ):
        b.paint(b.polygon(f), "w", over=".,")
    # roads: the east-west road through the crossroads, the north-south road over the stream
    b.road([(-1, 10), "F10", "K11", "O11", "T11", "Y10", (30, 10)])
    b.road([(14, -1), "O05", "O11", "O16", "P20", (15, 24)], bridges=1)
    b.road(["T11", "V13"])  # south-east lane over the second bridge
    b.road(["V13", "V19"], smooth=False, bridges=1)
    b.road(["V19", "W22", "X24"])
    b.road(["K11", "I06", "H01"])  # north-west lane
    back, low = b.hex("O08"), b.hex("O14")
    b.road([Hex(back.q - 3, back.r).offset, Hex(back.q + 3, back.r).offset], smooth=False)  # back street
    b.road([Hex(low.q - 3, low.r + 3).offset, Hex(low.q + 3, low.r - 3).offset], smooth=False)  # lower street
    # the village centre: church, school, farm office, the bunker at the crossroads
    b.paint([b.hex("N10")], "s")  # church
    b.paint(b.rect(16, 9, 16, 9), "s")  # school
    b.paint([b.hex("P13")], "s")  # collective farm office
    b.paint([b.hex("N12")], "R")  # the bunker covering the crossroads
    streets = [h for h in b.rect(9, 5, 20, 14) if b.map.road[b.map.index(h)]]
    b.village(streets, density=0.85, stone=0.1, salt="vil", garden_chance=0.7)
    return b.finish()


# ---- issue 21: the battles of 1943 across the year --------------------------------------------


def sinyavino() -> BattleMap:
    """The Neva and the Sinyavino peat bogs, January 1943 (Operation Iskra).

    North is up. The frozen Neva runs down the west side (two hexes of ice-covered water; the
    scenario lets foot units cross it, R10.8); the Nevsky bank west of it. East of the river the
    Workers' Settlements No. 1 (north) and No. 5 (centre) - wooden barracks and a few stone
    buildings - stand among peat bogs (marsh), birch woods and peat-cutting embankments; the
    Sinyavino heights (levels 2-3) with the village and the power station rise in the
    south-east. One road runs north-south along the east bank, another east to Sinyavino.
    """
    b = MapBuilder(
        32,
        22,
        "Sinyavino and the Neva, January 1943",
        "Operation Iskra, 12-18 January 1943: the 67th Army of the Leningrad Front crosses the frozen "
        "Neva against the fortified east bank while the 2nd Shock Army of the Volkhov Front attacks "
        "from the east; they meet at the Workers' Settlements. The Neva is ice-covered water (only "
        "infantry cross where the scenario says so); peat bogs (marsh) stop vehicles; birch woods "
        "and the wooden barracks (DR13) of the settlements block LOS; the stone buildings (DR14) "
        "and the power station and bunkers (DR15) are the strongpoints. The Sinyavino heights "
        "(levels 2-3) in the south-east overlook the bogs.",
        base_level=1.0,
    )
    neva: list[Point] = [(4, -1), "E05", "D11", "E16", (4, 22)]
    b.carve(neva, 0.0, 1.5, 0.6)
    b.hill("Z17", 3.4, 7.5, 5.0, base=1.0)  # the Sinyavino heights
    b.hill("R03", 2.2, 4.0, 3.0, base=1.0)  # a rise by Settlement No. 1
    b.paint(b.band(neva, 1.4), "~")
    b.paint(b.band([(7, -1), "H06", "H12", (8, 22)], 2.0), ",", over=".", chance=0.4, salt="bank")
    for c, rx, ry, s in (
        ("N09", 3.5, 2.5, "b1"),
        ("V08", 3.0, 2.0, "b2"),
        ("M16", 3.0, 2.5, "b3"),
        ("AD06", 2.5, 2.0, "b4"),
    ):
        b.paint(b.ellipse(c, rx, ry, rough=0.6, salt=s), "m", over=".,")
    for c, rx, ry, s in (
        ("S12", 2.5, 2.0, "w1"),
        ("J19", 2.5, 2.0, "w2"),
        ("AC11", 2.5, 3.0, "w3"),
        ("L03", 2.0, 1.5, "w4"),
    ):
        b.paint(b.ellipse(c, rx, ry, rough=0.6, salt=s), "T", over=".,m")
    b.paint(b.band(["J14", "Q13", "X14"], 1.2), ",", over=".")  # a peat-cutting embankment
    east = b.road([(9, -1), "J04", "J10", "K16", (10, 22)])  # the east-bank road
    b.road(["J10", "P10", "W12", "AA16", (32, 16)])  # to Sinyavino and on east
    b.road(["J04", "Q04", (24, -1)])  # Settlement No. 1 street
    b.village([h for h in east if 2 <= h.offset[1] <= 6], density=0.85, stone=0.2, salt="s1", garden=None)
    s5 = [h for h in b.rect(12, 9, 18, 11) if b.map.road[b.map.index(h)]]
    b.village(s5, density=0.85, stone=0.15, salt="s5", garden=None)
    sin = [h for h in b.rect(22, 12, 31, 17) if b.map.road[b.map.index(h)]]
    b.village(sin, density=0.8, stone=0.1, salt="sin", garden_chance=0.5)
    b.paint([b.hex("Y15")], "R", keep="=")  # the power station
    b.paint([b.hex("N11")], "s", keep="=")  # Settlement No. 5's school
    for lab in ("H03", "H09", "I15", "H19"):  # bunkers on the east bank
        b.paint([b.hex(lab)], "R", keep="=")
    b.paint(b.ellipse("B16", 1.5, 2.0, rough=0.5, salt="nw"), "T", over=".")
    return b.finish()


def stalingrad() -> BattleMap:
    """The Stalingrad factory district, January 1943 (Operation Koltso).

    North is up; the Volga runs along the east edge. Between the Volga bank and the workers'
    settlements in the west stand the halls of the Krasny Oktyabr and Barrikady factories
    (reinforced), the stone blocks around them and the wooden houses of the settlements, nearly
    all of it fought over since September (the scenario places the rubble). Ravines (balkas)
    run down to the Volga; the Mamayev Kurgan (levels 2-3) rises in the south-west.
    """
    b = MapBuilder(
        32,
        22,
        "Stalingrad factory district, January 1943",
        "Stalingrad, late January 1943: the Don Front's armies close on the last German pockets in the "
        "factory district while Chuikov's 62nd Army holds the strip along the Volga. The halls of the "
        "Krasny Oktyabr and Barrikady works (DR15) are fortresses; stone blocks (DR14) and the wooden "
        "workers' settlements (DR13) are mostly rubble by now. Streets are the only open lanes, the "
        "balkas are covered ways down to the Volga, which is frozen but under fire (water here). The "
        "Mamayev Kurgan (levels 2-3) overlooks the south of the district.",
        base_level=1.0,
    )
    volga: list[Point] = [(29, -1), "AD06", "AC12", "AD17", (29, 22)]
    b.carve(volga, 0.0, 2.0, 0.8)
    b.hill("F18", 3.4, 5.5, 4.0, base=1.0)  # the Mamayev Kurgan
    b.hill("E03", 2.2, 4.0, 3.0, base=1.0)
    b.paint(b.band(volga, 3.2), "~")
    balkas = [["J01", "O05", "V07", "AA07"], ["H13", "P14", "W15", "AB15"]]
    for bk in balkas:
        b.carve(bk, 0.0, 0.5, 1.0)
    b.street_grid(cols=(6, 11, 16, 21), rows=(3, 9, 12, 19), within=b.rect(0, 0, 25, 21))
    for bk in balkas:
        b.paint(b.band(bk, 2.2), ",", over=".")
    b.road([(24, -1), "Y05", "X11", "Y17", (24, 22)], smooth=False)  # the riverside road
    b.road(["Y05", "AB05"], smooth=False)  # down to the landing
    b.road(["V19", "Y19"], smooth=False)
    for r0, c0 in ((4, 12), (13, 12)):  # the factory halls
        b.paint(b.rect(c0, r0, c0 + 3, r0 + 1), "R", keep="=")
    for c0, r0, c1, r1 in ((17, 4, 20, 7), (17, 13, 20, 17), (12, 7, 15, 8)):  # works' stone buildings
        b.paint(b.rect(c0, r0, c1, r1), "s", keep="=,R")
    west = [h for h in b.rect(0, 0, 10, 21) if not b.map.road[b.map.index(h)]]
    b.block(west, stone=0.2, density=0.7, salt="west")
    mid = [h for h in b.rect(22, 0, 25, 21) if not b.map.road[b.map.index(h)]]
    b.block(mid, stone=0.5, density=0.6, salt="bank")
    b.paint(b.ellipse("F18", 1.5, 1.2, rough=0.5, salt="kurgan"), ".", keep="=")
    b.paint(b.ellipse("B20", 2.0, 1.5, rough=0.5, salt="park"), "T", keep="=")
    b.paint(b.ellipse("I01", 2.0, 1.2, rough=0.5, salt="park2"), "T", keep="=")
    b.paint(b.ellipse("W10", 1.5, 1.5, rough=0.5, salt="wood3"), "T", keep="=sR")
    return b.finish()


def kuban() -> BattleMap:
    """The Blue Line at Krymskaya, the Kuban bridgehead, spring 1943.

    North is up. The Adagum winds west-east through the reed marshes (plavni) along the north;
    Krymskaya (wooden houses, a stone station and church) stands on the railway in the centre;
    the German Blue Line - trenches (brush) with bunkers - runs north-south west of the town;
    south of it the wooded foothills of the Caucasus rise to Hill 121.4 (levels 3-4). The Soviet
    attack comes from the east.
    """
    b = MapBuilder(
        32,
        22,
        "Krymskaya on the Blue Line, spring 1943",
        "The Kuban bridgehead, April-May 1943: the North Caucasus Front's 56th Army attacks the Blue "
        "Line (Gotenkopfstellung) at Krymskaya, with the greatest air battle of the war overhead. The "
        "Adagum's reed marshes (plavni) in the north stop vehicles; the Blue Line's trenches (brush) "
        "and bunkers (DR15) run north to south west of the town; Krymskaya's wooden houses (DR13) and "
        "stone station and church (DR14) stand on the railway; the wooded foothills in the south "
        "(levels 3-4) overlook the whole valley. The spring rasputitsa turns every track to mud.",
        base_level=1.0,
    )
    adagum: list[Point] = [(-1, 4), "G05", "N03", "U05", "AB03", (32, 4)]
    b.carve(adagum, 0.0, 2.0, 0.5)
    b.hill("J18", 4.4, 8.0, 4.5, base=1.0)  # Hill 121.4 and the foothills
    b.hill("Z19", 3.2, 6.0, 3.0, base=1.0)
    b.paint(b.band(adagum, 4.5), "m", chance=0.7, salt="plavni")
    b.paint(b.path(adagum), "~")
    b.paint(b.ellipse("J19", 6.5, 3.0, rough=0.7, salt="foot"), "T")
    b.paint(b.ellipse("Z20", 4.0, 2.0, rough=0.7, salt="foot2"), "T")
    for f in (["V08", "AB08", "AB12", "V12"], ["C09", "G09", "G13", "C13"]):
        b.paint(b.polygon(f), "w", over=".")
    b.road([(-1, 10), "H10", "P11", "X10", (32, 10)])  # the Krymskaya - Abinskaya road
    b.road(["P11", "P06", (15, -1)], bridges=1)  # north over the Adagum
    b.road(["P11", "Q16", "N21", (13, 22)])  # south into the hills
    b.road(["P06", "T07"], smooth=False)
    town = [h for h in b.rect(11, 5, 20, 14) if b.map.road[b.map.index(h)]]
    b.village(town, density=0.85, stone=0.15, salt="krym", garden_chance=0.6)
    b.paint([b.hex("P09")], "s", keep="=")  # the station
    b.paint([b.hex("R12")], "s", keep="=")  # the church
    line = b.path(["I05", "J09", "I14", "J18"])  # the Blue Line
    b.paint(line, ",", over=".wo")
    for i, h in enumerate(line):
        if i % 4 == 1 and b.code(h) == ",":
            b.paint([h], "R")
    b.set_z(b.path([(7, 22), "H16"]), 2.0, mode="max")
    return b.finish()


def oboyan() -> BattleMap:
    """The Oboyan road at the Pena, July 1943.

    North is up; the Germans come from the south. The Pena river crosses the map from west to
    east in its marshy valley with one bridge at Verkhopenye (a village on the north bank);
    the Belgorod - Oboyan road runs north over the bridge and past Hill 244.8 (levels 3) to the
    north edge. Wheat fields and orchards, a wood west of the road, the Soviet trench line on
    the ridge north of the river.
    """
    b = MapBuilder(
        32,
        22,
        "The Oboyan road at the Pena, July 1943",
        "The southern face of Kursk, 7-10 July 1943: Grossdeutschland and the 3rd Panzer Division of the "
        "4th Panzer Army try to force the Pena at Verkhopenye and break through to Oboyan; Katukov's 1st "
        "Tank Army holds the ridge north of the river with dug-in T-34s. The Pena and its marshy banks "
        "stop vehicles except at the one bridge; Verkhopenye's wooden houses (DR13) and stone church "
        "(DR14) line the north bank; the trench line (brush) and bunkers (DR15) on the ridge and "
        "Hill 244.8 (level 3) overlook the crossing and the wheat fields south of it.",
        base_level=1.0,
    )
    pena: list[Point] = [(-1, 12), "F13", "M11", "T12", "Z10", (32, 11)]
    b.carve(pena, 0.0, 1.0, 0.6)
    b.hill("P04", 3.4, 6.0, 3.0, base=1.0)  # Hill 244.8
    b.hill("Y05", 2.4, 5.0, 3.0, base=1.0)
    b.hill("G19", 2.2, 4.0, 2.5, base=1.0)
    b.paint(b.band(pena, 3.2), "m", chance=0.6, salt="pm")
    b.paint(b.path(pena), "~")
    for f in (["B15", "J15", "J21", "B21"], ["S15", "AC14", "AC20", "S20"], ["V02", "AD02", "AD06", "V06"]):
        b.paint(b.polygon(f), "w", over=".")
    b.paint(b.ellipse("G05", 3.5, 2.5, rough=0.6, salt="wood"), "T")
    b.paint(b.ellipse("AA17", 1.8, 1.5, rough=0.5, salt="copse"), "T", over=".w")
    b.paint(b.ellipse("M18", 2.0, 1.5, rough=0.5, salt="copse2"), "T", over=".w")
    road = b.road([(15, 22), "P16", "O11", "P06", (15, -1)], bridges=1)  # the Oboyan road
    b.road(["O09", "G08", (-1, 8)])  # Verkhopenye street west
    b.road(["O09", "W08", (32, 7)])  # and east
    b.road(["P16", "X17", (32, 18)])  # south bank track
    verk = [h for h in b.rect(6, 7, 24, 10) if b.map.road[b.map.index(h)]]
    b.village(verk, density=0.8, stone=0.05, salt="verk", garden_chance=0.6)
    b.paint([b.hex("Q08")], "s", keep="=")  # the church
    b.paint([b.hex("O14")], "s", keep="=~")  # the bridge-end house
    ridge = b.path(["B05", "J04", "R05", "AA04", "AF05"])
    b.paint(ridge, ",", over=".w")
    for i, h in enumerate(ridge):
        if i % 6 == 3 and b.code(h) == ",":
            b.paint([h], "R")
    south = [h for h in b.rect(10, 15, 22, 18) if b.map.road[b.map.index(h)]]
    b.village(south, density=0.5, salt="sv", garden_chance=0.5)
    _ = road
    return b.finish()


def teploye() -> BattleMap:
    """The Olkhovatka heights at Teploye, July 1943.

    North is up; the Germans attack up the open slope from the north. The heights rise to the
    south (levels 2-4) with Teploye village on the crest road and Hill 272 in the south-east;
    Samodurovka lies in the valley of a brook (a balka) in the north-west; Soviet trench lines
    with bunkers run across the slope; woods on the crest.
    """
    b = MapBuilder(
        32,
        22,
        "Teploye and the Olkhovatka heights, July 1943",
        "The northern face of Kursk, 8-11 July 1943: the 2nd and 4th Panzer Divisions with Tigers of the "
        "505th Heavy Tank Battalion attack up the Olkhovatka heights at Teploye, the key to the Kursk "
        "salient's north; the 70th Army, the 1st Guards Artillery Brigade and the 2nd Tank Army hold "
        "the crest. The open slope (levels 0-2) has no cover but wheat; trench lines (brush) and "
        "bunkers (DR15) cross it; Teploye's wooden houses (DR13) and stone school (DR14) stand on the "
        "crest road; Hill 272 (level 4) overlooks everything.",
        base_level=0.0,
    )
    b.ramp("P01", "P21", 0.2, 2.4)
    b.hill("AB17", 4.4, 6.0, 5.0, base=2.0)  # Hill 272
    b.hill("H18", 3.3, 6.0, 4.0, base=2.0)
    brook = ["A06", "F07", "K05", "P02", (16, -1)]
    b.carve(brook, 0.0, 0.4, 0.8)
    b.paint(b.band(brook, 1.4), ",", over=".")
    for f in (["D01", "N01", "N04", "D04"], ["R03", "AD03", "AD08", "R08"], ["C10", "L10", "L13", "C13"]):
        b.paint(b.polygon(f), "w", over=".")
    b.paint(b.ellipse("N19", 4.0, 2.0, rough=0.6, salt="crest"), "T")
    b.paint(b.ellipse("AE12", 2.0, 2.5, rough=0.5, salt="east"), "T")
    b.paint(b.ellipse("B19", 2.0, 2.0, rough=0.5, salt="sw"), "T")
    crest = b.road([(-1, 16), "H15", "P16", "X15", "AD17", (32, 17)])  # the crest road through Teploye
    b.road(["P16", "Q09", "P02", (15, -1)])  # the track down to the north
    b.road(["F07", "K05", "P02"])  # Samodurovka street
    b.village(
        [h for h in crest if 8 <= h.offset[0] <= 22], density=0.85, stone=0.05, salt="tep", garden_chance=0.7
    )
    b.village([h for h in b.rect(2, 4, 12, 8) if b.map.road[b.map.index(h)]], density=0.7, salt="sam")
    b.paint([b.hex("Q15")], "s", keep="=")  # the school
    for line, _salt in ((["A11", "I10", "Q11", "Y10", "AF11"], "l1"), (["E14", "M13", "U13", "AC14"], "l2")):
        tr = b.path(line)
        b.paint(tr, ",", over=".w")
        for i, h in enumerate(tr):
            if i % 5 == 2 and b.code(h) == ",":
                b.paint([h], "R")
    b.paint([b.hex("AB17")], "R", over=".,")  # the observation post on Hill 272
    return b.finish()


def bolkhov() -> BattleMap:
    """Bolkhov on the Nugr, the Orel salient, July 1943 (Operation Kutuzov).

    North is up; the Soviet attack comes from the north-east. The Nugr flows north-south west
    of the centre; Bolkhov (wood and stone, its monasteries reinforced) stands on the high west
    bank (levels 2-3); the east bank is low meadow and forest; a bridge joins them.
    """
    b = MapBuilder(
        32,
        22,
        "Bolkhov on the Nugr, July 1943",
        "Operation Kutuzov, 12-29 July 1943: the 11th Guards Army and the 4th Tank Army attack into the "
        "Orel salient towards Bolkhov, held by German infantry and the 18th Panzer Division's rearguards. "
        "The Nugr can be crossed only at the bridge (or by infantry where the scenario allows); the old "
        "town stands on the high west bank (levels 2-3) - wooden houses (DR13), stone merchants' houses "
        "and churches (DR14) and the reinforced monasteries (DR15); the east bank is low meadow "
        "with the forests of the Bryansk partisans behind it.",
        base_level=1.0,
    )
    nugr: list[Point] = [(12, -1), "M05", "L11", "N16", (13, 22)]
    b.carve(nugr, 0.0, 1.0, 0.6)
    b.hill("F09", 3.4, 7.0, 7.0, base=1.0)  # the town's hill
    b.hill("X03", 2.2, 5.0, 3.0, base=1.0)
    b.paint(b.band(nugr, 2.8), "m", over=".", chance=0.4, salt="meadow")
    b.paint(b.path(nugr), "~")
    b.paint(b.ellipse("AA13", 5.0, 3.5, rough=0.6, salt="forest"), "T")
    b.paint(b.ellipse("W20", 3.0, 1.5, rough=0.6, salt="forest2"), "T")
    b.paint(b.ellipse("C19", 2.5, 2.0, rough=0.5, salt="sw"), "T")
    for f in (["P02", "U02", "U07", "P07"], ["Q16", "U16", "U21", "Q21"]):
        b.paint(b.polygon(f), "w", over=".")
    b.road([(32, 3), "X04", "Q08", "L09", "F09", (-1, 9)], bridges=1)  # the Belyov road over the bridge
    b.road(["F09", "F02", (5, -1)])
    b.road(["F09", "G16", (6, 22)])
    b.road(["Q08", "R15", (18, 22)])
    b.road(["C05", "I05"], smooth=False)
    b.road(["C13", "I13"], smooth=False)
    town = [h for h in b.rect(1, 2, 10, 17) if b.map.road[b.map.index(h)]]
    b.village(town, density=0.9, stone=0.3, salt="bol", garden_chance=0.5)
    for lab in ("D07", "H11"):
        b.paint([b.hex(lab)], "R")  # the monasteries
    b.paint([b.hex("F08")], "s", keep="=")  # the cathedral
    vill = [h for h in b.rect(22, 1, 31, 6) if b.map.road[b.map.index(h)]]
    b.village(vill, density=0.7, salt="east", garden_chance=0.6)
    return b.finish()


def bogodukhov() -> BattleMap:
    """Bogodukhov on the Merla, August 1943 (Operation Rumyantsev).

    North is up. The Merla flows west-east across the middle in a marshy valley with two
    bridges; Bogodukhov (wood and stone) lies on the north bank; open wheat country rolls
    south of the river (levels 1-2) to the railway embankment; woods on the flanks.
    """
    b = MapBuilder(
        32,
        22,
        "Bogodukhov on the Merla, August 1943",
        "Operation Rumyantsev, 11-17 August 1943: Katukov's 1st Tank Army has broken through to "
        "Bogodukhov; SS Totenkopf and Das Reich counterattack from the south to cut the spearhead off. "
        "The Merla's marshy valley is crossed at two bridges; Bogodukhov's wooden houses (DR13), stone "
        "centre (DR14) and the reinforced sugar factory (DR15) stand on the north bank; south of the "
        "river the open wheat country (levels 1-2) gives long fire lanes to the railway embankment "
        "(level 2), with woods on both flanks.",
        base_level=1.0,
    )
    merla: list[Point] = [(-1, 9), "G10", "O08", "V10", "AC09", (32, 9)]
    b.carve(merla, 0.0, 1.2, 0.5)
    b.hill("P17", 2.4, 8.0, 3.0, base=1.0)
    b.hill("AA02", 2.2, 4.0, 2.0, base=1.0)
    b.paint(b.band(merla, 3.0), "m", chance=0.6, salt="mm")
    b.paint(b.path(merla), "~")
    rail = b.path([(-1, 19), "P20", (32, 19)], smooth=False)
    b.set_z(rail, 2.0, mode="max")
    for f in (["C12", "M12", "M18", "C18"], ["R12", "AB12", "AB17", "R17"], ["F01", "K01", "K05", "F05"]):
        b.paint(b.polygon(f), "w", over=".")
    b.paint(b.ellipse("B14", 2.5, 3.5, rough=0.6, salt="wl"), "T", over=".w")
    b.paint(b.ellipse("AE15", 2.5, 3.5, rough=0.6, salt="wr"), "T", over=".w")
    b.paint(b.ellipse("AC04", 2.0, 1.5, rough=0.5, salt="wn"), "T")
    b.road([(10, 22), (10, -1)], smooth=False, bridges=1)  # the Kharkov road
    b.road([(22, 22), (22, -1)], smooth=False, bridges=1)  # the Valki road
    b.road([(-1, 5), "N05", "P05", "Y04", (32, 4)])  # the town's main street
    town = [h for h in b.rect(8, 2, 26, 7) if b.map.road[b.map.index(h)]]
    b.village(town, density=0.85, stone=0.25, salt="bog", garden_chance=0.5)
    b.paint([b.hex("S03"), b.hex("S04")], "R")  # the sugar factory
    b.paint([b.hex("O04")], "s", keep="=")
    b.paint(rail, ".", keep="=~")
    return b.finish()


def saur_mogila() -> BattleMap:
    """Saur-Mogila and the Mius front, August 1943.

    North is up; the Soviet attack comes from the east over the Mius. The Mius flows north-south
    near the east edge; the ground rises west to the Saur-Mogila mound (Hill 277.9, level 4)
    with the German fortified line - trenches and bunkers - on its slopes; ravines (balkas) cut
    the slopes; villages on the river and behind the mound.
    """
    b = MapBuilder(
        32,
        22,
        "Saur-Mogila on the Mius, August 1943",
        "The Mius front, 18-31 August 1943: the Southern Front's 5th Shock Army storms the 'Mius-Front' "
        "and the mound of Saur-Mogila (Hill 277.9), the highest point of the Donbass, fortified by the "
        "6th Army since 1942. The Mius is crossed at one bridge (and by infantry where the scenario "
        "allows); the ground climbs from the river (level 0) to the mound (level 4); trenches (brush) "
        "and bunkers (DR15) ring its slopes; balkas are the covered ways up; the villages' wooden houses "
        "(DR13) and stone collective-farm buildings (DR14) stand on the river and behind the mound.",
        base_level=1.0,
    )
    mius: list[Point] = [(27, -1), "AB06", "AA12", "AC17", (27, 22)]
    b.carve(mius, 0.0, 2.5, 0.6)
    b.hill("J11", 4.6, 8.0, 7.0, base=1.0)  # Saur-Mogila
    b.paint(b.path(mius), "~")
    b.paint(b.band(mius, 2.6), ",", over=".", chance=0.5, salt="bank")
    balkas = [["V03", "P05", "K06"], ["W17", "Q16", "M15"]]
    for bk in balkas:
        b.carve(bk, 0.0, 0.4, 1.0)
        b.paint(b.band(bk, 1.3), ",", over=".")
        b.paint(b.band(bk, 0.9), "T", over=".,", chance=0.5, salt="bkw")
    for f in (["Q08", "W08", "W13", "Q13"], ["B16", "G16", "G21", "B21"]):
        b.paint(b.polygon(f), "w", over=".")
    b.paint(b.ellipse("C04", 2.5, 2.0, rough=0.6, salt="nw"), "T")
    b.paint(b.ellipse("AE20", 1.5, 1.5, rough=0.5, salt="se"), "T", over=".,")
    b.paint(b.ellipse("R19", 3.0, 2.0, rough=0.6, salt="s2"), "T", over=".,")
    b.paint(b.ellipse("S02", 2.5, 1.5, rough=0.6, salt="n2"), "T", over=".,")
    b.road([(32, 10), "AD10", "V10", "J11", "C10", (-1, 9)], bridges=1)  # the Snezhnoye road
    b.road(["J11", "I19", (8, 22)])
    b.road(["AD10", "AD03", (29, -1)])  # the east-bank road
    b.road(["C10", "D03", (3, -1)])
    b.village([h for h in b.rect(28, 1, 31, 12) if b.map.road[b.map.index(h)]], density=0.7, salt="mar")
    b.village(
        [h for h in b.rect(0, 3, 5, 12) if b.map.road[b.map.index(h)]], density=0.8, stone=0.2, salt="ste"
    )
    b.paint([b.hex("C07")], "s", keep="=")
    rings = [b.ring_of(b.blob("J11", 2, rough=0.0)), b.ring_of(b.blob("J11", 4, rough=0.0))]
    for ring, salt in zip(rings, ("r1", "r2"), strict=True):
        for h in ring:
            if b.code(h) in ".w" and noise(*h.offset, salt) < 0.7:
                b.paint([h], ",")
            if b.code(h) == "," and noise(*h.offset, salt + "b") < 0.18:
                b.paint([h], "R")
    b.paint([b.hex("J11")], "R", keep="=")  # the mound's command post
    for lab in ("H09", "M10", "K14", "F12", "N13"):  # bunkers on the slopes
        b.paint([b.hex(lab)], "R", keep="=")
    return b.finish()


MAPS: dict[str, Callable[[], BattleMap]] = {
    "kharkov": kharkov,
    "prokhorovka": prokhorovka,
    "ponyri": ponyri,
    "dnieper": dnieper,
    "steppe_village": steppe_village,
    "sinyavino": sinyavino,
    "stalingrad": stalingrad,
    "kuban": kuban,
    "oboyan": oboyan,
    "teploye": teploye,
    "bolkhov": bolkhov,
    "bogodukhov": bogodukhov,
    "saur_mogila": saur_mogila,
}


# =====================================================================================
# Command line
# =====================================================================================


def build(name: str) -> BattleMap:
    """Build the shipped map ``name`` (a key of :data:`MAPS`).

    Raises:
        KeyError: for an unknown name.
    """
    return MAPS[name]()


def write(names: Iterable[str], out_dir: Path) -> list[Path]:
    """Build ``names`` and save them atomically as ``out_dir/<name>.json``; returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        p = out_dir / f"{name}.json"
        build(name).save(p)
        paths.append(p)
    return paths


def check(names: Iterable[str], out_dir: Path) -> list[str]:
    """Names whose file in ``out_dir`` is missing or differs from what the tool builds."""
    stale = []
    for name in names:
        p = out_dir / f"{name}.json"
        try:
            text = p.read_text(encoding="utf-8")
        except OSError:
            stale.append(name)
            continue
        if text != build(name).to_text():
            stale.append(name)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: build (default) or ``--check`` the shipped maps; returns exit status."""
    ap = argparse.ArgumentParser(description="Build hexwar's shipped maps from hand-authored layouts.")
    ap.add_argument("names", nargs="*", help=f"maps to build (default all: {', '.join(MAPS)})")
    ap.add_argument("--check", action="store_true", help="verify the files are up to date; write nothing")
    ap.add_argument("--out", type=Path, default=MAPS_DIR, help="folder of the map files (default maps/)")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in MAPS]
    if unknown:
        print(f"build_maps: unknown map(s) {unknown}; expected some of {list(MAPS)}", file=sys.stderr)
        return 2
    names = args.names or list(MAPS)
    try:
        if args.check:
            stale = check(names, args.out)
            for n in stale:
                print(f"stale: {args.out / (n + '.json')} differs from what tools/build_maps.py builds")
            if stale:
                print("run: python tools/build_maps.py", file=sys.stderr)
                return 1
            print(f"ok: {len(names)} map(s) up to date")
            return 0
        for p in write(names, args.out):
            print(f"wrote {p}")
    except HexwarError as exc:
        print(f"build_maps: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
