"""The names of what a run folder holds: its files and folders, in one place.

A run, a resume, ``plsim report``, ``--force`` and the replays all find a folder's parts by
these names; a reader looking for "where does ``faults.csv`` come from" starts here.
"""

from __future__ import annotations

RUN_INFO_FILE = "run.json"  # the run's plan, settings, code digests and totals (``runinfo``)
GRID_FILE = "grid.json"  # at the root of a grid of run folders (a sweep's)
CELLS_DIR = "cells"  # a grid's run folders: cells/<name>/
LOCK_FILE = ".plsim.lock"  # held by the one plsim writing the folder (``lock``)
FAULTS_FILE = "faults.csv"  # one row per fault (``faults``)
FAULTS_LOG = "faults.log"  # their tracebacks
CRASH_LOG = "plsim.log"  # the traceback of an error of plsim's own during a run
WORKERS_LOG = "workers.log"  # what the worker processes printed: strategies' output, a dying worker's last words
PARTS_DIR = "parts"  # rows streamed as part files while the run plays (``writer``)
MERGE_DIR = "parts-merge"  # scratch space while the parts are combined
DAMAGED_DIR = "parts-damaged"  # parts that cannot be read whole, set aside
HTML_FILE = "report.html"
REPLAYS_DIR = "replays"  # the replays a report links
REPLAYS_INDEX = "index.json"  # which games they are, and why
# an oracle's reading of some games: chances per step, per game, the largest swings (``plsim.replay.moments``)
ORACLE_FILES = {"chances": "oracle.csv", "games": "oracle_games.csv", "moments": "moments.csv", "json": "oracle.json"}
TABLE_FILES = {"summary": "summary.csv", "seats": "seats.csv", "end_reasons": "end_reasons.csv",
               "health": "health.csv"}
PLOT_FILES = {"winrates": "winrates.png", "seats": "seats.png", "wrath": "wrath.png", "length": "length.png",
              "vp": "vp.png"}
CARD_FILES = {"table": "cards.csv", "plot": "cards.png"}  # written when the run recorded cards.parquet
