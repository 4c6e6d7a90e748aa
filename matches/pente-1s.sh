#!/usr/bin/env bash
# Issue "Strength III", its Pente bar: this build's engine against the build of the commit
# before the issue's work (9a4001c), both over the engine protocol, 1 s a move (wall clock:
# run it on an otherwise idle machine), 19 x 19 with the tournament rule, three-stone
# openings with colours swapped, 100 games. The bar: at least +150 Elo with the lower 95 %
# bound above +50.
#
# The match writes a line per game to matches/logs/pente-1s-LABEL.jsonl and resumes from
# it, so it can run over several sessions: run it again to go on. LABEL names the build
# measured (a new build gets a new label, so its games start a log of their own).
# Usage: matches/pente-1s.sh LABEL [JOBS]   (JOBS games at once, default 1)
#
# Builds measured so far (each run at the commit named):
#   tuned (d0401cd, the evaluation tuned from self-play, the time spent): matches/pente-1s.sh tuned 2
set -euo pipefail
label="${1:?usage: matches/pente-1s.sh LABEL [JOBS]}"
jobs="${2:-1}"
cd "$(dirname "$0")/.."
base=9a4001c
work="target/matches"
mkdir -p "$work" matches/logs
. matches/base-engine.sh
base_engine "$base"
cargo build --release --example engine --bin ploy
cmp -s target/release/examples/engine "$work/engine-pente" ||
  cp target/release/examples/engine "$work/engine-pente"
log="matches/logs/pente-1s-$label.jsonl"
resume=()
[ -f "$log" ] && resume=(--resume)
exec target/release/ploy match --game pente \
  --a "engine:$work/engine-pente" --b "engine:$work/engine-$base" \
  --time 1s --games 100 --seed 24 -j "$jobs" --log "$log" "${resume[@]}"
