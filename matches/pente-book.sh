#!/usr/bin/env bash
# Issue "Strength III", Pente's opening book: this build's engine playing from its book
# (the engine protocol's OwnBook option on) against the same engine without it (OwnBook
# off), 1 s a move (wall clock: an otherwise idle machine, or one other match of one game
# at a time on two cores), 19 x 19 with the tournament rule, 50 three-stone openings with
# colours swapped, 200 games (a first run of 100: 57-43). Every three-stone opening the match draws is in the book, so
# the side with the book takes its move there from the book when it is Black, and the
# move after when it is White and the other side answered as the book does.
#
# The match writes a line per game to matches/logs/pente-book.jsonl and resumes from it:
# run it again to go on.
# Usage: matches/pente-book.sh [JOBS]   (JOBS games at once, default 1)
set -euo pipefail
jobs="${1:-1}"
cd "$(dirname "$0")/.."
work="target/matches"
mkdir -p "$work" matches/logs
cargo build --release --example engine --bin ploy
cmp -s target/release/examples/engine "$work/engine-book" ||
  cp target/release/examples/engine "$work/engine-book"
log="matches/logs/pente-book.jsonl"
resume=()
[ -f "$log" ] && resume=(--resume)
exec target/release/ploy match --game pente \
  --a "engine:$work/engine-book" --b "engine:$work/engine-book" \
  --a-option OwnBook=true --b-option OwnBook=false \
  --time 1s --games 200 --seed 31 -j "$jobs" --log "$log" "${resume[@]}"
