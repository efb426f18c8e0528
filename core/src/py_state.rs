//! The state read from Python, part by part (the views' caches key on the ledger), and the rule
//! arithmetic asked of a position: reach, a hex's defence, a region's standing, income and tax.

#![allow(clippy::type_complexity)]

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::py_table::PyTable;
use crate::py_values::general_named;
use plsim_rules::board::{Hex, Sid};
use plsim_rules::cards::{general_name, gid_named, invader_name};
use plsim_rules::parts::{Seat, Title};
use plsim_rules::{arithmetic, movement, scoring};

#[pymethods]
impl PyTable {
    /// (round, phase, first_player, wrath, king, succession_pending, storm, pairs_released,
    /// settlements_razed, deck size, players)
    fn scalars(
        &self,
    ) -> (
        i64,
        &'static str,
        Seat,
        i64,
        Option<&'static str>,
        Option<Seat>,
        bool,
        i64,
        i64,
        usize,
        usize,
    ) {
        let s = &self.game.state;
        (
            s.round,
            s.phase.value(),
            s.first_player,
            s.wrath,
            s.king.map(general_name),
            s.succession_pending,
            s.storm,
            s.pairs_released,
            s.settlements_razed,
            s.deck.len(),
            s.n_players(),
        )
    }

    /// The ledger's stamp now and the fields of every settlement written after the stamp
    /// `since` (every settlement without one), by id: a view rebuilds only those records.
    #[pyo3(signature = (since = None))]
    fn settlements(
        &self,
        since: Option<u64>,
    ) -> (
        u64,
        Vec<(usize, Hex, bool, Option<Seat>, i64, bool, bool, i64, bool, bool, bool)>,
    ) {
        let s = &self.game.state;
        let rows = s
            .settlements
            .iter()
            .enumerate()
            .filter(|(_, st)| since.is_none_or(|stamp| s.ledger.hex_writes[st.hex as usize] > stamp))
            .map(|(i, st)| {
                (
                    i,
                    st.hex,
                    st.exists,
                    st.owner,
                    st.garrison,
                    st.wall,
                    st.city,
                    st.developments,
                    st.razed,
                    st.tabernacle,
                    st.standing,
                )
            })
            .collect();
        (s.ledger.stamp, rows)
    }

    /// The ledger's stamp now, the names of the generals on the map in the order they came onto
    /// it, and the fields of those written after the stamp `since` (all without one): (name,
    /// owner, hex, troops, items, title (kind, region) or None, captor, moved, took,
    /// passage). A write to a general stamps the hex it stands on.
    #[pyo3(signature = (since = None))]
    fn generals(
        &self,
        since: Option<u64>,
    ) -> (
        u64,
        Vec<&'static str>,
        Vec<(
            &'static str,
            Seat,
            Hex,
            i64,
            Vec<&str>,
            Option<(&'static str, Option<&str>)>,
            Option<Seat>,
            bool,
            bool,
            bool,
        )>,
    ) {
        let s = &self.game.state;
        let names = s.general_ids().map(general_name).collect();
        let rows = s
            .general_ids()
            .filter(|x| since.is_none_or(|stamp| s.ledger.hex_writes[s.general(*x).hex as usize] > stamp))
            .map(|x| {
                let g = s.general(x);
                let title = g.title.map(|t| match t {
                    Title::King => ("king", None),
                    Title::Assassin => ("assassin", None),
                    Title::Judge(r) => ("judge", Some(self.game.board.regions[r as usize].name.as_str())),
                });
                let items = g.items.iter().map(|c| self.game.cards.name(*c)).collect();
                (
                    general_name(x),
                    g.owner,
                    g.hex,
                    g.troops,
                    items,
                    title,
                    g.captor,
                    g.moved,
                    g.took,
                    g.passage,
                )
            })
            .collect();
        (s.ledger.stamp, names, rows)
    }

    /// The occupied hexes in the order they were first occupied, each with its generals' names
    /// in name order, and the stamp of the last write there.
    fn hex_generals(&self) -> Vec<(Hex, Vec<&'static str>, u64)> {
        let s = &self.game.state;
        s.hex_generals
            .iter()
            .map(|(h, mask)| {
                (
                    *h,
                    plsim_rules::state::MaskIter(*mask).map(general_name).collect(),
                    s.ledger.hex_writes[*h as usize],
                )
            })
            .collect()
    }

    /// Every player's (seat, coins, home, income, hand size).
    fn players(&self) -> Vec<(usize, i64, Option<Sid>, i64, usize)> {
        self.game
            .state
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.coins, p.home, p.income, p.hand.len()))
            .collect()
    }

    /// Every region of this game: (name, city, holder, lapsed).
    fn regions(&self) -> Vec<(&str, Option<Sid>, Option<&'static str>, bool)> {
        self.game
            .state
            .regions
            .iter()
            .map(|r| {
                (
                    self.game.board.regions[r.index as usize].name.as_str(),
                    r.city,
                    r.holder.map(general_name),
                    r.lapsed,
                )
            })
            .collect()
    }

    fn sieges(&self) -> Vec<(Hex, Seat, i64)> {
        self.game
            .state
            .sieges
            .iter()
            .map(|(h, s)| (*h, s.besieger, s.started))
            .collect()
    }

    fn assaults(&self) -> Vec<(Hex, Seat)> {
        self.game.state.assaults.clone()
    }

    fn hand(&self, seat: usize) -> Vec<&str> {
        self.game.state.players.get(seat).map_or(Vec::new(), |p| {
            p.hand.iter().map(|c| self.game.cards.name(*c)).collect()
        })
    }

    fn event_area(&self) -> Vec<&str> {
        self.game
            .state
            .event_area
            .iter()
            .map(|c| self.game.cards.name(*c))
            .collect()
    }

    fn discard(&self) -> Vec<&str> {
        self.game
            .state
            .discard
            .iter()
            .map(|c| self.game.cards.name(*c))
            .collect()
    }

    fn prophets(&self) -> Vec<&str> {
        self.game
            .state
            .prophets
            .iter()
            .map(|c| self.game.cards.name(*c))
            .collect()
    }

    fn taxed(&self) -> Vec<(&str, Seat)> {
        self.game
            .state
            .taxed
            .iter()
            .map(|(r, s)| (self.game.board.regions[*r as usize].name.as_str(), *s))
            .collect()
    }

    fn terrain_mods(&self) -> [i64; 4] {
        self.game.state.terrain_mods
    }

    fn pairs(&self) -> Vec<(Vec<String>, Vec<i64>, Option<Sid>, Option<Sid>)> {
        self.game
            .state
            .pairs
            .iter()
            .map(|p| {
                (
                    p.names.iter().map(|n| invader_name(*n)).collect(),
                    p.troops.to_vec(),
                    p.at,
                    p.target,
                )
            })
            .collect()
    }

    fn invader_pool(&self) -> Vec<String> {
        self.game.state.invader_pool.iter().map(|n| invader_name(*n)).collect()
    }

    // the rule arithmetic on this game's state (the views call these)
    fn vp(&self, seat: Seat) -> i64 {
        scoring::victory_points(&self.game.state, &self.game.cards, seat)
    }

    fn reachable(&self, general: &str, passage: bool) -> PyResult<Vec<(Hex, i64)>> {
        let g = &self.game;
        let x = general_named(general)?;
        if !g.state.has_general(x) {
            return Err(PyValueError::new_err(format!("{general} is not on the map")));
        }
        Ok(movement::reachable(&g.state, &g.board, &g.rules, &g.cards, x, passage, None).to_vec())
    }

    #[pyo3(signature = (hex, rounds_besieged = None, wall_cancelled = false, attacker = None))]
    fn hex_defence(
        &self,
        hex: Hex,
        rounds_besieged: Option<i64>,
        wall_cancelled: bool,
        attacker: Option<Seat>,
    ) -> (i64, Option<Seat>) {
        let g = &self.game;
        arithmetic::hex_defence(
            &g.state,
            &g.board,
            &g.rules,
            &g.cards,
            hex,
            rounds_besieged,
            wall_cancelled,
            attacker,
        )
    }

    /// (standing, mine, free, canaanite, rival, my_walled, city, city_owner, judge_owner, can_hold)
    fn region_status(
        &self,
        region: &str,
        seat: Seat,
    ) -> PyResult<(
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Option<Sid>,
        Option<Seat>,
        Option<Seat>,
        bool,
    )> {
        let g = &self.game;
        let r = arithmetic::region_status(&g.state, &g.board, &g.rules, self.region_named(region)?, seat);
        Ok((
            r.standing,
            r.mine,
            r.free,
            r.canaanite,
            r.rival,
            r.my_walled,
            r.city,
            r.city_owner,
            r.judge_owner,
            r.can_hold,
        ))
    }

    fn settlement_income(&self, sid: Sid) -> i64 {
        arithmetic::settlement_income(&self.game.state, &self.game.board, &self.game.rules, sid)
    }

    fn income_paid(&self, sid: Sid) -> i64 {
        arithmetic::income_paid(&self.game.state, &self.game.board, &self.game.rules, sid)
    }

    fn tax_gain(&self, region: &str) -> PyResult<i64> {
        Ok(arithmetic::tax_gain(
            &self.game.state,
            &self.game.board,
            &self.game.rules,
            self.region_named(region)?,
        ))
    }

    #[pyo3(signature = (razed = None))]
    fn standing_judge_regions(&self, razed: Option<Sid>) -> i64 {
        arithmetic::standing_judge_regions(&self.game.state, &self.game.board, &self.game.rules, razed)
    }

    #[pyo3(signature = (without = None))]
    fn prophet_carrier(&self, without: Option<&str>) -> Option<&'static str> {
        let without = without.and_then(gid_named);
        arithmetic::prophet_carrier(&self.game.state, without).map(general_name)
    }

    fn invader_target(&self, at: Option<Sid>, target: Option<Sid>) -> Option<Sid> {
        arithmetic::invader_target(&self.game.state, &self.game.board, at, target)
    }

    fn siege_rounds(&self, hex: Hex) -> i64 {
        arithmetic::siege_rounds(&self.game.state, hex)
    }

    fn open_plain(&self, hex: Hex) -> bool {
        arithmetic::is_open_plain(&self.game.state, &self.game.board, hex)
    }
}
