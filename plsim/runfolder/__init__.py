"""The run folder: what a run leaves on disk, and the only code that reads or writes it as such.

``frames`` the columns of games.parquet, rounds.parquet and cards.parquet; ``writer`` rows
streamed to part files and combined; ``folders`` choosing, checking and clearing a folder;
``lock`` one writer per folder; ``faults`` the faults' record; ``provenance`` the code that
played the games; ``runinfo`` run.json and grid.json; ``names`` every file name; ``errors`` the
one error (``RunConfigError``). Nothing here plays a game or computes a statistic: the runner
writes a folder through this package, and the statistics, the report and the replays read it.
"""

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.faults import FAULT_KINDS, Fault, FaultLog, drop_stopped, read_faults
from plsim.runfolder.folders import check_out, open_out, resolve_out, scenario_reference, write_scenario_file
from plsim.runfolder.frames import (
    CARDS_SCHEMA, END_REASONS, FAULT, GAMES_SCHEMA, MAX_SEATS, ROUNDS_SCHEMA, ROUND_COLUMNS, SEAT_COLUMNS,
    CardColumns, GameRecord, card_columns, fault_row, game_row, games_frame, round_rows, rounds_frame,
    rounds_frame_from_rows,
)
from plsim.runfolder.lock import FolderLock
from plsim.runfolder.names import (
    CARD_FILES, CELLS_DIR, CRASH_LOG, FAULTS_FILE, FAULTS_LOG, GRID_FILE, HTML_FILE, PARTS_DIR, PLOT_FILES,
    REPLAYS_DIR, REPLAYS_INDEX, RUN_INFO_FILE, TABLE_FILES, WORKERS_LOG,
)
from plsim.runfolder.provenance import changes, check_same_code, code_record, cut_list, for_entries
from plsim.runfolder.runinfo import read_grid, read_run_info, write_grid, write_run_info
from plsim.runfolder.writer import (
    EMPTY, KINDS, FrameSink, RowSink, SinkGroup, combine_parts, has_parts, scan_cards, scan_frames, set_aside_damaged,
    write_csv_copies,
)

__all__ = [
    "CARDS_SCHEMA", "CARD_FILES", "CELLS_DIR", "CRASH_LOG", "CardColumns", "EMPTY", "END_REASONS", "FAULT",
    "FAULTS_FILE", "FAULTS_LOG", "FAULT_KINDS", "Fault", "FaultLog", "FolderLock", "FrameSink", "GAMES_SCHEMA",
    "GRID_FILE", "GameRecord", "HTML_FILE", "KINDS", "MAX_SEATS", "PARTS_DIR", "PLOT_FILES", "REPLAYS_DIR",
    "REPLAYS_INDEX", "ROUNDS_SCHEMA", "ROUND_COLUMNS", "RUN_INFO_FILE", "RowSink", "RunConfigError", "SEAT_COLUMNS",
    "SinkGroup", "TABLE_FILES", "WORKERS_LOG", "card_columns", "changes", "check_out", "check_same_code", "code_record",
    "combine_parts", "cut_list", "drop_stopped", "fault_row", "for_entries", "game_row", "games_frame", "has_parts",
    "open_out", "read_faults", "read_grid", "read_run_info", "resolve_out", "round_rows", "rounds_frame",
    "rounds_frame_from_rows", "scan_cards", "scan_frames", "scenario_reference", "set_aside_damaged",
    "write_csv_copies", "write_grid", "write_run_info", "write_scenario_file",
]
