"""The run folder: what a run leaves on disk, and the only code that reads or writes it as such.

``rows`` a finished game as plain rows (what a worker sends); ``frames`` the columns of
games.parquet, rounds.parquet and cards.parquet; ``writer`` rows streamed to part files and
combined; ``damage`` what is wrong with the frames, found before a resume or a report trusts
them; ``folders`` choosing, checking and clearing a folder; ``lock`` one writer per folder;
``faults`` the faults' record; ``provenance`` the code that played the games; ``runinfo`` run.json
and grid.json; ``names`` every file name; ``errors`` the one error (``RunConfigError``). Nothing
here plays a game or computes a statistic: the runner writes a folder through this package, and
the statistics, the report and the replays read it.

The public names load on first use (``from plsim.runfolder import game_row``): a worker process
needs only ``rows`` and so never imports polars.
"""

from __future__ import annotations

from plsim.lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(("RunConfigError",), "errors"),
    **dict.fromkeys(("FAULT_KINDS", "Fault", "FaultLog", "drop_stopped", "read_faults",), "faults"),
    **dict.fromkeys(("check_out", "open_out", "resolve_out", "scenario_reference", "write_scenario_file",), "folders"),
    **dict.fromkeys((
        "CARDS_SCHEMA", "END_REASONS", "FAULT", "GAMES_SCHEMA", "ROUNDS_SCHEMA", "fault_row", "games_frame",
        "rounds_frame", "rounds_frame_from_rows",
    ), "frames"),
    **dict.fromkeys((
        "MAX_SEATS", "ROUND_COLUMNS", "SEAT_COLUMNS", "CardColumns", "GameRecord", "card_columns", "game_row",
        "round_rows",
    ), "rows"),
    **dict.fromkeys(("FolderLock",), "lock"),
    **dict.fromkeys((
        "CARD_FILES", "CELLS_DIR", "CRASH_LOG", "FAULTS_FILE", "FAULTS_LOG", "GRID_FILE", "HTML_FILE",
        "ORACLE_FILES", "PARTS_DIR", "PLOT_FILES", "REPLAYS_DIR", "REPLAYS_INDEX", "RUN_INFO_FILE", "TABLE_FILES",
        "WORKERS_LOG",
    ), "names"),
    **dict.fromkeys(("changes", "check_same_code", "code_record", "cut_list", "for_entries",), "provenance"),
    **dict.fromkeys(("read_grid", "read_run_info", "write_grid", "write_run_info", "write_whole",), "runinfo"),
    **dict.fromkeys((
        "EMPTY", "KINDS", "FrameSink", "RowSink", "SinkGroup", "combine_parts", "has_parts", "scan_cards",
        "scan_frames", "write_csv_copies",
    ), "writer"),
    **dict.fromkeys(("Damage", "FrameCheck", "check_frames", "frame_damage", "refuse_damage", "set_aside",), "damage"),
}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = sorted(_EXPORTS)
