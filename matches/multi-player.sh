#!/usr/bin/env bash
# Issue "Strength III", its multi-player bars: the default bot of this build (in one seat,
# turning game by game) against the build of the commit before the issue's work (9a4001c,
# paranoid search, in every other seat), both over the engine protocol, at a fixed node
# budget a move (so the result does not depend on the machine's load): four-player and
# three-player Pyloff (size 6, default rules, 4 random opening plies) and Ploy's
# four-player free-for-all (4 random plies after the free-for-all start). The bar: A's
# first-place share with its 95 % lower bound above 1/n over at least 200 games.
#
# Each match writes a line per game to matches/logs/multi-LABEL-MATCH.jsonl and resumes
# from it, so the script can run over several sessions: run it again to go on. LABEL names
# the candidate (a new candidate gets a new label, so its games start a log of their own).
# Usage: [JOBS=N] [NODES=N] matches/multi-player.sh LABEL [NAME=VALUE]... [pyloff4|pyloff3|ffa]...
#   (default: all three matches; NAME=VALUE: an engine option for A, e.g. Search=brs+;
#   JOBS: games at once, 1 by default; the node budget makes the games the same either way;
#   NODES: the node budget a move of the Pyloff matches, 2,000 by default)
#
# Candidates so far (each run at the commit named):
#   blend (920607c, EvalParams::best_other [75, 50]): matches/multi-player.sh blend pyloff4 pyloff3
#   brsplus (fe68826, BRS+ through the Search option): matches/multi-player.sh brsplus Search=brs+ pyloff4
#   caps (e6dacfc, urgent moves first in the paranoid reduction): matches/multi-player.sh caps pyloff4 pyloff3
#   tuned (Pyloff's weights for three and four players fitted to self-play, reverted after):
#     JOBS=2 matches/multi-player.sh tuned pyloff4   (stopped after 98 games: 10.7 %)
#   brsplus8k (16d7f89, BRS+ at four times the node budget):
#     NODES=8000 matches/multi-player.sh brsplus8k Search=brs+ pyloff4 pyloff3
#   mcts32k (b504091, MCTS at 32,000 nodes, stopped after 72 games: 35.4 %):
#     NODES=32000 matches/multi-player.sh mcts32k Search=mcts pyloff3
#   caps8k (the build of e6dacfc as A, played by `ploy match` directly: see docs/pyloff.md,
#     "Urgent moves at four times the budget"; 40.8 %, now the three-player default)
#   bestreply (c75aa00, Best-Reply Search on the two-sided searcher, this build's default
#     for Ploy's free-for-all): JOBS=2 matches/multi-player.sh bestreply ffa   (39.8 %)
set -euo pipefail
label="${1:?usage: matches/multi-player.sh LABEL [pyloff4|pyloff3|ffa]...}"
shift
cd "$(dirname "$0")/.."
base=9a4001c
work="target/matches"
mkdir -p "$work" matches/logs
. matches/base-engine.sh
base_engine "$base"
cargo build --release --example engine --bin ploy
# A copy of its own: the other match scripts may be running engine-new (and another run of
# this script engine-multi: copied only when the build changed).
cmp -s target/release/examples/engine "$work/engine-multi" ||
  cp target/release/examples/engine "$work/engine-multi"
new="engine:$work/engine-multi"
old="engine:$work/engine-$base"
run() {
  local log="matches/logs/multi-$label-$1.jsonl"; shift
  local resume=()
  [ -f "$log" ] && resume=(--resume)
  target/release/ploy match --a "$new" --b "$old" --log "$log" "${resume[@]}" "${a_opts[@]}" \
    -j "${JOBS:-1}" "$@"
}
# NAME=VALUE arguments are engine options for A (the candidate), e.g. Search=brs+.
a_opts=()
matches=()
for arg in "$@"; do
  case "$arg" in
    *=*) a_opts+=(--a-option "$arg") ;;
    *) matches+=("$arg") ;;
  esac
done
[ ${#matches[@]} -eq 0 ] && matches=(pyloff4 pyloff3 ffa)
for m in "${matches[@]}"; do
  for one in $m; do
    case "$one" in
      pyloff4) run pyloff4 --game pyloff --players 4 --nodes "${NODES:-2000}" --seed 2 --games 200 ;;
      pyloff3) run pyloff3 --game pyloff --players 3 --nodes "${NODES:-2000}" --seed 2 --games 201 ;;
      ffa) echo ffa > "$work/ffa.txt"
           run ffa --ffa-seats --openings "$work/ffa.txt" --opening-plies 4 --nodes 80000 --seed 2 --games 200 ;;
      *) echo "unknown match $one" >&2; exit 2 ;;
    esac
  done
done
