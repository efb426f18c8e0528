"""Reading a map file into a `Board`, and refusing maps the game cannot be played on.

A map is data (MP-6): a JSON file a user can edit. Every problem is reported as one `MapError`
line that names the offending settlement, region or row, so a map author can fix it at once.
"""

from __future__ import annotations

import json
import math
from collections import Counter, deque
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from plsim.board.hexgrid import (
    TERRAIN_CHARS,
    Board,
    RegionSpec,
    SettlementSpec,
    Terrain,
    hex_centre,
    map_centre,
)
from plsim.rules import MAX_PLAYERS, MIN_PLAYERS
from plsim.textfile import InputFileError, read_input_text

DEFAULT_MAP_NAMES = ("default", "canaan")

# MP-1: region -> (settlements, Canaanite at start); None is "no region".
STANDARD_COUNTS: dict[str | None, tuple[int, int]] = {
    "Syrophoenicia": (4, 4),
    "Gilead": (5, 1),
    "Israel": (7, 1),
    "Judah": (6, 3),
    "Philistia": (5, 4),
    "Edom": (4, 4),
    None: (9, 1),
}
STANDARD_TOTAL = 40
STANDARD_MIN_PLAYERS = {"Edom": 6}  # MP-3: Edom exists only with 6 players, the others always
JUDGE_MIN_SETTLEMENTS = 4  # a region needs 4 settlements to hold a Judge (V-2, TI)


# the largest map the engine's types carry: a hex and a settlement are 16-bit numbers, a region
# an 8-bit one (core/rules/src/board.rs)
MAX_HEXES = 65_535
MAX_REGIONS = 255


class MapError(ValueError):
    """A map file that cannot be played on; the message is one line naming the problem."""


def load_board(path_or_name: str | Path) -> Board:
    """Load and validate a map: "default"/"canaan" is the shipped map, anything else a JSON path."""
    if str(path_or_name) in DEFAULT_MAP_NAMES:
        return default_board()
    path = Path(path_or_name)
    try:
        text = read_input_text(path)
    except FileNotFoundError:
        raise MapError(f"map file not found: {path}") from None
    except OSError as exc:
        raise MapError(f"cannot read map file {path}: {exc.strerror}") from None
    except InputFileError as exc:
        raise MapError(f"map file {path} {exc}") from None
    return board_from_text(text, source=str(path))


@cache
def default_board() -> Board:
    """The shipped map of Canaan, loaded once per process."""
    text = resources.files("plsim.board").joinpath("data/default_map.json").read_text("utf-8")
    return board_from_text(text, source="default_map.json", standard=True)


def board_from_text(text: str, source: str = "map", standard: bool = False) -> Board:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise MapError(f"{source}: nests its JSON deeper than Python's parser goes") from None
    return board_from_data(data, standard=standard)


def board_from_data(data: Any, standard: bool = False) -> Board:
    """Build a Board from the parsed JSON; `standard` (or "standard": true) enforces MP-1 counts."""
    if not isinstance(data, dict):
        raise MapError("a map must be a JSON object")
    width, height = _grid_size(data)
    terrain = _terrain(data.get("terrain"), width, height)
    regions_raw = _regions_raw(data.get("regions", {}))
    settlements = _settlements(data.get("settlements"), regions_raw, terrain, width, height)
    regions = {
        name: RegionSpec(
            name=name,
            colour=colour,
            min_players=min_players,
            settlements=tuple(s.id for s in settlements if s.region == name),
        )
        for name, (colour, min_players) in regions_raw.items()
    }
    ring = _ring(data.get("ring"), settlements, width, height)
    board = Board.build(
        name=str(data.get("name", "map")),
        width=width,
        height=height,
        terrain=terrain,
        settlements=settlements,
        regions=regions,
        ring=ring,
    )
    _check_reachable(board)
    if standard or data.get("standard") is True:
        _check_standard_counts(board)
    return board


def _grid_size(data: dict) -> tuple[int, int]:
    width, height = data.get("width"), data.get("height")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        raise MapError(f"width and height must be positive integers, got {width!r} and {height!r}")
    if width * height > MAX_HEXES:
        raise MapError(f"a map holds at most {MAX_HEXES:,} hexes (the engine numbers hexes in 16 bits), "
                       f"got {width} x {height} = {width * height:,}")
    return width, height


def _terrain(rows: Any, width: int, height: int) -> list[Terrain]:
    if not isinstance(rows, list) or len(rows) != height:
        got = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise MapError(f"terrain must be a list of {height} row strings, got {got}")
    terrain: list[Terrain] = []
    for row, line in enumerate(rows):
        if not isinstance(line, str) or len(line) != width:
            raise MapError(f"terrain row {row} must be {width} characters long, got {line!r}")
        unknown = "".join(sorted(set(line) - set(TERRAIN_CHARS)))
        if unknown:
            raise MapError(f"terrain row {row} has unknown terrain {unknown!r} (use P, M, D, W)")
        terrain.extend(TERRAIN_CHARS[ch] for ch in line)
    return terrain


def _regions_raw(raw: Any) -> dict[str, tuple[str, int]]:
    """Region name -> (colour, min_players)."""
    if not isinstance(raw, dict):
        raise MapError("regions must be an object: name -> {colour, min_players}")
    if len(raw) > MAX_REGIONS:
        raise MapError(f"a map holds at most {MAX_REGIONS} regions (the engine numbers regions in 8 bits), "
                       f"got {len(raw):,}")
    regions = {}
    for name, spec in raw.items():
        spec = spec if isinstance(spec, dict) else {}
        min_players = _player_count(spec.get("min_players", MIN_PLAYERS), f"region {name}")
        regions[name] = (str(spec.get("colour", "#7f7f7f")), min_players)
    return regions


def _settlements(
    raw: Any, regions: dict[str, tuple[str, int]], terrain: list[Terrain], width: int, height: int
) -> list[SettlementSpec]:
    if not isinstance(raw, list) or not raw:
        raise MapError("settlements must be a non-empty list")
    specs: list[SettlementSpec] = []
    by_name: dict[str, SettlementSpec] = {}
    by_hex: dict[int, SettlementSpec] = {}
    for index, entry in enumerate(raw):
        spec = _settlement(index, entry, regions, terrain, width, height)
        if spec.name in by_name:
            raise MapError(f"duplicate settlement name {spec.name!r}")
        if spec.hex in by_hex:
            col, row = spec.hex % width, spec.hex // width
            other = by_hex[spec.hex].name
            raise MapError(f"settlements {other} and {spec.name} share the hex ({col}, {row})")
        by_name[spec.name] = by_hex[spec.hex] = spec
        specs.append(spec)
    return specs


def _settlement(
    index: int,
    entry: Any,
    regions: dict[str, tuple[str, int]],
    terrain: list[Terrain],
    width: int,
    height: int,
) -> SettlementSpec:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise MapError(f"settlement #{index} must be an object with a name")
    name = entry["name"]
    col, row = entry.get("col"), entry.get("row")
    if not (isinstance(col, int) and isinstance(row, int)):
        raise MapError(f"settlement {name}: col and row must be integers")
    if not (0 <= col < width and 0 <= row < height):
        raise MapError(f"settlement {name} at ({col}, {row}) is off the {width}x{height} grid")
    if terrain[row * width + col] == Terrain.WATER:
        raise MapError(f"settlement {name} at ({col}, {row}) is on water")
    region = entry.get("region")
    if region is not None and region not in regions:
        raise MapError(f"settlement {name} names unknown region {region!r}")
    region_min = regions[region][1] if region is not None else MIN_PLAYERS
    min_players = _player_count(entry.get("min_players", region_min), f"settlement {name}")
    if min_players < region_min:
        raise MapError(
            f"settlement {name}: min_players {min_players} is below region {region}'s {region_min}"
        )
    canaanite = entry.get("canaanite", False)
    if not isinstance(canaanite, bool):
        raise MapError(f"settlement {name}: canaanite must be true or false, got {canaanite!r}")
    return SettlementSpec(
        id=index,
        name=name,
        hex=row * width + col,
        region=region,
        canaanite=canaanite,
        min_players=min_players,
    )


def _player_count(value: Any, owner: str) -> int:
    is_count = isinstance(value, int) and not isinstance(value, bool)
    if not is_count or not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise MapError(f"{owner}: min_players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {value!r}")
    return value


def _ring(raw: Any, settlements: list[SettlementSpec], width: int, height: int) -> tuple[int, ...]:
    """MP-7: the listed ring, or every settlement clockwise by angle around the map's centre."""
    if raw is None:
        return clockwise_ring(settlements, width, height)
    if not isinstance(raw, list):
        raise MapError("ring must be a list of settlement names")
    by_name = {s.name: s.id for s in settlements}
    unknown = [name for name in raw if name not in by_name]
    if unknown:
        raise MapError(f"ring names unknown settlement {unknown[0]!r}")
    repeated = [name for name, count in Counter(raw).items() if count > 1]
    if repeated:
        raise MapError(f"ring lists {repeated[0]} more than once")
    missing = [s.name for s in settlements if s.name not in raw]
    if missing:
        raise MapError(f"ring is missing settlement {missing[0]} (a ring lists all of them)")
    return tuple(by_name[name] for name in raw)


def clockwise_ring(settlements: list[SettlementSpec], width: int, height: int) -> tuple[int, ...]:
    """Settlements ordered clockwise from north around the centre of the grid (MP-7)."""
    centres = {s.id: hex_centre(s.hex % width, s.hex // width) for s in settlements}
    mid_x, mid_y = map_centre(width, height)

    def bearing(spec: SettlementSpec) -> tuple[float, float, int]:
        x, y = centres[spec.id]
        angle = math.atan2(x - mid_x, y - mid_y) % (2 * math.pi)
        return angle, math.hypot(x - mid_x, y - mid_y), spec.id

    return tuple(s.id for s in sorted(settlements, key=bearing))


def _check_reachable(board: Board) -> None:
    """MP-6: every settlement can be walked to from every other, water being impassable."""
    start = board.settlements[0].hex
    seen = {start}
    frontier = deque([start])
    while frontier:
        for nxt in board.neighbours[frontier.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    cut_off = [s.name for s in board.settlements if s.hex not in seen]
    if cut_off:
        raise MapError(
            f"settlement {cut_off[0]} cannot be reached by land from {board.settlements[0].name}"
        )


def _check_standard_counts(board: Board) -> None:
    """MP-1 and MP-3 for the standard map, plus enough settlements per region for a Judge."""
    if len(board.settlements) != STANDARD_TOTAL:
        total = len(board.settlements)
        raise MapError(f"MP-1: the map has {total} settlements, not {STANDARD_TOTAL}")
    for region, (want_total, want_canaanite) in STANDARD_COUNTS.items():
        if region is not None and region not in board.regions:
            raise MapError(f"MP-1: region {region} is missing")
        members = [s for s in board.settlements if s.region == region]
        canaanite = sum(s.canaanite for s in members)
        label = region or "no region"
        if (len(members), canaanite) != (want_total, want_canaanite):
            raise MapError(
                f"MP-1: {label} has {len(members)} settlements ({canaanite} Canaanite), "
                f"needs {want_total} ({want_canaanite} Canaanite)"
            )
    extra = sorted(set(board.regions) - {r for r in STANDARD_COUNTS if r})
    if extra:
        raise MapError(f"MP-1: unknown region {extra[0]} on a standard map")
    for name, region in board.regions.items():
        want_min = STANDARD_MIN_PLAYERS.get(name, MIN_PLAYERS)
        if region.min_players != want_min:
            raise MapError(
                f"MP-3: region {name} exists from {region.min_players} players, not {want_min}"
            )
        for n_players in range(want_min, MAX_PLAYERS + 1):
            present = sum(board.settlements[i].min_players <= n_players for i in region.settlements)
            if present < JUDGE_MIN_SETTLEMENTS:
                raise MapError(
                    f"MP-3: region {name} has only {present} settlements with {n_players} players; "
                    f"it needs {JUDGE_MIN_SETTLEMENTS} wherever it exists (V-2)"
                )

