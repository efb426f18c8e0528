"""The board: the shipped map of Canaan (TR-*, MP-*), the Board API, and the map validator."""

from __future__ import annotations

import copy
import json
import math
import pickle
from collections import Counter, deque

from heapq import heappop, heappush
from importlib import resources

import pytest

from plsim.board import (
    IMPASSABLE,
    Board,
    MapError,
    Terrain,
    board_from_data,
    default_board,
    hex_centre,
    load_board,
)
from plsim.board.hexgrid import grid_neighbours, map_centre

MP1_TABLE = {
    "Syrophoenicia": (4, 4),
    "Gilead": (5, 1),
    "Israel": (7, 1),
    "Judah": (6, 3),
    "Philistia": (5, 4),
    "Edom": (4, 4),
    None: (9, 1),
}


def default_map_path():
    return resources.files("plsim.board").joinpath("data/default_map.json")


@pytest.fixture(scope="module")
def board() -> Board:
    return default_board()


def _mean_col(board: Board, region: str) -> float:
    cols = [board.coords[board.settlements[i].hex][0] for i in board.regions[region].settlements]
    return sum(cols) / len(cols)


def _mean_row(board: Board, region: str) -> float:
    rows = [board.coords[board.settlements[i].hex][1] for i in board.regions[region].settlements]
    return sum(rows) / len(rows)


def _land_component(board: Board, start: int) -> set[int]:
    seen, frontier = {start}, deque([start])
    while frontier:
        for nxt in board.neighbours[frontier.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


# --- the shipped map -------------------------------------------------------------------------


def test_mp1_forty_settlements_in_six_regions_and_nine_unregioned(board):
    """MP-1: 40 settlements; per region the settlement and Canaanite counts of the table."""
    assert len(board.settlements) == 40
    assert set(board.regions) == {name for name in MP1_TABLE if name}
    for region, (total, canaanite) in MP1_TABLE.items():
        members = [s for s in board.settlements if s.region == region]
        assert (len(members), sum(s.canaanite for s in members)) == (total, canaanite), region
    assert sum(len(r.settlements) for r in board.regions.values()) == 31


def test_mp1_region_specs_list_their_settlements(board):
    """MP-1/MP-2: a region is exactly the group of settlements that name it."""
    for name, region in board.regions.items():
        assert region.name == name
        assert region.settlements == tuple(s.id for s in board.settlements if s.region == name)
        assert region.colour.startswith("#")


def test_mp3_edom_exists_only_with_six_players(board):
    """MP-3: Edom's four settlements exist only in 6-player games, its region too."""
    edom = board.regions["Edom"]
    assert edom.min_players == 6
    assert all(board.settlements[i].min_players == 6 for i in edom.settlements)
    for n_players in range(2, 6):
        assert not set(edom.settlements) & set(board.settlements_for(n_players))
    assert set(edom.settlements) <= set(board.settlements_for(6))
    assert board.settlements_for(6) == tuple(range(40))


def test_mp3_some_settlements_only_from_three_to_five_players(board):
    """MP-3: settlements_for grows with the player count; some non-Edom ones start at 3..5."""
    counts = [len(board.settlements_for(n)) for n in range(2, 7)]
    assert counts == sorted(counts) and counts[-1] == 40
    late = [s for s in board.settlements if 3 <= s.min_players <= 5]
    assert late and all(s.region is None for s in late)


def test_mp3_every_region_keeps_a_judge_sized_group_where_it_exists(board):
    """MP-3 with V-2: a region that exists has at least 4 settlements, so games do not end at once."""
    for n_players in range(2, 7):
        present = set(board.settlements_for(n_players))
        for region in board.regions.values():
            if region.min_players <= n_players:
                assert len(present & set(region.settlements)) >= 4, (region.name, n_players)
    syrophoenicia = board.regions["Syrophoenicia"].settlements
    assert set(syrophoenicia) <= set(board.settlements_for(2))


def test_mp4_mp5_start_data_has_canaanite_flags_and_no_city(board):
    """MP-4/MP-5: the data carries who starts Canaanite; nothing in it makes a city."""
    assert sum(s.canaanite for s in board.settlements) == 18
    raw = json.loads(default_map_path().read_text("utf-8"))
    for entry in raw["settlements"]:
        assert set(entry) <= {"name", "col", "row", "region", "canaanite", "min_players"}


def test_mp6_every_settlement_reachable_by_land(board):
    """MP-6: every settlement can walk to every other without crossing water."""
    reached = _land_component(board, board.settlements[0].hex)
    assert all(s.hex in reached for s in board.settlements)


def test_mp6_most_settlements_on_plains_none_on_water(board):
    """MP-6: most villages stand on plains; TR-2: none on water."""
    kinds = Counter(board.terrain[s.hex] for s in board.settlements)
    assert kinds[Terrain.WATER] == 0
    assert kinds[Terrain.PLAIN] > len(board.settlements) * 0.75


def test_mp6_settlements_not_adjacent_and_spread(board):
    """MP-6: settlements are at least 2 hexes apart and each has a neighbour within a few hexes."""
    hexes = [s.hex for s in board.settlements]
    for a in hexes:
        others = [board.distance(a, b) for b in hexes if b != a]
        assert min(others) >= 2
        assert min(others) <= 6


def test_mp6_regions_placed_by_real_geography(board):
    """MP-6: Syrophoenicia NW, Philistia SW coast, Israel north/centre, Judah south centre,
    Gilead east of Israel (across the Jordan), Edom in the south-east."""
    col, row = (lambda r: _mean_col(board, r)), (lambda r: _mean_row(board, r))
    assert row("Syrophoenicia") < row("Israel") < row("Judah")
    assert row("Syrophoenicia") < row("Philistia")
    assert col("Syrophoenicia") < col("Israel") and col("Philistia") < col("Judah")
    assert col("Gilead") > col("Israel") + 3
    assert col("Edom") > col("Judah") and row("Edom") > row("Judah")
    assert row("Israel") < row("Gilead") + 3 and row("Judah") > row("Gilead")
    # the Philistine and Phoenician towns stand on the coastal plain: the sea is a few hexes west
    for region in ("Syrophoenicia", "Philistia"):
        for i in board.regions[region].settlements:
            c, r = board.coords[board.settlements[i].hex]
            west = [board.terrain[board.hex_of(c - k, r)] for k in range(1, min(c, 4) + 1)]
            assert Terrain.WATER in west, board.settlements[i].name


def test_mp6_named_after_places_of_the_land(board):
    """MP-6: a few of the names the game would be expected to carry, in their regions."""
    expected = {
        "Tyre": "Syrophoenicia",
        "Sidon": "Syrophoenicia",
        "Gaza": "Philistia",
        "Ashkelon": "Philistia",
        "Samaria": "Israel",
        "Megiddo": "Israel",
        "Jerusalem": "Judah",
        "Hebron": "Judah",
        "Ramoth-Gilead": "Gilead",
        "Bozrah": "Edom",
        "Jericho": None,
    }
    for name, region in expected.items():
        assert board.settlement_by_name(name).region == region


def test_mp7_ring_is_every_settlement_once_clockwise(board):
    """MP-7: the ring lists all settlements once, in clockwise order of bearing from the centre."""
    assert sorted(board.ring) == list(range(40))
    mid_x, mid_y = map_centre(board.width, board.height)
    bearings = []
    for i in board.ring:
        x, y = hex_centre(*board.coords[board.settlements[i].hex])
        bearings.append(math.atan2(x - mid_x, y - mid_y) % (2 * math.pi))
    assert bearings == sorted(bearings)  # clockwise from north: north, east, south, west


def test_mp7_ring_order_goes_north_east_south_west(board):
    """MP-7: clockwise means Dan (north) comes before Ramoth-Gilead (east), then Edom, then Gaza."""
    position = {sid: k for k, sid in enumerate(board.ring)}
    order = [board.settlement_by_name(n).id for n in ("Dan", "Ramoth-Gilead", "Teman", "Gaza", "Tyre")]
    assert [position[i] for i in order] == sorted(position[i] for i in order)


def test_tr1_entry_costs_plain_1_mountain_2_desert_2(board):
    """TR-1: entering a plain costs 1, a mountain 2, a desert 2; water is the impassable sentinel."""
    expected = {Terrain.PLAIN: 1, Terrain.MOUNTAIN: 2, Terrain.DESERT: 2, Terrain.WATER: IMPASSABLE}
    assert len(board.enter_cost) == board.width * board.height
    for hex_id, terrain in enumerate(board.terrain):
        assert board.enter_cost[hex_id] == expected[terrain]
    assert set(board.terrain) == set(Terrain)


def test_tr2_water_never_in_neighbours(board):
    """TR-2: no general enters water: water hexes have no neighbours and are nobody's neighbour."""
    for hex_id, near in enumerate(board.neighbours):
        if board.terrain[hex_id] == Terrain.WATER:
            assert near == ()
        assert all(board.terrain[n] != Terrain.WATER for n in near)
        assert all(board.distance(hex_id, n) == 1 for n in near)
        assert all(hex_id in board.neighbours[n] for n in near)


def test_tr3_great_sea_along_the_west(board):
    """TR-3: the west column is water from north to south (the coast)."""
    assert all(board.terrain[board.hex_of(0, row)] == Terrain.WATER for row in range(board.height))


def test_tr3_desert_in_the_east_strip_and_the_southern_edge(board):
    """TR-3: the easternmost column and the southern rows are desert (land hexes of them)."""
    east = [board.terrain[board.hex_of(board.width - 1, r)] for r in range(board.height)]
    assert all(t == Terrain.DESERT for t in east)
    for row in range(board.height - 2, board.height):
        land = [board.terrain[board.hex_of(c, row)] for c in range(board.width)]
        land = [t for t in land if t != Terrain.WATER]
        assert sum(t == Terrain.DESERT for t in land) >= 0.75 * len(land)


def test_tr3_interior_water_narrows_the_centre(board):
    """TR-3: bodies of water off the border (Sea of Galilee, the Jordan, the Dead Sea) exist, and
    crossing from the west bank to Gilead goes through a few passes only."""
    border = {board.hex_of(c, r) for c in range(board.width) for r in (0, board.height - 1)}
    border |= {board.hex_of(c, r) for r in range(board.height) for c in (0, board.width - 1)}
    water = {h for h, t in enumerate(board.terrain) if t == Terrain.WATER}
    sea = _water_component(board, board.hex_of(0, 0))
    interior = water - sea
    assert len(interior) >= 8
    assert not interior & border
    # the Jordan's column is open only at a few fords in the middle rows
    jordan_col = board.coords[next(iter(interior))][0]
    mid_rows = range(board.height // 4, 3 * board.height // 4)
    open_hexes = [r for r in mid_rows if board.terrain[board.hex_of(jordan_col, r)] != Terrain.WATER]
    assert 1 <= len(open_hexes) <= 4


def _water_component(board: Board, start: int) -> set[int]:
    seen, frontier = {start}, deque([start])
    while frontier:
        col, row = board.coords[frontier.popleft()]
        for c, r in grid_neighbours(col, row, board.width, board.height):
            h = board.hex_of(c, r)
            if board.terrain[h] == Terrain.WATER and h not in seen:
                seen.add(h)
                frontier.append(h)
    return seen


def test_tr3_mountain_ranges_separate_regions(board):
    """TR-3: crossing from a region to the nearest settlement of another costs more than walking
    the same number of plain hexes, somewhere on each of the big borders."""
    def cheapest(a: int, b: int) -> int:
        best, queue = {a: 0}, [(0, a)]
        while queue:
            cost, here = heappop(queue)
            if here == b:
                return cost
            for nxt in board.neighbours[here]:
                if cost + board.enter_cost[nxt] < best.get(nxt, IMPASSABLE):
                    best[nxt] = cost + board.enter_cost[nxt]
                    heappush(queue, (best[nxt], nxt))
        raise AssertionError("unreachable")

    pairs = [("Tyre", "Hazor"), ("Ekron", "Gibeon"), ("Bethel", "Jerusalem"), ("Shechem", "Samaria")]
    slower = 0
    for a, b in pairs:
        ha, hb = board.settlement_by_name(a).hex, board.settlement_by_name(b).hex
        slower += cheapest(ha, hb) > board.distance(ha, hb)
    assert slower >= 3


# --- the Board API ---------------------------------------------------------------------------


def test_board_tables_are_tuples_indexed_by_hex_id(board):
    """The engine reads plain tuples; ids are row * width + col (odd-r coordinates)."""
    size = board.width * board.height
    for table in (board.terrain, board.enter_cost, board.neighbours, board.settlement_at, board.coords):
        assert isinstance(table, tuple) and len(table) == size
    assert 14 <= board.width <= 18 and 18 <= board.height <= 24
    for hex_id, (col, row) in enumerate(board.coords):
        assert board.hex_of(col, row) == hex_id
    for spec in board.settlements:
        assert board.settlement_at[spec.hex] == spec.id
    assert sum(1 for s in board.settlement_at if s >= 0) == 40


def test_board_is_immutable_and_picklable(board):
    """Workers receive the board by pickling; nobody may change it in between."""
    with pytest.raises(AttributeError):
        board.width = 3
    with pytest.raises(AttributeError):
        board.settlements[0].name = "x"
    clone = pickle.loads(pickle.dumps(board))
    assert clone.neighbours == board.neighbours and clone.ring == board.ring


def test_odd_r_neighbours_and_distance():
    """Odd rows sit half a hex east: (1,1) touches (1,0),(2,0),(0,1),(2,1),(1,2),(2,2);
    an even row's hex touches the row above at its own column and the one to the west."""
    data = _tiny_map()
    data["terrain"] = ["PPPP", "PPPP", "PPPP"]
    tiny = board_from_data(data)
    def around(col, row):
        return set(tiny.neighbours[tiny.hex_of(col, row)])

    def ids(cells):
        return {tiny.hex_of(c, r) for c, r in cells}

    assert around(1, 1) == ids([(1, 0), (2, 0), (0, 1), (2, 1), (1, 2), (2, 2)])
    assert around(1, 2) == ids([(0, 1), (1, 1), (0, 2), (2, 2)])  # even row, bottom edge
    assert around(0, 0) == ids([(1, 0), (0, 1)])
    assert tiny.distance(tiny.hex_of(0, 0), tiny.hex_of(3, 2)) == 4
    assert tiny.distance(tiny.hex_of(0, 1), tiny.hex_of(1, 0)) == 1
    with pytest.raises(ValueError):
        tiny.hex_of(4, 0)


def test_settlement_by_name_and_loaders(board, tmp_path):
    assert board.settlement_by_name("Jerusalem").region == "Judah"
    with pytest.raises(KeyError, match="Babylon"):
        board.settlement_by_name("Babylon")
    assert load_board("default") is board and load_board("canaan") is board
    path = tmp_path / "copy.json"
    path.write_text(default_map_path().read_text("utf-8"))
    copy_board = load_board(path)
    assert copy_board.neighbours == board.neighbours and copy_board.ring == board.ring


# --- validation ------------------------------------------------------------------------------


def _tiny_map() -> dict:
    """A 4x3 playable map: two settlements on land, a lake in the middle."""
    return {
        "name": "tiny",
        "width": 4,
        "height": 3,
        "terrain": ["PPMP", "PWPP", "DPPP"],
        "regions": {"North": {"colour": "#ff0000", "min_players": 2}},
        "settlements": [
            {"name": "A", "col": 0, "row": 0, "region": "North", "canaanite": True},
            {"name": "B", "col": 3, "row": 2, "region": None},
            {"name": "C", "col": 3, "row": 0, "region": "North", "min_players": 4},
        ],
    }


def _write(tmp_path, data) -> str:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_tiny_map_loads(tmp_path):
    tiny = load_board(_write(tmp_path, _tiny_map()))
    assert tiny.name == "tiny" and len(tiny.settlements) == 3
    assert tiny.settlements_for(2) == (0, 1) and tiny.settlements_for(4) == (0, 1, 2)
    assert tiny.regions["North"].settlements == (0, 2)
    assert sorted(tiny.ring) == [0, 1, 2]


def _broken(change) -> dict:
    data = copy.deepcopy(_tiny_map())
    change(data)
    return data


BAD_MAPS = {
    "unknown region": (lambda d: d["settlements"][1].update(region="Mesopotamia"), "Mesopotamia"),
    "on water": (lambda d: d["settlements"][1].update(col=1, row=1), "B at (1, 1) is on water"),
    "duplicate hex": (lambda d: d["settlements"][1].update(col=0, row=0), "share the hex (0, 0)"),
    "short row": (lambda d: d["terrain"].__setitem__(1, "PWP"), "row 1 must be 4 characters"),
    "unknown terrain": (lambda d: d["terrain"].__setitem__(2, "DPXP"), "unknown terrain 'X'"),
    "missing row": (lambda d: d["terrain"].pop(), "list of 3 row strings"),
    "off the grid": (lambda d: d["settlements"][1].update(col=4), "B at (4, 2) is off the 4x3 grid"),
    "duplicate name": (lambda d: d["settlements"][2].update(name="A"), "duplicate settlement name 'A'"),
    "unknown ring name": (lambda d: d.update(ring=["A", "B", "Z"]), "unknown settlement 'Z'"),
    "ring missing": (lambda d: d.update(ring=["A", "B"]), "ring is missing settlement C"),
    "ring repeats": (lambda d: d.update(ring=["A", "B", "C", "A"]), "ring lists A more than once"),
    "bad player count": (lambda d: d["settlements"][0].update(min_players=9), "min_players must be 2..6"),
}


@pytest.mark.parametrize("problem", sorted(BAD_MAPS))
def test_bad_map_raises_map_error_naming_the_problem(tmp_path, problem):
    change, message = BAD_MAPS[problem]
    with pytest.raises(MapError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        load_board(_write(tmp_path, _broken(change)))
    assert "\n" not in str(info.value)


def test_unreachable_settlement_is_named(tmp_path):
    """MP-6: a settlement walled off by water is refused, by name."""
    data = _tiny_map()
    data["terrain"] = ["PPWP", "PWWW", "DPPP"]
    with pytest.raises(MapError, match="settlement C cannot be reached by land from A"):
        load_board(_write(tmp_path, data))


def test_listed_ring_is_used(tmp_path):
    """MP-7: a ring given by the file wins over the clockwise order."""
    data = _broken(lambda d: d.update(ring=["C", "A", "B"]))
    assert load_board(_write(tmp_path, data)).ring == (2, 0, 1)


def test_missing_file_and_bad_json(tmp_path):
    with pytest.raises(MapError, match="map file not found"):
        load_board(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(MapError, match="not valid JSON"):
        load_board(bad)


def _default_data() -> dict:
    return json.loads(default_map_path().read_text("utf-8"))


def _rename_region(data: dict, name: str, old: str, new: str | None) -> None:
    for entry in data["settlements"]:
        if entry["name"] == name:
            assert entry["region"] == old
            entry["region"] = new


def test_mp1_standard_map_with_wrong_counts_is_refused(tmp_path):
    """MP-1: a map flagged standard whose region counts differ names the region and its counts."""
    data = _default_data()
    _rename_region(data, "Jericho", None, "Judah")
    with pytest.raises(MapError, match=r"MP-1: Judah has 7 settlements \(4 Canaanite\), needs 6 \(3"):
        load_board(_write(tmp_path, data))
    data["standard"] = False
    assert len(load_board(_write(tmp_path, data)).regions["Judah"].settlements) == 7


def test_mp1_standard_map_with_wrong_canaanite_flags_is_refused(tmp_path):
    """MP-1: the Canaanite counts are checked too."""
    data = _default_data()
    next(e for e in data["settlements"] if e["name"] == "Tyre")["canaanite"] = False
    with pytest.raises(MapError, match=r"Syrophoenicia has 4 settlements \(3 Canaanite\)"):
        load_board(_write(tmp_path, data))


def test_mp3_standard_map_with_edom_always_present_is_refused(tmp_path):
    """MP-3: on the standard map Edom exists only from 6 players."""
    data = _default_data()
    data["regions"]["Edom"]["min_players"] = 2
    for entry in data["settlements"]:
        if entry["region"] == "Edom":
            entry["min_players"] = 2
    with pytest.raises(MapError, match="MP-3: region Edom exists from 2 players, not 6"):
        load_board(_write(tmp_path, data))


def test_mp3_standard_region_shrinking_under_four_is_refused(tmp_path):
    """MP-3 with V-2: a region of the standard map may not drop under 4 settlements for a count."""
    data = _default_data()
    next(e for e in data["settlements"] if e["name"] == "Tyre")["min_players"] = 3
    with pytest.raises(MapError, match="Syrophoenicia has only 3 settlements with 2 players"):
        load_board(_write(tmp_path, data))
