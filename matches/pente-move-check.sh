#!/usr/bin/env bash
# Issue "Strength III", Pente: the check of the full-strength move (the opponent's search
# after it, 2/8 of the budget; the main search keeps 5/8) earns its place. This build's
# engine against the build before the check (commit ee273e0), both over the engine
# protocol, 19 x 19 with the tournament rule, three-stone openings with colours swapped,
# a fixed budget of 400,000 nodes a move (the check needs about 55,000 to prove the blind
# spot of docs/pente.md), one game at a time.
#
# The match writes a line per game to matches/logs/pente-move-check.jsonl and resumes from
# it, so it can run over several sessions: run this script again to go on.
# Usage: matches/pente-move-check.sh [GAMES]   (default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
base=ee273e0
games="${1:-100}"
work="target/matches"
mkdir -p "$work" matches/logs
export CARGO_INCREMENTAL=0
if [ ! -x "$work/engine-$base" ]; then
  rm -rf "$work/src-$base"
  git worktree add --detach "$work/src-$base" "$base"
  # The same target directory: the dependencies are built once for both builds.
  (cd "$work/src-$base" && CARGO_TARGET_DIR="$PWD/../../../target/matches-target" \
    cargo build --release --example engine)
  cp target/matches-target/release/examples/engine "$work/engine-$base"
  git worktree remove --force "$work/src-$base"
fi
CARGO_TARGET_DIR=target/matches-target cargo build --release --example engine --bin ploy
cp target/matches-target/release/examples/engine "$work/engine-pente-new"
log=matches/logs/pente-move-check.jsonl
resume=()
[ -f "$log" ] && resume=(--resume)
exec nice -n 10 target/matches-target/release/ploy match --game pente \
  --a "engine:$work/engine-pente-new" --b "engine:$work/engine-$base" \
  --nodes 400000 --games "$games" --seed 24 -j 1 --log "$log" "${resume[@]}"
