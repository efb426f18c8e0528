"""The static board: terrain, the hex geometry of "odd-r" offset coordinates, and `Board`.

Everything the engine asks during movement (`neighbours`, `enter_cost`, `settlement_at`) is a
plain tuple indexed by hex id, computed once when the map is loaded, because path-finding reads
them millions of times per batch. The hexes a Sandstorm seals are one more such table; the route
costs to a hex are built on first use, once per map and target. The engine and the strategies
share them all, and every table is a tuple, so nobody can alter the board through one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import IntEnum
from heapq import heappop, heappush
from types import MappingProxyType
from typing import Mapping


class Terrain(IntEnum):
    """The four terrains of the Board chapter (TR-1, TR-2); the value is stable for data files."""

    PLAIN = 0
    MOUNTAIN = 1
    DESERT = 2
    WATER = 3


TERRAIN_CHARS = {"P": Terrain.PLAIN, "M": Terrain.MOUNTAIN, "D": Terrain.DESERT, "W": Terrain.WATER}

# Water is never entered (TR-2) and never appears in `neighbours`; its `enter_cost` is a sentinel
# far above any general's moves, so a path-finder that forgets the rule still cannot use water.
IMPASSABLE = 1_000_000

ENTER_COST = {
    Terrain.PLAIN: 1,
    Terrain.MOUNTAIN: 2,
    Terrain.DESERT: 2,
    Terrain.WATER: IMPASSABLE,
}

# The route cost from a hex that cannot reach the target by land (water, or cut off by it).
NO_ROUTE = 10**9

# Neighbour offsets (dcol, drow) for even and odd rows: odd rows sit half a hex to the right.
_EVEN_ROW_OFFSETS = ((-1, -1), (0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1))
_ODD_ROW_OFFSETS = ((0, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (1, 1))

SQRT3 = math.sqrt(3.0)


def grid_neighbours(col: int, row: int, width: int, height: int) -> list[tuple[int, int]]:
    """The on-grid hexes touching (col, row), whatever their terrain."""
    offsets = _ODD_ROW_OFFSETS if row & 1 else _EVEN_ROW_OFFSETS
    cells = ((col + dc, row + dr) for dc, dr in offsets)
    return [(c, r) for c, r in cells if 0 <= c < width and 0 <= r < height]


def to_cube(col: int, row: int) -> tuple[int, int, int]:
    """Cube coordinates of an odd-r hex, where distance is half the L1 norm."""
    x = col - (row - (row & 1)) // 2
    z = row
    return x, -x - z, z


def cube_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Centre of a unit-radius pointy-top hex, x to the east and y to the north (row 0 on top)."""
    return SQRT3 * (col + 0.5 * (row & 1)), -1.5 * row


def map_centre(width: int, height: int) -> tuple[float, float]:
    """Middle of the grid's hex centres, in `hex_centre` units (the pivot of the MP-7 ring)."""
    return SQRT3 * (width - 0.5) / 2, -1.5 * (height - 1) / 2


@dataclass(frozen=True, slots=True)
class SettlementSpec:
    """A settlement as printed on the map: where it is, its region, who holds it at the start."""

    id: int
    name: str
    hex: int
    region: str | None
    canaanite: bool
    min_players: int


@dataclass(frozen=True, slots=True)
class RegionSpec:
    """A named group of settlements (MP-2); `min_players` is the smallest game it exists in."""

    name: str
    colour: str
    min_players: int
    settlements: tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """An immutable map. Per-hex tables are tuples indexed by hex id = row * width + col;
    ``regions`` is a read-only mapping."""

    name: str
    width: int
    height: int
    terrain: tuple[Terrain, ...]
    enter_cost: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    settlement_at: tuple[int, ...]
    coords: tuple[tuple[int, int], ...]
    settlements: tuple[SettlementSpec, ...]
    regions: Mapping[str, RegionSpec]
    ring: tuple[int, ...]
    storm_sealed: tuple[bool, ...]  # MV-4: per hex, whether a Sandstorm seals it (desert or next to one)
    storm_sealed_hexes: frozenset[int]  # the same, as the set of sealed hex ids
    _cubes: tuple[tuple[int, int, int], ...] = field(repr=False)
    _by_name: Mapping[str, int] = field(repr=False)
    _routes: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)  # target -> route costs
    _balls: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict, repr=False)  # (start, budget) -> hexes

    @classmethod
    def build(
        cls,
        name: str,
        width: int,
        height: int,
        terrain: list[Terrain],
        settlements: list[SettlementSpec],
        regions: dict[str, RegionSpec],
        ring: tuple[int, ...],
    ) -> Board:
        """Derive every lookup table from the raw grid; the loader validates before calling this."""
        coords = tuple((hex_id % width, hex_id // width) for hex_id in range(width * height))
        neighbours = tuple(
            tuple(
                r * width + c
                for c, r in grid_neighbours(col, row, width, height)
                if terrain[r * width + c] != Terrain.WATER
            )
            if terrain[row * width + col] != Terrain.WATER
            else ()
            for col, row in coords
        )
        settlement_at = [-1] * (width * height)
        for spec in settlements:
            settlement_at[spec.hex] = spec.id
        desert = Terrain.DESERT
        storm_sealed = tuple(
            terrain[h] == desert or any(terrain[n] == desert for n in neighbours[h]) for h in range(width * height)
        )
        return cls(
            name=name,
            width=width,
            height=height,
            terrain=tuple(terrain),
            enter_cost=tuple(ENTER_COST[t] for t in terrain),
            neighbours=neighbours,
            settlement_at=tuple(settlement_at),
            coords=coords,
            settlements=tuple(settlements),
            regions=MappingProxyType(dict(regions)),
            ring=tuple(ring),
            storm_sealed=storm_sealed,
            storm_sealed_hexes=frozenset(h for h, sealed in enumerate(storm_sealed) if sealed),
            _cubes=tuple(to_cube(c, r) for c, r in coords),
            _by_name=MappingProxyType({spec.name: spec.id for spec in settlements}),
        )

    def __reduce__(self):
        """Pickled as the raw map it was built from (read-only mappings do not pickle)."""
        return Board.build, (self.name, self.width, self.height, list(self.terrain), list(self.settlements),
                             dict(self.regions), self.ring)

    def settlements_for(self, n_players: int) -> tuple[int, ...]:
        """Ids of the settlements that exist in a game of n_players (MP-3)."""
        return tuple(s.id for s in self.settlements if s.min_players <= n_players)

    def hex_of(self, col: int, row: int) -> int:
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"hex ({col}, {row}) is off the {self.width}x{self.height} grid")
        return row * self.width + col

    def distance(self, a: int, b: int) -> int:
        """Hex steps between two hex ids, ignoring terrain."""
        return cube_distance(self._cubes[a], self._cubes[b])

    def route_costs_to(self, target: int) -> tuple[int, ...]:
        """TR-1, TR-2, MV-1: the cost of the cheapest land route from every hex to ``target``
        (each hex entered costs its terrain; ``NO_ROUTE`` where water cuts it off), ignoring the
        pieces in the way. Built on first use, once per map and target."""
        row = self._routes.get(target)
        if row is None:
            costs = self._cheapest(target, NO_ROUTE, reverse=True)
            row = self._routes[target] = tuple(costs.get(h, NO_ROUTE) for h in range(len(self.terrain)))
        return row

    def route_cost(self, frm: int, to: int) -> int:
        """The cost of the cheapest land route from ``frm`` to ``to`` (``route_costs_to``)."""
        return self.route_costs_to(to)[frm]

    def _cheapest(self, start: int, budget: int, reverse: bool) -> dict[int, int]:
        """Dijkstra by terrain cost from ``start`` up to ``budget``: the cost of reaching each hex
        (``reverse``: of reaching ``start`` from it), in the order the hexes were first reached."""
        costs = {start: 0}
        heap = [(0, start)]
        enter = self.enter_cost
        neighbours = self.neighbours
        while heap:
            cost, here = heappop(heap)
            if cost > costs[here]:
                continue
            for nxt in neighbours[here]:
                step = cost + enter[here if reverse else nxt]
                if step <= budget and step < costs.get(nxt, budget + 1):
                    costs[nxt] = step
                    heappush(heap, (step, nxt))
        return costs

    def ball(self, start: int, budget: int) -> frozenset[int]:
        """MV-1: every hex other than ``start`` that a route of cost at most ``budget`` reaches,
        ignoring the pieces in the way: the only hexes a move's path-finding can look at, so what
        stands elsewhere cannot change where a general may go. Built on first use, once per map."""
        key = (start, budget)
        ball = self._balls.get(key)
        if ball is None:
            costs = self._cheapest(start, budget, reverse=False)
            del costs[start]
            ball = self._balls[key] = frozenset(costs)
        return ball

    def settlement_by_name(self, name: str) -> SettlementSpec:
        try:
            return self.settlements[self._by_name[name]]
        except KeyError:
            raise KeyError(f"no settlement named {name!r} on map {self.name!r}") from None
