#!/usr/bin/env bash
# Issue "Strength III", three- and four-player Pyloff: the self-play games the evaluation's
# weights for three and four players are tuned from (docs/pyloff.md). The `ploy` program of
# COMMIT plays its engine (the default search) at 2,000 nodes a move in one seat, turning
# game by game, against the same engine at 1,800 in the others (nearly equal, so that the
# games of an opening differ), size 6, default rules, 4 random opening plies, and writes
# every game's record into DIR. A node budget makes the games the same on any machine.
# Then: cargo run --release -p pyloff --example pyloff_tune -- DIR [DIR...]
# Usage: matches/pyloff-selfplay.sh COMMIT PLAYERS GAMES SEED DIR
#   round 1: matches/pyloff-selfplay.sh 309a876 4 600 300 target/pyloff-4
#            matches/pyloff-selfplay.sh 309a876 3 402 301 target/pyloff-3
set -euo pipefail
usage="usage: matches/pyloff-selfplay.sh COMMIT PLAYERS GAMES SEED DIR"
commit="${1:?$usage}" players="${2:?$usage}" games="${3:?$usage}" seed="${4:?$usage}"
dir="${5:?$usage}"
cd "$(dirname "$0")/.."
. matches/base-engine.sh
base_ploy "$commit"
"target/matches/ploy-$commit" match --game pyloff --players "$players" --a full \
  --b full@n1800 --nodes 2000 --games "$games" --seed "$seed" -j 2 --records "$dir"
