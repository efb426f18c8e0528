//! The rule parameters as the engine reads them: `plsim.rules` declares every one (its range,
//! its default, its docs) and hands the core its values as `Rules.to_dict()` JSON.

use serde_json::Value;

use crate::cards::KINDS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HomeOrder {
    Turn,
    Reverse,
    Snake,
    Random,
}

#[derive(Clone, Debug)]
pub struct Rules {
    pub rotate_first_player: bool,
    pub canaanite_garrison: i64,
    pub cost_wall: i64,
    pub cost_development: i64,
    pub cost_troop: i64,
    pub cost_judge_title: i64,
    pub cost_tabernacle: i64,
    pub cost_guilt_sacrifice: i64,
    pub limit_garrison: i64,
    pub developments_on_board: i64,
    pub developments_per_settlement: i64,
    pub troops_per_general: i64,
    pub generals_per_settlement: i64,
    pub captives_per_settlement: i64,
    pub captive_moves: i64,
    pub free_settlements_block: bool,
    pub wall_by_siege_round: Vec<i64>,
    pub city_by_siege_round: Vec<i64>,
    pub ark: i64,
    pub income_village: i64,
    pub income_city: i64,
    pub income_development: i64,
    pub tax_multiplier: i64,
    pub start_coins: i64,
    pub home_garrison: i64,
    pub home_min_distance: i64,
    pub home_order: HomeOrder,
    pub seat_coins: Vec<i64>,
    pub setup_generals: i64,
    pub setup_cards: i64,
    pub draw_per_round: i64,
    pub hand_limit: i64,
    pub blessing_draw: i64,
    pub event_slots: i64,
    pub mercenaries_strength: i64,
    pub chariot_strength: i64,
    pub sword_strength: i64,
    pub keep_captured_prophet: bool,
    pub combat_dice: i64,
    pub winner_losses: f64,
    pub loot_village: i64,
    pub loot_city: i64,
    pub loot_development: i64,
    pub wrath_threshold: i64,
    pub wrath_after_release: i64,
    pub wrath_max_pairs: i64,
    pub wrath_tax: i64,
    pub wrath_mercenaries: i64,
    pub wrath_assassin: i64,
    pub wrath_prophet_killed: i64,
    pub wrath_guilt_sacrifice: i64,
    pub invader_strength: i64,
    pub invader_troops: i64,
    pub invaders_per_pair: i64,
    /// W-6: loose invaders are enemy generals for the cards (`invaders.reading = "generals"`)
    pub invaders_are_generals: bool,
    /// TI-5: whoever takes a lapsed capital takes its title at once (`titles.lapsed_capital`)
    pub lapsed_title_to_taker: bool,
    pub plague_hit_on: i64,
    pub plague_dies_at_or_below: i64,
    pub plague_loss_share: f64,
    pub dice_sides: i64,
    pub victory_points: i64,
    pub max_rounds: i64,
    pub min_judge_regions: i64,
    pub region_min_settlements: i64,
    /// per catalogue kind, the cards of that kind in the deck
    pub deck: [i64; 44],
}

/// The `rules.deck` key of a kind: lower case, `_` for spaces, no apostrophe.
pub fn deck_key(kind: &str) -> String {
    let mut key = String::new();
    for c in kind.to_lowercase().replace('\'', "").chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c);
        } else if !key.ends_with('_') {
            key.push('_');
        }
    }
    key.trim_matches('_').to_string()
}

struct Reader<'a>(&'a Value);

impl Reader<'_> {
    fn get(&self, section: &str, key: &str) -> Result<&Value, String> {
        self.0
            .get(section)
            .and_then(|s| s.get(key))
            .ok_or_else(|| format!("rules.{section}.{key} is missing"))
    }

    fn int(&self, section: &str, key: &str) -> Result<i64, String> {
        let v = self.get(section, key)?;
        v.as_i64()
            .ok_or_else(|| format!("rules.{section}.{key} = {v} is not a whole number"))
    }

    fn float(&self, section: &str, key: &str) -> Result<f64, String> {
        let v = self.get(section, key)?;
        v.as_f64()
            .ok_or_else(|| format!("rules.{section}.{key} = {v} is not a number"))
    }

    fn flag(&self, section: &str, key: &str) -> Result<bool, String> {
        let v = self.get(section, key)?;
        v.as_bool()
            .ok_or_else(|| format!("rules.{section}.{key} = {v} is not true or false"))
    }

    fn text(&self, section: &str, key: &str) -> Result<&str, String> {
        let v = self.get(section, key)?;
        v.as_str()
            .ok_or_else(|| format!("rules.{section}.{key} = {v} is not a name"))
    }

    fn ints(&self, section: &str, key: &str) -> Result<Vec<i64>, String> {
        let v = self.get(section, key)?;
        let items = v
            .as_array()
            .filter(|a| !a.is_empty())
            .ok_or_else(|| format!("rules.{section}.{key} = {v} is not a list"))?;
        items
            .iter()
            .map(|i| {
                i.as_i64()
                    .ok_or_else(|| format!("rules.{section}.{key} holds {i}, not a whole number"))
            })
            .collect()
    }
}

impl Rules {
    /// The rules of a `Rules.to_dict()` (every section and key present: plsim.rules fills them).
    pub fn from_json(data: &Value) -> Result<Rules, String> {
        let r = Reader(data);
        let home_order = match r.text("setup", "home_order")? {
            "turn" => HomeOrder::Turn,
            "reverse" => HomeOrder::Reverse,
            "snake" => HomeOrder::Snake,
            "random" => HomeOrder::Random,
            other => {
                return Err(format!(
                    "rules.setup.home_order = {other:?} is not turn, reverse, snake or random"
                ))
            }
        };
        let keep_captured_prophet = match r.text("items", "captured_prophet")? {
            "keep" => true,
            "discard" => false,
            other => {
                return Err(format!(
                    "rules.items.captured_prophet = {other:?} is not keep or discard"
                ))
            }
        };
        let invaders_are_generals = match r.text("invaders", "reading")? {
            "generals" => true,
            "off_map" => false,
            other => return Err(format!("rules.invaders.reading = {other:?} is not generals or off_map")),
        };
        let lapsed_title_to_taker = match r.text("titles", "lapsed_capital")? {
            "taker" => true,
            "vacant" => false,
            other => {
                return Err(format!(
                    "rules.titles.lapsed_capital = {other:?} is not taker or vacant"
                ))
            }
        };
        let mut deck = [0i64; 44];
        for (k, spec) in KINDS.iter().enumerate() {
            deck[k] = r.int("deck", &deck_key(spec.name))?;
        }
        let seat_coins = r.ints("setup", "seat_coins")?;
        if seat_coins.len() < 6 {
            return Err(format!(
                "rules.setup.seat_coins holds {} values, not 6",
                seat_coins.len()
            ));
        }
        Ok(Rules {
            rotate_first_player: r.flag("turns", "rotate_first_player")?,
            canaanite_garrison: r.int("canaanites", "garrison")?,
            cost_wall: r.int("costs", "wall")?,
            cost_development: r.int("costs", "development")?,
            cost_troop: r.int("costs", "troop")?,
            cost_judge_title: r.int("costs", "judge_title")?,
            cost_tabernacle: r.int("costs", "tabernacle")?,
            cost_guilt_sacrifice: r.int("costs", "guilt_sacrifice")?,
            limit_garrison: r.int("limits", "garrison")?,
            developments_on_board: r.int("limits", "developments_on_board")?,
            developments_per_settlement: r.int("limits", "developments_per_settlement")?,
            troops_per_general: r.int("limits", "troops_per_general")?,
            generals_per_settlement: r.int("limits", "generals_per_settlement")?,
            captives_per_settlement: r.int("limits", "captives_per_settlement")?,
            captive_moves: r.int("limits", "captive_moves")?,
            free_settlements_block: r.flag("movement", "free_settlements_block")?,
            wall_by_siege_round: r.ints("defence", "wall_by_siege_round")?,
            city_by_siege_round: r.ints("defence", "city_by_siege_round")?,
            ark: r.int("defence", "ark")?,
            income_village: r.int("income", "village")?,
            income_city: r.int("income", "city")?,
            income_development: r.int("income", "development")?,
            tax_multiplier: r.int("income", "tax_multiplier")?,
            start_coins: r.int("economy", "start_coins")?,
            home_garrison: r.int("setup", "home_garrison")?,
            home_min_distance: r.int("setup", "home_min_distance")?,
            home_order,
            seat_coins,
            setup_generals: r.int("setup", "generals")?,
            setup_cards: r.int("setup", "cards")?,
            draw_per_round: r.int("cards", "draw_per_round")?,
            hand_limit: r.int("cards", "hand_limit")?,
            blessing_draw: r.int("cards", "blessing_draw")?,
            event_slots: r.int("cards", "event_slots")?,
            mercenaries_strength: r.int("cards", "mercenaries_strength")?,
            chariot_strength: r.int("cards", "chariot_strength")?,
            sword_strength: r.int("cards", "sword_strength")?,
            keep_captured_prophet,
            combat_dice: r.int("combat", "dice")?,
            winner_losses: r.float("combat", "winner_losses")?,
            loot_village: r.int("loot", "village")?,
            loot_city: r.int("loot", "city")?,
            loot_development: r.int("loot", "development")?,
            wrath_threshold: r.int("wrath", "threshold")?,
            wrath_after_release: r.int("wrath", "after_release")?,
            wrath_max_pairs: r.int("wrath", "max_pairs")?,
            wrath_tax: r.int("wrath", "tax")?,
            wrath_mercenaries: r.int("wrath", "mercenaries")?,
            wrath_assassin: r.int("wrath", "assassin")?,
            wrath_prophet_killed: r.int("wrath", "prophet_killed")?,
            wrath_guilt_sacrifice: r.int("wrath", "guilt_sacrifice")?,
            invader_strength: r.int("invaders", "strength")?,
            invader_troops: r.int("invaders", "troops")?,
            invaders_per_pair: r.int("invaders", "per_pair")?,
            invaders_are_generals,
            lapsed_title_to_taker,
            plague_hit_on: r.int("plague", "hit_on")?,
            plague_dies_at_or_below: r.int("plague", "dies_at_or_below")?,
            plague_loss_share: r.float("plague", "loss_share")?,
            dice_sides: r.int("dice", "sides")?,
            victory_points: r.int("victory", "points")?,
            max_rounds: r.int("victory", "max_rounds")?,
            min_judge_regions: r.int("victory", "min_judge_regions")?,
            region_min_settlements: r.int("victory", "region_min_settlements")?,
            deck,
        })
    }
}
