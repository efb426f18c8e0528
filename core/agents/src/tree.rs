//! `mcts`'s iterations for a native default policy, inside the core: the tree of the seat's own
//! decisions (information-set MCTS, single observer, UCT with progressive widening), each
//! iteration played on a world the caller dealt (so the worlds still come from the strategy's
//! own generator), down the tree, one new child, the policy to the horizon, the evaluation backed
//! up. strategies/mcts.py documents the search; this is the same search without Python per step.

use crate::evaluation::{position_value, Weights};
use crate::playout::{play_on, Until};
use crate::policy::PolicyRng;
use crate::policy::{Players, Policy};
use plsim_rules::flow;
use plsim_rules::game::{EngineError, Game};
use plsim_rules::options::Opt;
use plsim_rules::parts::Seat;

/// The search's parameters (mcts's own, by the same names).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub c: f64,
    pub widen: f64,
    pub alpha: f64,
    pub last_round: i64,
    pub depth: u64,
    pub policy: Policy,
    /// the model of every other seat's play (`policy` too unless the search says otherwise)
    pub rivals: Policy,
    pub weights: Weights,
}

#[derive(Clone, Debug, Default)]
struct Node {
    visits: u64,
    total: f64,
    available: u64,
    /// (answer, node), in the order added
    children: Vec<(Opt, usize)>,
}

/// The statistics of the seat's own decisions and the choice at each: what both searches share,
/// the native one (`Tree::iterate`) and the one whose default policy is a Python strategy
/// (strategies/mcts.py steps its worlds and asks `select` at each own decision).
pub struct Stats {
    /// the root's options in prior order (the policy's answer first, then by one-step value)
    root_prior: Vec<Opt>,
    c: f64,
    widen: f64,
    alpha: f64,
    nodes: Vec<Node>,
}

impl Stats {
    pub fn new(root_prior: Vec<Opt>, c: f64, widen: f64, alpha: f64) -> Stats {
        Stats {
            root_prior,
            c,
            widen,
            alpha,
            nodes: vec![Node::default()],
        }
    }

    /// The options a node considers: ceil(widen * visits ** alpha).
    fn widened(&self, node: usize) -> usize {
        let visits = self.nodes[node].visits.max(1) as f64;
        (self.widen * visits.powf(self.alpha)).ceil() as usize
    }

    /// Count a chance for each child legal in this world; how many are.
    fn offer(&mut self, node: usize, legal: &[Opt]) -> usize {
        let mut considered = 0;
        for i in 0..self.nodes[node].children.len() {
            let (option, child) = self.nodes[node].children[i];
            if legal.contains(&option) {
                self.nodes[child].available += 1;
                considered += 1;
            }
        }
        considered
    }

    /// The child legal in this world of the best UCT score (the first of equal ones; one never
    /// visited first of all).
    fn best_uct(&self, node: usize, legal: &[Opt]) -> Option<(Opt, usize)> {
        let c = self.c;
        let (mut best, mut top) = (None, f64::NEG_INFINITY);
        for (option, child) in &self.nodes[node].children {
            if !legal.contains(option) {
                continue;
            }
            let n = &self.nodes[*child];
            if n.visits == 0 {
                return Some((*option, *child));
            }
            let score = n.total / n.visits as f64 + c * ((n.available as f64).ln() / n.visits as f64).sqrt();
            if score > top {
                (best, top) = (Some((*option, *child)), score);
            }
        }
        best
    }

    /// The first option in prior order that is not yet a child of the node: at the root the
    /// root's order, deeper the policy's `answer` and then the order offered.
    fn next_prior(&self, node: usize, legal: &[Opt], answer: impl FnOnce() -> Opt) -> Option<Opt> {
        let new = |o: &Opt| legal.contains(o) && !self.nodes[node].children.iter().any(|(c, _)| c == o);
        if node == 0 {
            return self.root_prior.iter().copied().find(new);
        }
        std::iter::once(answer()).chain(legal.iter().copied()).find(new)
    }

    /// The answer at `node`, the seat's own decision in this world offering `legal`: a new
    /// child while the node considers fewer options than widening allows (the next in prior
    /// order; `answer` gives the policy's, asked only then and only below the root), else the
    /// legal child of the best UCT score. (option, child, whether new); None if there is none.
    pub fn select(&mut self, node: usize, legal: &[Opt], answer: impl FnOnce() -> Opt) -> Option<(Opt, usize, bool)> {
        let considered = self.offer(node, legal);
        let widening = self.nodes[node].children.len() < self.widened(node) || considered == 0;
        if widening {
            if let Some(option) = self.next_prior(node, legal, answer) {
                self.nodes.push(Node {
                    available: 1,
                    ..Node::default()
                });
                let child = self.nodes.len() - 1;
                self.nodes[node].children.push((option, child));
                return Some((option, child, true));
            }
        }
        self.best_uct(node, legal).map(|(option, child)| (option, child, false))
    }

    /// The iteration's value for the seat, added to every node of its path.
    pub fn backup(&mut self, path: &[usize], reward: f64) {
        for visited in path {
            self.nodes[*visited].visits += 1;
            self.nodes[*visited].total += reward;
        }
    }

    /// The iterations done.
    pub fn visits(&self) -> u64 {
        self.nodes[0].visits
    }

    /// How many nodes the tree holds (the root is node 0).
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The root's children as (place in the root's prior order, visits, mean value), in the
    /// order they were added.
    pub fn root_children(&self) -> Vec<(usize, u64, f64)> {
        self.nodes[0]
            .children
            .iter()
            .map(|(option, child)| {
                let place = self.root_prior.iter().position(|p| p == option).unwrap_or(usize::MAX);
                let n = &self.nodes[*child];
                (place, n.visits, n.total / n.visits.max(1) as f64)
            })
            .collect()
    }

    /// The answer: the root's most visited child (ties to the better mean, then to the prior
    /// order), as its place in the root's prior order; None before any iteration.
    pub fn best(&self) -> Option<usize> {
        self.root_children()
            .into_iter()
            .max_by(|(pa, va, ma), (pb, vb, mb)| {
                (va, ma)
                    .partial_cmp(&(vb, mb))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(pb.cmp(pa))
            })
            .map(|(place, _, _)| place)
    }
}

/// The native search: the statistics, grown by iterations played inside the core.
pub struct Tree {
    seat: Seat,
    settings: Settings,
    pub stats: Stats,
}

impl Tree {
    pub fn new(seat: Seat, root_prior: Vec<Opt>, settings: Settings) -> Tree {
        Tree {
            seat,
            stats: Stats::new(root_prior, settings.c, settings.widen, settings.alpha),
            settings,
        }
    }

    /// One iteration on `world`, which it plays on; the policy's answers drawn from `seed`.
    pub fn iterate(&mut self, world: &mut Game, seed: u64) -> Result<(), EngineError> {
        let s = self.settings;
        let mut rng = PolicyRng::new(seed);
        let mut players = Players::with_rivals(self.seat, s.policy, s.rivals, seed);
        let (mut node, mut path, mut steps) = (0, vec![0], 0);
        while steps < s.depth {
            let own = Until {
                last_round: s.last_round,
                decisions: s.depth - steps,
                seat: Some(self.seat),
            };
            steps += play_on(world, &mut players, &mut rng, own)?;
            if steps >= s.depth || world.state.round > s.last_round {
                break;
            }
            let Some(decision) = world.decision() else { break };
            let legal = decision.options.clone();
            let answer = || legal[players.choose(world, decision, &mut rng)];
            let Some((option, child, new)) = self.stats.select(node, &legal, answer) else {
                break;
            };
            let Some(index) = legal.iter().position(|o| *o == option) else {
                break;
            };
            flow::answer_at(world, index)?;
            steps += 1;
            node = child;
            path.push(node);
            if new {
                break;
            }
        }
        play_on(
            world,
            &mut players,
            &mut rng,
            Until::horizon(s.last_round, s.depth - steps),
        )?;
        let reward = position_value(world, self.seat, &s.weights);
        self.stats.backup(&path, reward);
        Ok(())
    }
}
