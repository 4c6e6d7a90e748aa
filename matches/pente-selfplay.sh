#!/usr/bin/env bash
# Issue "Strength III", Pente: the self-play games the evaluation's weights are tuned from
# (docs/pente.md, "Tuning the evaluation"). The `ploy` program of COMMIT plays its own
# engine at 20,000 nodes a move against the same engine at 18,000 (nearly equal, so that
# the two games of an opening differ), 19 x 19 with the tournament rule, three-stone
# openings with colours swapped, and writes every game's record into DIR; then the tuner
# reads them and prints the weights. A node budget makes the games the same on any machine.
# Usage: matches/pente-selfplay.sh COMMIT GAMES DIR
#   round 1: matches/pente-selfplay.sh 309a876 3000 target/selfplay-1
set -euo pipefail
commit="${1:?usage: matches/pente-selfplay.sh COMMIT GAMES DIR}"
games="${2:?usage: matches/pente-selfplay.sh COMMIT GAMES DIR}"
dir="${3:?usage: matches/pente-selfplay.sh COMMIT GAMES DIR}"
cd "$(dirname "$0")/.."
work="target/matches"
. matches/base-engine.sh
base_ploy "$commit"
"$work/ploy-$commit" match --game pente --a full --b full@n18000 --nodes 20000 \
  --games "$games" --seed 100 -j 2 --records "$dir"
cargo run --release -p pente --example pente_tune -- "$dir"
