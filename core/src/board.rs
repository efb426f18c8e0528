//! The map as the engine reads it: per-hex tables built once from the Python `Board`
//! (`plsim.board`, which loads and validates the map file), shared by every game on it.

pub type Hex = u16;
pub type Sid = u16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// MV-1: every hex other than `start` that a route of cost at most `budget` reaches, pieces
    /// ignored: the only hexes a move's path-finding can look at. Kept once per map.
    pub fn ball(&self, start: Hex, budget: i64) -> std::borrow::Cow<'_, [Hex]> {
        let compute = || {
            let mut cost = vec![i64::MAX; self.hexes()];
            let mut heap = std::collections::BinaryHeap::new();
            cost[start as usize] = 0;
            heap.push(std::cmp::Reverse((0i64, start)));
            let mut reached = Vec::new();
            while let Some(std::cmp::Reverse((c, h))) = heap.pop() {
                if c > cost[h as usize] {
                    continue;
                }
                for &next in &self.neighbours[h as usize] {
                    let step = c + self.enter_cost[next as usize];
                    if step <= budget && step < cost[next as usize] {
                        if cost[next as usize] == i64::MAX && next != start {
                            reached.push(next);
                        }
                        cost[next as usize] = step;
                        heap.push(std::cmp::Reverse((step, next)));
                    }
                }
            }
            reached.sort_unstable();
            reached
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
