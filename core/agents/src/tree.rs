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

pub struct Tree {
    seat: Seat,
    /// the root's options in prior order (the policy's answer first, then by one-step value)
    root_prior: Vec<Opt>,
    settings: Settings,
    nodes: Vec<Node>,
}

impl Tree {
    pub fn new(seat: Seat, root_prior: Vec<Opt>, settings: Settings) -> Tree {
        Tree {
            seat,
            root_prior,
            settings,
            nodes: vec![Node::default()],
        }
    }

    /// The options a node considers: ceil(widen * visits ** alpha).
    fn widened(&self, node: usize) -> usize {
        let visits = self.nodes[node].visits.max(1) as f64;
        (self.settings.widen * visits.powf(self.settings.alpha)).ceil() as usize
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
        let c = self.settings.c;
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
    /// root's order, deeper the policy's answer and then the order offered.
    fn next_prior(
        &self,
        node: usize,
        world: &Game,
        root: bool,
        players: &mut Players,
        rng: &mut PolicyRng,
    ) -> Option<Opt> {
        let decision = world.decision()?;
        let legal = &decision.options;
        let new = |o: &Opt| legal.contains(o) && !self.nodes[node].children.iter().any(|(c, _)| c == o);
        if root {
            return self.root_prior.iter().copied().find(new);
        }
        let answer = legal[players.choose(world, decision, rng)];
        std::iter::once(answer).chain(legal.iter().copied()).find(new)
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
            let considered = self.offer(node, &legal);
            let widening = self.nodes[node].children.len() < self.widened(node) || considered == 0;
            let added = if widening {
                self.next_prior(node, world, node == 0, &mut players, &mut rng)
            } else {
                None
            };
            let (option, child) = match added {
                Some(option) => {
                    self.nodes.push(Node {
                        available: 1,
                        ..Node::default()
                    });
                    let child = self.nodes.len() - 1;
                    self.nodes[node].children.push((option, child));
                    (option, child)
                }
                None => match self.best_uct(node, &legal) {
                    Some(found) => found,
                    None => break,
                },
            };
            let Some(index) = legal.iter().position(|o| *o == option) else {
                break;
            };
            flow::answer_at(world, index)?;
            steps += 1;
            node = child;
            path.push(node);
            if added.is_some() {
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
        for visited in path {
            self.nodes[visited].visits += 1;
            self.nodes[visited].total += reward;
        }
        Ok(())
    }

    /// The iterations done.
    pub fn visits(&self) -> u64 {
        self.nodes[0].visits
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
