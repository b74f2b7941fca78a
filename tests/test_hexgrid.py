"""Hex grid maths (R2.1-R2.3): round trips, labels, neighbours, distance, rings, layouts."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.model.hexgrid import (
    DIRECTIONS,
    Hex,
    HexLabelError,
    Layout,
    column_index,
    column_letters,
    hex_line,
)

coords = st.integers(min_value=-300, max_value=300)
hexes = st.builds(Hex, coords, coords)


def test_offset_axial_offset_round_trip_60x120_and_negative():
    # R2.2: odd-q offset <-> axial, for every hex of a 60x120 range and its negative mirror.
    for col in range(-60, 60):
        for row in range(-120, 120):
            h = Hex.from_offset(col, row)
            assert h.offset == (col, row)
            assert h.q + h.r + h.s == 0


def test_label_round_trip_60x120():
    for col in range(60):
        for row in range(120):
            h = Hex.from_offset(col, row)
            digits = 3
            assert Hex.from_label(h.to_label(digits)) == h
            assert Hex.from_label(h.label) == h


def test_pixel_round_trip_60x120_both_y_conventions():
    for layout in (Layout(17.0, (3.0, -5.0)), Layout(1.0, (0.0, 0.0), y_down=False)):
        for col in range(-60, 60, 3):
            for row in range(-120, 120):
                h = Hex.from_offset(col, row)
                assert layout.pixel_to_hex(*layout.hex_to_pixel(h)) == h


@pytest.mark.parametrize(
    ("index", "letters"),
    [(0, "A"), (25, "Z"), (26, "AA"), (51, "AZ"), (52, "BA"), (701, "ZZ"), (702, "AAA")],
)
def test_column_letters_spreadsheet_style(index, letters):
    # R2.2: columns A..Z, AA, AB, ...
    assert column_letters(index) == letters
    assert column_index(letters) == index
    assert column_index(letters.lower()) == index


def test_labels_d07_and_odd_column_offset():
    # R2.2: A01 is the top-left hex; D is column 3 (odd, sits half a hex lower).
    assert Hex.from_label("A01").offset == (0, 0)
    assert Hex.from_label("D07").offset == (3, 6)
    assert Hex.from_label("d07") == Hex.from_label("D07")
    assert Hex.from_label("AA12").offset == (26, 11)
    assert Hex.from_offset(3, 104).label == "D105"
    assert Hex.from_offset(3, 4).to_label(3) == "D005"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "07",
        "D",
        "D00",
        "7D",
        "D-1",
        "Ä07",
        "D 0 7",
        None,
        12,
        # found by trying hexwar as a new user: non-ASCII digits parsed as
        # D07; a 5000-digit row was a ValueError traceback; 100000 letters
        # took seconds
        pytest.param("D\u0660\u0667", id="arabic-indic-digits"),
        pytest.param("A" + "9" * 5000, id="5000-digit-row"),
        pytest.param("Z" * 100_000 + "01", id="100000-letters"),
    ],
)
def test_bad_labels_raise_clear_error(bad):
    with pytest.raises(HexLabelError) as exc:
        Hex.from_label(bad)
    assert "label" in str(exc.value)


def test_neighbours_of_even_column_exact():
    # C05 is column 2 (even). Odd-q: even columns sit higher, so its NE neighbour is D04.
    h = Hex.from_label("C05")
    assert [h.neighbor(d).label for d in range(1, 7)] == ["C04", "D04", "D05", "C06", "B05", "B04"]


def test_neighbours_of_odd_column_exact():
    # D05 is column 3 (odd, half a hex lower): its NE neighbour is E05, its SE is E06.
    h = Hex.from_label("D05")
    assert [h.neighbor(d).label for d in range(1, 7)] == ["D04", "E05", "E06", "D06", "C06", "C05"]


def test_neighbour_symmetry_over_a_board():
    for col in range(20):
        for row in range(15):
            h = Hex.from_offset(col, row)
            for d in range(1, 7):
                n = h.neighbor(d)
                opposite = (d + 2) % 6 + 1
                assert n.neighbor(opposite) == h
                assert h.distance(n) == 1
                assert h.direction_to(n) == d


def test_direction_numbers_are_d6_faces_clockwise_from_north():
    # R2.3
    assert DIRECTIONS == {1: (0, -1), 2: (1, -1), 3: (1, 0), 4: (0, 1), 5: (-1, 1), 6: (-1, 0)}
    with pytest.raises(ValueError):
        Hex(0, 0).neighbor(7)


def test_north_is_up_on_screen_and_clockwise():
    lay = Layout(10.0)
    cx, cy = lay.hex_to_pixel(Hex(0, 0))
    angles = []
    for d in range(1, 7):
        x, y = lay.hex_to_pixel(Hex(0, 0).neighbor(d))
        angles.append(math.degrees(math.atan2(x - cx, -(y - cy))) % 360)  # compass bearing
    assert angles == pytest.approx([0, 60, 120, 180, 240, 300])


def test_ring_and_spiral_sizes_and_distances():
    c = Hex(2, -3)
    assert c.ring(0) == [c]
    for r in range(1, 6):
        ring = c.ring(r)
        assert len(ring) == 6 * r and len(set(ring)) == 6 * r
        assert all(c.distance(h) == r for h in ring)
    sp = c.spiral(3)
    assert len(sp) == 1 + 3 * 3 * 4 and set(sp) == set(c.within(3))


def test_hex_line_has_distance_plus_one_adjacent_hexes():
    a, b = Hex.from_label("A01"), Hex.from_label("J08")
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b and len(line) == a.distance(b) + 1
    assert all(p.distance(q) == 1 for p, q in zip(line, line[1:], strict=False))


def test_rotation_six_times_is_identity():
    h, c = Hex(3, -1), Hex(1, 1)
    x = h
    for _ in range(6):
        x = x.rotate_right(c)
    assert x == h and h.rotate_left(c).rotate_right(c) == h


def test_polygon_corners_lie_at_size_from_centre():
    lay = Layout(12.0, (100.0, 50.0))
    h = Hex.from_label("E03")
    cx, cy = lay.hex_to_pixel(h)
    corners = lay.polygon_corners(h)
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(12.0)


@given(hexes, hexes)
def test_distance_symmetric_and_zero_only_on_self(a, b):
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a, b, c):
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(
    hexes, st.floats(min_value=1.0, max_value=80.0), st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.booleans()
)
def test_pixel_round_trip_property(h, size, ox, oy, y_down):
    lay = Layout(size, (ox, oy), y_down)
    assert lay.pixel_to_hex(*lay.hex_to_pixel(h)) == h


@given(hexes, st.floats(min_value=0.0, max_value=0.999), st.floats(min_value=0.0, max_value=2 * math.pi))
def test_pixel_picking_inside_inner_circle(h, frac, angle):
    # Any point within the inscribed circle (radius sqrt(3)/2 * size) picks the hex itself.
    lay = Layout(20.0)
    cx, cy = lay.hex_to_pixel(h)
    rad = frac * math.sqrt(3) / 2 * 20.0
    assert lay.pixel_to_hex(cx + rad * math.cos(angle), cy + rad * math.sin(angle)) == h
