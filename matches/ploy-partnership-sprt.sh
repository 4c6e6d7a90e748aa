#!/usr/bin/env bash
# Issue "Strength III", its last bar for partnership: Ploy's four-player partnership game (two sides of two seats) is not weaker than the build
# of the commit before the issue's work (9a4001c). An SPRT of elo0 = -10 against elo1 = +5
# at 100 ms a move, both engines over the engine protocol, the partnership start (A as Green and Yellow, B as Red and Blue, and the other way round) followed by 4 random plies
# with colours swapped (the match's pairs), no no-capture draw, a draw at 400 plies.
#
# The match writes a line per game to matches/logs/ploy-partnership-sprt.jsonl and resumes
# from it, so it can run over several sessions: run this script again to go on.
# Usage: matches/ploy-partnership-sprt.sh [JOBS]   (JOBS games at once, default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
base=9a4001c
jobs="${1:-1}"
work="target/matches"
mkdir -p "$work" matches/logs
. matches/base-engine.sh
base_engine "$base"
cargo build --release --example engine --bin ploy
cp target/release/examples/engine "$work/engine-new"
log=matches/logs/ploy-partnership-sprt.jsonl
resume=()
[ -f "$log" ] && resume=(--resume)
exec target/release/ploy match --a "engine:$work/engine-new" --b "engine:$work/engine-$base" \
  --sprt=-10,5 --time 100ms --opening-plies 4 --no-capture-limit 0 --ply-cap 400 \
  --seed 25 --openings matches/openings/partnership.txt -j "$jobs" --log "$log" "${resume[@]}"
