"""Frames, the streaming part writer, and the report files built from them."""

import json
from dataclasses import dataclass, field

import polars as pl
import pytest

from plsim.plots.report_plots import (
    cut_to_running, fair_share_label, running_shares, vp_by_round, wrath_by_round, wrath_reached_by_round,
)
from plsim.report import format_summary, rebuild_report, reproduce_command, write_report
from plsim.runfolder import (
    GAMES_SCHEMA, PLOT_FILES, ROUNDS_SCHEMA, ROUND_COLUMNS, FrameSink, GameRecord, combine_parts, fault_row,
    games_frame, has_parts, rounds_frame,
)
from plsim.stats.health import HEALTH_COLUMNS
from plsim.stats.tables import SEAT_SUMMARY_COLUMNS, SUMMARY_COLUMNS


@dataclass
class Result:
    """A stand-in for the engine's GameResult: every seat's VP grows by one a round."""

    winner: int | None
    end_reason: str
    rounds: int
    players: int
    decisions: int = 25
    final_wrath: int = 9
    pairs_released: int = 1
    settlements_razed: int = 2
    first_judge_round: int | None = 3
    first_king_round: int | None = None
    round_rows: list[tuple] = field(default_factory=list)

    def __post_init__(self):
        for r in range(1, self.rounds + 1):
            for seat in range(self.players):
                self.round_rows.append((
                    r, seat, r + seat, 10 * r, 2, 1, 0, 0, 0, 3, 2, 1, 0, 0, 0, seat == 0, 4,
                    2 * r, 0,
                ))


def records(n_games, start=0, names=("a", "b", "c")):
    """Games with rotating seats; every third game a draw, the rest won by seat 0."""
    out = []
    for g in range(start, start + n_games):
        seats = tuple(names[(i + g) % len(names)] for i in range(len(names)))
        res = Result(None if g % 3 == 2 else 0, "draw" if g % 3 == 2 else "victory", 4 + g % 5, len(seats))
        out.append(GameRecord(g, 100 + g, "test", seats, res, 0.25))
    return out


RUN_INFO = {"scenario": "test", "seed": 7, "seating": "rotate", "wrath_threshold": 13}


def test_frames_have_the_documented_schemas_and_values():
    recs = records(3)
    games, rounds = games_frame(recs), rounds_frame(recs)
    assert games.schema == pl.Schema(GAMES_SCHEMA)
    assert rounds.schema == pl.Schema(ROUNDS_SCHEMA)
    first = games.row(0, named=True)
    assert first["strategies"] == "a,b,c"
    assert (first["seat_0"], first["seat_2"], first["seat_3"]) == ("a", "c", None)
    assert (first["winner_seat"], first["winner_strategy"], first["players"]) == (0, "a", 3)
    draw = games.row(2, named=True)
    assert (draw["end_reason"], draw["winner_seat"], draw["winner_strategy"]) == ("draw", None, None)
    assert rounds.height == sum(len(r.result.round_rows) for r in recs)
    game1 = rounds.filter(pl.col("game") == 1)
    assert game1.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == ["b"]
    assert game1["tabernacle"].dtype == pl.Boolean


def test_empty_frames_keep_their_schema():
    assert games_frame([]).schema == pl.Schema(GAMES_SCHEMA)
    assert rounds_frame([]).schema == pl.Schema(ROUNDS_SCHEMA)


def test_out_of_range_values_fail_loudly_instead_of_wrapping():
    rec = records(1)[0]
    rec.result.round_rows[0] = (1, 0, 40_000, *rec.result.round_rows[0][3:])
    with pytest.raises(pl.exceptions.InvalidOperationError):
        rounds_frame([rec])


def test_round_columns_match_the_engine_once_it_exists():
    engine = pytest.importorskip("plsim.engine")
    if not hasattr(engine, "ROUND_COLUMNS"):
        pytest.skip("plsim.engine does not export ROUND_COLUMNS yet")
    assert tuple(engine.ROUND_COLUMNS) == ROUND_COLUMNS


def write_run(out, chunks, close=True):
    """Stream ``chunks`` (lists of records) through a FrameSink, closing it or not."""
    sink = FrameSink(out)
    for chunk in chunks:
        sink.write(games_frame(chunk), rounds_frame(chunk))
    if close:
        sink.close()
    return sink


def test_parts_combine_into_one_parquet_each_with_every_row(tmp_path):
    chunks = [records(4, start=8), records(4, start=0), records(4, start=4)]
    sink = write_run(tmp_path, chunks)
    games = pl.read_parquet(tmp_path / "games.parquet")
    rounds = pl.read_parquet(tmp_path / "rounds.parquet")
    assert games["game"].to_list() == list(range(12))
    assert rounds.height == sum(len(r.result.round_rows) for c in chunks for r in c)
    assert (sink.games_written, sink.rows_written) == (12, rounds.height)
    assert rounds.schema == pl.Schema(ROUNDS_SCHEMA)
    assert not (tmp_path / "parts").exists()


def test_an_interrupted_run_keeps_its_parts_and_report_combines_them(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps(RUN_INFO))
    with pytest.raises(KeyboardInterrupt):
        with FrameSink(tmp_path) as sink:
            sink.write(games_frame(records(3)), rounds_frame(records(3)))
            raise KeyboardInterrupt
    assert has_parts(tmp_path) and not (tmp_path / "games.parquet").exists()
    with pytest.raises(FileExistsError, match="plsim report"):
        FrameSink(tmp_path)
    report = rebuild_report(tmp_path)
    assert report.games == 3
    assert pl.read_parquet(tmp_path / "games.parquet").height == 3
    assert not has_parts(tmp_path)


def test_a_rounds_part_without_its_games_part_is_left_out(tmp_path):
    sink = write_run(tmp_path, [records(2)], close=False)
    rounds_frame(records(2, start=2)).write_parquet(sink.parts / "rounds-000000002.parquet")
    assert combine_parts(tmp_path)
    assert pl.read_parquet(tmp_path / "rounds.parquet")["game"].unique().sort().to_list() == [0, 1]


def test_csv_copies_hold_the_same_rows(tmp_path):
    sink = FrameSink(tmp_path, csv=True)
    sink.write(games_frame(records(5)), rounds_frame(records(5)))
    sink.close()
    games = pl.read_csv(tmp_path / "games.csv")
    assert games["game"].to_list() == list(range(5))
    assert games.columns == list(GAMES_SCHEMA)
    assert pl.read_csv(tmp_path / "rounds.csv").height == pl.read_parquet(tmp_path / "rounds.parquet").height


def test_write_report_writes_tables_plots_and_run_info(tmp_path):
    recs = records(9)
    report = write_report(tmp_path, games_frame(recs), rounds_frame(recs).lazy(), RUN_INFO, csv=False)
    for name in ("summary.csv", "seats.csv", "end_reasons.csv", "run.json", *PLOT_FILES.values()):
        assert (tmp_path / name).stat().st_size > 0, name
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in tmp_path.glob("*.png"))
    assert not (tmp_path / "games.csv").exists()
    assert json.loads((tmp_path / "run.json").read_text()) == RUN_INFO

    summary = pl.read_csv(tmp_path / "summary.csv")
    assert summary.columns == list(SUMMARY_COLUMNS)
    rows = {r["strategy"]: r for r in summary.iter_rows(named=True)}
    # Seat 0 of game g is a, b, c for g % 3 = 0, 1, 2; seat 0 wins unless g % 3 == 2 (a draw),
    # so c sits in seat 0 only in drawn games.
    assert {s: r["games"] for s, r in rows.items()} == {"a": 9, "b": 9, "c": 9}
    assert {s: r["wins"] for s, r in rows.items()} == {"a": 3, "b": 3, "c": 0}
    assert rows["a"]["win_rate"] == pytest.approx(3 / 9)
    # a wins games 0, 3 and 6, of 4, 7 and 5 rounds
    assert rows["a"]["mean_rounds_won"] == pytest.approx((4 + 7 + 5) / 3)
    assert rows["c"]["mean_rounds_won"] is None
    seats = pl.read_csv(tmp_path / "seats.csv")
    assert seats.columns == list(SEAT_SUMMARY_COLUMNS)
    assert seats.filter(pl.col("strategy") == "all")["wins"].to_list() == [6, 0, 0]
    assert report.end_reasons.filter(pl.col("end_reason") == "draw")["games"].item() == 3


def test_format_summary_names_strategies_intervals_reasons_and_files(tmp_path):
    recs = records(6)
    text = format_summary(write_report(tmp_path, games_frame(recs), rounds_frame(recs), RUN_INFO))
    assert "6 games, scenario test, seating rotate, run seed 7" in text
    assert "fair share at 3 players: 33.3%" in text
    assert "  a " in text and "[" in text and "%]" in text
    assert "draw" in text and "seat 2" in text
    assert str(tmp_path) in text and "winrates.png" in text


def test_rebuild_report_reproduces_the_csvs(tmp_path):
    write_run(tmp_path, [records(5), records(5, start=5)])
    games = pl.read_parquet(tmp_path / "games.parquet")
    rounds = pl.read_parquet(tmp_path / "rounds.parquet")
    run_info = {**RUN_INFO, "csv": True}
    write_report(tmp_path, games, rounds, run_info, csv=True)
    before = {n: (tmp_path / n).read_bytes() for n in ("summary.csv", "seats.csv", "end_reasons.csv", "games.csv")}
    for name in before:
        (tmp_path / name).unlink()
    report = rebuild_report(tmp_path)
    assert report.run_info == run_info
    assert {n: (tmp_path / n).read_bytes() for n in before} == before


def test_rebuild_report_on_an_empty_directory_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing to report"):
        rebuild_report(tmp_path)


def test_wrath_plot_draws_one_curve_per_player_mix(tmp_path):
    """Three mixes of players (two of them of three seats, one of two) give three Wrath curves,
    each named by its mix and drawn over the rounds its games reached."""
    recs = records(6) + records(6, start=6, names=("a", "a", "d")) + records(6, start=12, names=("d", "e"))
    games, rounds = games_frame(recs), rounds_frame(recs)
    table, running, mixes = wrath_by_round(rounds.lazy(), games)
    assert mixes == 3
    assert sorted(table["mix"].unique()) == sorted(running["mix"].unique()) == ["a x2, d", "a, b, c", "d, e"]
    for mix, part in table.group_by("mix"):
        assert part["round"].to_list() == list(range(1, 9)), mix  # every mix has games of 4 to 8 rounds
    write_report(tmp_path, games, rounds, RUN_INFO)
    assert (tmp_path / "wrath.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_wrath_plot_counts_the_games_that_reached_the_threshold_by_each_round():
    """W-2: a release empties the cup, so the plot also counts the games whose round ended with
    the cup one short of the threshold or more (here Wrath is twice the round: 12 in round 6,
    reached by the three games of 6 to 8 rounds out of six), or with invaders loose (none)."""
    recs = records(6)
    reached = wrath_reached_by_round(rounds_frame(recs).lazy(), games_frame(recs), 13)
    assert reached["round"].to_list() == list(range(1, 9))
    assert reached["reached"].to_list() == [0] * 5 + [3] * 3
    assert reached["reached_share"].to_list() == [0.0] * 5 + [0.5] * 3
    assert wrath_reached_by_round(rounds_frame(recs).lazy(), games_frame(recs), 99)["reached"].sum() == 0


def test_every_run_writes_health_seats_plot_and_a_self_contained_html(tmp_path):
    recs = records(9)
    report = write_report(tmp_path, games_frame(recs), rounds_frame(recs).lazy(), RUN_INFO)
    health = pl.read_csv(tmp_path / "health.csv")
    assert tuple(health.columns) == HEALTH_COLUMNS
    assert health.filter(pl.col("metric") == "draw_share")["value"].item() == pytest.approx(3 / 9)
    assert (tmp_path / "seats.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (tmp_path / "report.html").read_text()
    assert tmp_path / "report.html" in report.files
    assert page.count('src="data:image/png;base64,') == len(PLOT_FILES)
    assert "http://" not in page and "https://" not in page
    assert "plsim run test --seating rotate --seed 7" in page  # rebuilt: run.json has no command
    assert "<td>dominance</td>" in page


def test_write_report_without_html(tmp_path):
    recs = records(3)
    write_report(tmp_path, games_frame(recs), rounds_frame(recs), RUN_INFO, html=False)
    assert not (tmp_path / "report.html").exists()


def test_summary_shows_health_block_and_invader_releases(tmp_path):
    recs = records(6)
    text = format_summary(write_report(tmp_path, games_frame(recs), rounds_frame(recs), RUN_INFO))
    assert "Game health (95% intervals" in text
    assert "invaders   released in 100.0% [" in text  # every stand-in game released one pair
    assert "pairs released per game 1.00" in text
    assert "lead       changes per game 0.00" in text  # seat 2 leads from round 1 in every game
    assert "How games ended" in text and "  draw " in text
    assert "report: " in text and "health.csv" in text and "seats.png" in text


def test_faulted_games_are_counted_out_and_the_summary_says_so(tmp_path):
    recs = records(6)
    faults = [fault_row(6 + i, 900 + i, "test", ("a", "b", "c")) for i in range(2)]
    games = pl.concat([games_frame(recs), pl.DataFrame(faults, schema=list(GAMES_SCHEMA), orient="row").cast(GAMES_SCHEMA)])
    report = write_report(tmp_path, games, rounds_frame(recs), RUN_INFO)
    clean = write_report(tmp_path / "clean", games_frame(recs), rounds_frame(recs), RUN_INFO)
    assert (report.games, report.faults) == (6, 2)
    assert report.summary.equals(clean.summary) and report.health.equals(clean.health)
    assert "2 games stopped by a fault are left out (faults.csv)" in format_summary(report)
    assert "stopped by a fault" not in format_summary(clean)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_one_player_count_is_never_called_mixed(tmp_path, players):
    names = tuple("abcdef"[:players])
    recs = records(100, names=names)
    report = write_report(tmp_path, games_frame(recs), rounds_frame(recs), RUN_INFO, html=False)
    text = format_summary(report)
    assert f"fair share at {players} players: {1 / players:.1%}" in text
    assert "mixed" not in text
    assert fair_share_label(report.players) == f"fair share 1/{players} = {1 / players:.1%}"


def test_mixed_player_counts_say_so_in_summary_and_plot(tmp_path):
    recs = records(6) + records(6, start=6, names=("d", "e"))
    report = write_report(tmp_path, games_frame(recs), rounds_frame(recs), RUN_INFO, html=False)
    assert report.players == pytest.approx(1 / ((6 / 3 + 6 / 2) / 12))
    assert "fair share, mean over games of mixed player counts: 41.7%" in format_summary(report)
    assert fair_share_label(report.players) == "fair share, mean over games of mixed player counts = 41.7%"


def test_per_round_curves_stop_where_fewer_than_a_tenth_of_games_run():
    lengths = pl.DataFrame({"mix": ["x"] * 20, "rounds": [5] * 18 + [8, 12]})
    running = running_shares(lengths, "mix")
    assert running["round"].to_list() == list(range(1, 13))
    assert running["running"].to_list() == [20] * 5 + [2] * 3 + [1] * 4
    table = pl.DataFrame({"mix": ["x"] * 12, "round": list(range(1, 13)), "mean": [1.0] * 12})
    assert cut_to_running(table, running, "mix")["round"].to_list() == [1, 2, 3, 4, 5, 6, 7, 8]


def test_wrath_and_vp_tables_stream_the_rounds_of_played_games_only(tmp_path):
    recs = records(6)
    faults = pl.DataFrame([fault_row(0, 900, "test", ("a", "b", "c"))], schema=list(GAMES_SCHEMA), orient="row")
    games = pl.concat([games_frame(recs[1:]), faults.cast(GAMES_SCHEMA)])
    wrath, running, _ = wrath_by_round(rounds_frame(recs).lazy(), games)
    assert wrath.filter(pl.col("round") == 1)["running"].item() == 5  # game 0's rows are left out
    vp, _ = vp_by_round(rounds_frame(recs).lazy(), games)
    assert vp.filter((pl.col("strategy") == "a") & (pl.col("round") == 1))["mean"].item() == pytest.approx(
        sum(1 + s for g in range(1, 6) for s in range(3) if recs[g].seats[s] == "a") / 5)


def test_reproduce_command_prefers_the_recorded_one():
    assert reproduce_command({"command": "plsim run x --games 5"}) == "plsim run x --games 5"
    grown = {"command": "plsim run x --games 5 --out r", "resumed": [
        {"command": "plsim run --resume r --workers 2"},
        {"command": "plsim run --resume r --games 9", "grown": {"from": 5, "to": 9}},
        {"command": None, "grown": {"from": 9, "to": 12}}]}
    assert reproduce_command(grown) == ("plsim run x --games 5 --out r && plsim run --resume r --games 9 && "
                                        "plsim run --resume DIR --games 12")
    assert reproduce_command({"command": ["plsim", "run", "my scenario.toml"]}) == "plsim run 'my scenario.toml'"
    rebuilt = reproduce_command({"kind": "run", "scenario": "standard-4p", "games_requested": 400,
                                 "strategies": ["warlord", "random"], "seating": "rotate", "seed": 9})
    assert rebuilt == "plsim run standard-4p --games 400 --players warlord,random --seating rotate --seed 9"
    tournament = reproduce_command({"kind": "tournament", "scenario": "standard-4p", "games_per_table": 50,
                                    "tournament_strategies": ["a", "b", "c", "d", "e"], "seed": 1})
    assert tournament == "plsim tournament standard-4p --players a,b,c,d,e --games-per-table 50 --seed 1"


def test_summary_of_games_nobody_won_has_no_seat_test_and_no_comebacks(tmp_path):
    recs = [GameRecord(g, 100 + g, "test", ("a", "b"), Result(None, "draw", 5, 2), 0.1) for g in range(4)]
    text = format_summary(write_report(tmp_path, games_frame(recs), rounds_frame(recs), RUN_INFO, html=False))
    assert "equal-chances chi-square - (0 won games)" in text
    assert "comebacks - of 0 won games" in text


@pytest.mark.parametrize(("noted", "expected"), [(3, 3), ([{"game": 1}, {"game": 4}], 2), (None, 0)])
def test_faults_counted_in_run_json_are_reported_when_the_frame_has_no_fault_rows(tmp_path, noted, expected):
    recs = records(3)
    info = {**RUN_INFO, **({} if noted is None else {"faults": noted})}
    report = write_report(tmp_path, games_frame(recs), rounds_frame(recs), info, html=False)
    assert report.faults == expected


def test_statistics_computed_block_by_block_equal_those_computed_at_once(tmp_path, monkeypatch):
    """The report aggregates big frames a block of games at a time (so its memory stays flat);
    blocks of a few rows must give exactly the tables of one block."""
    from plsim.runfolder import CARDS_SCHEMA
    from plsim.stats import blocks
    from plsim.stats import card_table
    from plsim.stats import strategy_summary

    recs = records(30)
    games, rounds = games_frame(recs), rounds_frame(recs)
    cards = pl.DataFrame(
        [(g, 1, g % 3, card, action) for g in range(30) for card, action in
         (("Tax", "dealt"), ("Tax", "played"), ("Plague", "drawn"), ("Ark", "dealt"))[: 1 + g % 4]],
        schema=CARDS_SCHEMA, orient="row")
    at_once = strategy_summary(games, rounds), card_table(cards, games)
    monkeypatch.setattr(blocks, "BLOCK_ROWS", 7)
    assert len(blocks.game_blocks(rounds)) > 10 and len(blocks.game_blocks(cards)) > 5
    assert blocks.game_blocks(cards)[0][0] == 0 and blocks.game_blocks(cards)[-1][1] == 29
    by_block = strategy_summary(games, rounds), card_table(cards, games)
    for once, blocked in zip(at_once, by_block):
        assert blocked.equals(once)


def test_write_report_from_lazy_scans_writes_what_it_writes_from_frames(tmp_path):
    """A run's report reads its Parquet files lazily and never collects them whole; the tables
    are the same as from frames in memory."""
    recs = records(12)
    (tmp_path / "a").mkdir()
    games_frame(recs).write_parquet(tmp_path / "a" / "games.parquet")
    rounds_frame(recs).write_parquet(tmp_path / "a" / "rounds.parquet")
    lazy = write_report(tmp_path / "a", pl.scan_parquet(tmp_path / "a" / "games.parquet"),
                        pl.scan_parquet(tmp_path / "a" / "rounds.parquet"), RUN_INFO, html=False)
    eager = write_report(tmp_path / "b", games_frame(recs), rounds_frame(recs), RUN_INFO, html=False)
    assert lazy.games == eager.games == 12 and lazy.players == eager.players == 3.0
    for name in ("summary.csv", "seats.csv", "end_reasons.csv", "health.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


@pytest.mark.parametrize("seed", range(20))
def test_the_length_plots_median_from_counts_is_the_median_of_the_games(seed):
    import random
    from statistics import median

    from plsim.plots.report_plots import counted_median

    rng = random.Random(seed)
    lengths = [rng.randint(1, 9) for _ in range(rng.randint(1, 40))]
    values = sorted(set(lengths))
    assert counted_median(values, [lengths.count(v) for v in values]) == median(lengths)
