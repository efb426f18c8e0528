"""The deck as rule parameters (section 9, issue 43): ``rules.deck.<kind>`` counts, checked and
played like any other parameter."""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.board import default_board
from plsim.cli import main
from plsim.engine.cards import CATALOGUE, Category, category_of, deck_count, full_deck, kind_of
from plsim.engine.game import Game
from plsim.engine.table import Table
from plsim.rules import Rules, RulesError, check_deck, deck_category, deck_key, param_specs, with_param, with_params
from plsim.scenario import ScenarioError, load_scenario
from plsim.strategy.registry import resolve


def test_every_catalogue_kind_has_a_deck_count_of_its_category_and_the_default_is_the_manuals_88():
    """Section 9: one ``deck.<kind>`` per kind of the catalogue, no other; the defaults make the
    manual's 88 cards (24 generals, 13 items, 35 one-use cards, 16 events)."""
    keys = {p.split(".", 1)[1] for p in param_specs() if p.startswith("deck.")}
    assert keys == {deck_key(kind) for kind in CATALOGUE}
    for kind, spec in CATALOGUE.items():
        assert deck_category(deck_key(kind)) == spec.category.value, kind
    deck = full_deck(Rules())
    assert len(deck) == 88
    assert Counter(category_of(c) for c in deck) == {Category.GENERAL: 24, Category.ITEM: 13,
                                                     Category.ONE_USE: 35, Category.EVENT: 16}
    assert param_specs()["deck.goliaths_sword"].default == 1 and param_specs()["deck.secret_passage"].default == 7


def test_counts_change_the_deck_and_its_size():
    """A count sets how many cards of the kind the deck holds; a general is one card, 0 or 1."""
    rules = with_params(Rules(), {"deck.tax": 10, "deck.assassin": 0, "deck.joab": 0})
    deck = full_deck(rules)
    kinds = Counter(kind_of(c) for c in deck)
    assert len(deck) == 88 + 6 - 2 - 1 and len(set(deck)) == len(deck)
    assert kinds["Tax"] == 10 == deck_count(rules, "Tax") and "Assassin" not in kinds and "Joab" not in kinds
    with pytest.raises(RulesError, match=r"rules.deck.joab = 2 is out of range: allowed 0..1"):
        with_param(Rules(), "deck.joab", 2)
    with pytest.raises(RulesError, match=r"rules.deck.tax = 21 is out of range: allowed 0..20"):
        with_param(Rules(), "deck.tax", 21)
    table = Table.new(default_board(), rules, seed=3, players=4)
    state = table.state
    in_play = list(state.deck) + [g.name for g in state.generals.values()]
    in_play += [i for g in state.generals.values() for i in g.items] + [c for p in state.players for c in p.hand]
    assert sorted(in_play) == sorted(deck)  # SU-1, SU-3: the whole (changed) deck, dealt from


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_removed_kind_is_never_dealt_drawn_or_played_and_the_invariants_hold(seed):
    """Whole games with the Assassin, the Ark, Tax and Joab removed and ten Plagues: none of the
    removed cards ever appears, and check mode's card conservation holds after every phase."""
    rules = with_params(Rules(), {"deck.assassin": 0, "deck.ark": 0, "deck.tax": 0, "deck.joab": 0,
                                  "deck.plague": 10})
    random = resolve("random")
    result = Game.new(default_board(), rules, [random.make(s, seed) for s in range(4)], seed, check=True).play()
    kinds = Counter(kind for _, _, kind, _ in result.card_events)
    assert not {"Assassin", "Ark", "Tax", "Joab"} & set(kinds)
    assert kinds["Plague"] > 0


@pytest.mark.parametrize("values, players, message", [
    ({"deck." + deck_key(k): 0 for k in list(CATALOGUE)[:17]}, 4,
     r"rules.deck holds 7 generals, but rules.setup.generals = 2 deals 8 to 4 players \(SU-3\)"),
    ({"setup.generals": 5}, 6, r"rules.deck holds 24 generals, but rules.setup.generals = 5 deals 30 to 6 players"),
    ({"deck." + deck_key(k): 0 for k, spec in CATALOGUE.items() if spec.category in (Category.ITEM, Category.ONE_USE)},
     2, r"rules.deck holds no item or one-use card, but rules.setup.cards = 2 deals them"),
    ({**{"deck." + deck_key(k): 0 for k in CATALOGUE}, "setup.generals": 0, "setup.cards": 0}, 2,
     r"rules.deck holds no card, but rules.cards.draw_per_round = 1 draws every round \(DR-1\)"),
])
def test_a_deck_the_rules_cannot_play_is_refused_naming_the_key(values, players, message):
    rules = with_params(Rules(), values)
    with pytest.raises(RulesError, match=message):
        check_deck(rules, players)
    with pytest.raises(RulesError, match=message):
        Table.new(default_board(), rules, seed=1, players=players)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_scenario_sets_the_deck_and_a_bad_one_is_one_line_and_exit_2(tmp_path):
    good = tmp_path / "no-assassin.toml"
    good.write_text('[scenario]\nplayers = 2\nstrategies = ["random"]\n[rules.deck]\nassassin = 0\ngoliaths_sword = 3\n')
    scenario = load_scenario(good)
    assert scenario.rules.deck.assassin == 0 and len(full_deck(scenario.rules)) == 88 - 2 + 2
    bad = tmp_path / "few-generals.toml"
    bad.write_text("[scenario]\nplayers = 6\n[rules.setup]\ngenerals = 5\n")
    with pytest.raises(ScenarioError, match=r"few-generals.toml: rules.deck holds 24 generals"):
        load_scenario(bad)
    result = invoke("run", bad, "--games", 2, "--workers", 1, "--out", tmp_path / "r")
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message and "rules.setup.generals = 5" in message
    assert not (tmp_path / "r").exists()
    out = tmp_path / "ok"
    result = invoke("run", good, "--games", 4, "--workers", 1, "--seed", 2, "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    cards = pl.read_parquet(out / "cards.parquet").with_columns(pl.col("card").cast(pl.String))
    assert cards.height > 0 and cards.filter(pl.col("card") == "Assassin").is_empty()


def test_scenarios_params_lists_the_deck_and_a_sweep_varies_a_count(tmp_path):
    listed = invoke("scenarios", "--params")
    assert listed.exit_code == 0
    assert "deck.assassin" in listed.stdout and "deck.joab" in listed.stdout
    out = tmp_path / "sweep"
    result = invoke("sweep", "standard-2p", "--vary", "deck.assassin=0,2", "--games", 4, "--workers", 1,
                    "--seed", 1, "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert {p.name for p in (out / "cells").iterdir()} == {"deck.assassin=0", "deck.assassin=2"}
    refused = invoke("sweep", "standard-4p", "--vary", "setup.generals=2,6", "--vary", "deck.joab=0,1", "--games", 2,
                     "--workers", 1, "--out", tmp_path / "bad")
    assert refused.exit_code == 2 and not (tmp_path / "bad").exists()
    assert refused.stderr.strip() == ("Error: cell setup.generals=6,deck.joab=0: rules.deck holds 23 generals, but "
                                      "rules.setup.generals = 6 deals 24 to 4 players (SU-3)")
