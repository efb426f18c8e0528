//! The map as the engine reads it: per-hex tables built once from the Python `Board`
//! (`plsim.board`, which loads and validates the map file), shared by every game on it.

pub type Hex = u16;
pub type Sid = u16;

/// The cost of a route that water cuts off (Python's `plsim.board.NO_ROUTE`).
pub const NO_ROUTE: i64 = 1_000_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    Plain = 0,
    Mountain = 1,
    Desert = 2,
    Water = 3,
}

impl Terrain {
    pub fn from_index(i: i64) -> Option<Terrain> {
        match i {
            0 => Some(Terrain::Plain),
            1 => Some(Terrain::Mountain),
            2 => Some(Terrain::Desert),
            3 => Some(Terrain::Water),
            _ => None,
        }
    }

    pub fn lower(self) -> &'static str {
        match self {
            Terrain::Plain => "plain",
            Terrain::Mountain => "mountain",
            Terrain::Desert => "desert",
            Terrain::Water => "water",
        }
    }

    pub fn parse_lower(text: &str) -> Option<Terrain> {
        [Terrain::Plain, Terrain::Mountain, Terrain::Desert, Terrain::Water]
            .into_iter()
            .find(|t| t.lower() == text)
    }
}

#[derive(Clone, Debug)]
pub struct SettlementSpec {
    pub name: String,
    pub hex: Hex,
    pub region: Option<u8>,
    pub canaanite: bool,
    pub min_players: i64,
}

#[derive(Clone, Debug)]
pub struct RegionSpec {
    pub name: String,
    pub settlements: Vec<Sid>,
}

#[derive(Debug)]
pub struct Board {
    pub name: String,
    pub width: usize,
    pub terrain: Vec<Terrain>,
    pub enter_cost: Vec<i64>,
    pub neighbours: Vec<Vec<Hex>>,
    pub settlement_at: Vec<i32>,
    pub settlements: Vec<SettlementSpec>,
    pub regions: Vec<RegionSpec>,
    pub ring: Vec<Sid>,
    pub storm_sealed: Vec<bool>,
    cubes: Vec<(i64, i64, i64)>,
    /// (hex, budget) -> the hexes a route of at most that cost reaches from it, pieces ignored
    balls: Vec<std::sync::OnceLock<Vec<Hex>>>,
    /// target -> the cost of the cheapest route to it from every hex, pieces ignored
    routes: Vec<std::sync::OnceLock<Vec<i64>>>,
    /// a number no other map built in this process has (names it in the reachability memo)
    pub serial: u64,
}

static SERIALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Budgets below this have their balls kept (a general has 1..4 moves, a captive 2).
const KEPT_BUDGETS: usize = 10;

impl Board {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: String,
        width: usize,
        terrain: Vec<Terrain>,
        enter_cost: Vec<i64>,
        neighbours: Vec<Vec<Hex>>,
        settlement_at: Vec<i32>,
        settlements: Vec<SettlementSpec>,
        regions: Vec<RegionSpec>,
        ring: Vec<Sid>,
        storm_sealed: Vec<bool>,
    ) -> Board {
        let cubes = (0..terrain.len())
            .map(|h| {
                let (col, row) = ((h % width) as i64, (h / width) as i64);
                let x = col - (row - (row & 1)) / 2;
                (x, -x - row, row)
            })
            .collect();
        let balls = (0..terrain.len() * KEPT_BUDGETS)
            .map(|_| std::sync::OnceLock::new())
            .collect();
        let routes = (0..terrain.len()).map(|_| std::sync::OnceLock::new()).collect();
        Board {
            name,
            width,
            terrain,
            enter_cost,
            neighbours,
            settlement_at,
            settlements,
            regions,
            ring,
            storm_sealed,
            cubes,
            balls,
            routes,
            serial: SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    pub fn hexes(&self) -> usize {
        self.terrain.len()
    }

    /// Hex steps between two hexes, ignoring terrain.
    pub fn distance(&self, a: Hex, b: Hex) -> i64 {
        let (p, q) = (self.cubes[a as usize], self.cubes[b as usize]);
        (p.0 - q.0).abs().max((p.1 - q.1).abs()).max((p.2 - q.2).abs())
    }

    /// Dijkstra by terrain cost from `start` up to `budget`: the cost of reaching each hex
    /// (`reverse`: of reaching `start` from it), NO_ROUTE where no route within the budget does.
    fn cheapest(&self, start: Hex, budget: i64, reverse: bool) -> Vec<i64> {
        let mut cost = vec![NO_ROUTE; self.hexes()];
        let mut heap = std::collections::BinaryHeap::new();
        cost[start as usize] = 0;
        heap.push(std::cmp::Reverse((0i64, start)));
        while let Some(std::cmp::Reverse((c, h))) = heap.pop() {
            if c > cost[h as usize] {
                continue;
            }
            for &next in &self.neighbours[h as usize] {
                let step = c + self.enter_cost[if reverse { h } else { next } as usize];
                if step <= budget && step < cost[next as usize] {
                    cost[next as usize] = step;
                    heap.push(std::cmp::Reverse((step, next)));
                }
            }
        }
        cost
    }

    /// MV-1: every hex other than `start` that a route of cost at most `budget` reaches, pieces
    /// ignored: the only hexes a move's path-finding can look at. Kept once per map.
    pub fn ball(&self, start: Hex, budget: i64) -> std::borrow::Cow<'_, [Hex]> {
        let compute = || {
            let cost = self.cheapest(start, budget, false);
            (0..self.hexes() as Hex)
                .filter(|h| *h != start && cost[*h as usize] <= budget)
                .collect::<Vec<Hex>>()
        };
        match usize::try_from(budget) {
            Ok(b) if b < KEPT_BUDGETS => std::borrow::Cow::Borrowed(
                self.balls[start as usize * KEPT_BUDGETS + b]
                    .get_or_init(compute)
                    .as_slice(),
            ),
            _ => std::borrow::Cow::Owned(compute()),
        }
    }

    /// TR-1, TR-2, MV-1: the cost of the cheapest land route from every hex to `target` (each
    /// hex entered costs its terrain; NO_ROUTE where water cuts it off), pieces ignored. Kept
    /// once per map and target.
    pub fn route_costs_to(&self, target: Hex) -> &[i64] {
        self.routes[target as usize].get_or_init(|| self.cheapest(target, NO_ROUTE, true))
    }

    pub fn sid_at(&self, h: Hex) -> Option<Sid> {
        let s = self.settlement_at[h as usize];
        (s >= 0).then_some(s as Sid)
    }

    pub fn region_named(&self, name: &str) -> Option<u8> {
        self.regions.iter().position(|r| r.name == name).map(|i| i as u8)
    }

    pub fn settlement_named(&self, name: &str) -> Option<Sid> {
        self.settlements.iter().position(|s| s.name == name).map(|i| i as Sid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain, a mountain and a plain in a row, and a lake beside them.
    fn strip() -> Board {
        use Terrain::{Mountain, Plain, Water};
        Board::new(
            "strip".into(),
            4,
            vec![Plain, Mountain, Plain, Water],
            vec![1, 2, 1, 0],
            vec![vec![1], vec![0, 2], vec![1], vec![]],
            vec![-1; 4],
            vec![],
            vec![],
            vec![],
            vec![false; 4],
        )
    }

    #[test]
    fn a_route_costs_each_hex_it_enters_and_water_cuts_it_off() {
        assert_eq!(strip().route_costs_to(0), &[0, 1, 3, NO_ROUTE]);
        assert_eq!(strip().route_costs_to(2), &[3, 1, 0, NO_ROUTE]);
    }

    #[test]
    fn a_ball_holds_the_hexes_a_budget_reaches_but_its_start() {
        let board = strip();
        assert_eq!(board.ball(0, 1).as_ref(), &[] as &[Hex]);
        assert_eq!(board.ball(0, 2).as_ref(), &[1]);
        assert_eq!(board.ball(0, 3).as_ref(), &[1, 2]);
        assert_eq!(board.ball(2, 20).as_ref(), &[0, 1]);
    }
}
