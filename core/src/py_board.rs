//! `plsim._core.CoreBoard` and `CoreRules`: a map's tables and a rule set, crossed once per
//! object and shared by every table built on them.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use plsim_rules::board::{Board, Hex, RegionSpec, SettlementSpec, Sid, Terrain};
use plsim_rules::cards::CardTable;
use plsim_rules::rules::Rules;

#[pyclass(module = "plsim._core", name = "CoreBoard", frozen)]
pub struct PyBoard {
    pub inner: Arc<Board>,
}

#[pymethods]
impl PyBoard {
    /// The map's tables, as `plsim.board.Board` holds them (the loader validated them).
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: String,
        width: usize,
        terrain: Vec<i64>,
        enter_cost: Vec<i64>,
        neighbours: Vec<Vec<Hex>>,
        settlement_at: Vec<i32>,
        settlements: Vec<(String, Hex, i64, bool, i64)>,
        regions: Vec<(String, Vec<Sid>)>,
        ring: Vec<Sid>,
        storm_sealed: Vec<bool>,
    ) -> PyResult<Self> {
        let terrain = terrain
            .into_iter()
            .map(|t| Terrain::from_index(t).ok_or_else(|| PyValueError::new_err(format!("unknown terrain {t}"))))
            .collect::<PyResult<Vec<_>>>()?;
        let settlements = settlements
            .into_iter()
            .map(|(name, hex, region, canaanite, min_players)| SettlementSpec {
                name,
                hex,
                region: (region >= 0).then_some(region as u8),
                canaanite,
                min_players,
            })
            .collect();
        let regions = regions
            .into_iter()
            .map(|(name, settlements)| RegionSpec { name, settlements })
            .collect();
        let board = Board::new(
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
        );
        Ok(PyBoard { inner: Arc::new(board) })
    }
}

#[pyclass(module = "plsim._core", name = "CoreRules", frozen)]
pub struct PyRules {
    pub rules: Arc<Rules>,
    pub cards: Arc<CardTable>,
}

#[pymethods]
impl PyRules {
    /// The rules of `Rules.to_dict()` as JSON text.
    #[new]
    fn new(json_text: &str) -> PyResult<Self> {
        let value: serde_json::Value =
            serde_json::from_str(json_text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let rules = Rules::from_json(&value).map_err(PyValueError::new_err)?;
        let cards = CardTable::new(&rules.deck);
        Ok(PyRules {
            rules: Arc::new(rules),
            cards: Arc::new(cards),
        })
    }

    /// Every card of the deck, in catalogue order.
    fn deck(&self) -> Vec<String> {
        self.cards.names.clone()
    }
}
