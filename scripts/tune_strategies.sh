#!/bin/sh
# The pre-registered tune of the six scripted strategies (docs/evidence/tune-strategy/README.md).
# Plays into reports/tune-strategies/NAME and copies the small files to docs/evidence/tune-strategy/NAME.
set -e
mkdir -p reports/tune-strategies
for name in economist warlord judge-rush schemer zealot prophet; do
    out="reports/tune-strategies/$name"
    plsim tune-strategy "$name" standard-4p --trials 24 --batch 4 --games 300 --seed 101 \
        --confirm-games 1000 --confirm-seed 202 --workers 2 --out "$out" --force --quiet > "$out.txt" 2>&1 \
        || { mkdir -p "$out"; cat "$out.txt"; exit 1; }
    keep="docs/evidence/tune-strategy/$name"
    mkdir -p "$keep"
    cp "$out.txt" "$keep/tune.txt"
    cp "$out/trials.csv" "$out/best.toml" "$out/tune_strategy.json" "$keep/"
    if [ -d "$out/confirm" ]; then cp "$out/confirm/compare.json" "$out/confirm/compare.csv" "$keep/"; fi
done
