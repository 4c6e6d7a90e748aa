# Sourced by the match scripts (after they cd to the repository's root). `base_engine COMMIT`
# builds the engine program of COMMIT once, in a worktree it removes again, into
# target/matches/engine-COMMIT, and leaves it there for the next run; `base_ploy COMMIT`
# does the same for the `ploy` program, into target/matches/ploy-COMMIT (the self-play
# scripts play its in-process engines).
base_build() {
  local commit="$1" name="$2" cargo_args="$3" built="$4" work="target/matches"
  mkdir -p "$work"
  if [ ! -x "$work/$name-$commit" ]; then
    rm -rf "$work/src-$commit"
    git worktree add --detach "$work/src-$commit" "$commit"
    # shellcheck disable=SC2086 # the cargo arguments are words
    (cd "$work/src-$commit" && cargo build --release $cargo_args)
    cp "$work/src-$commit/target/release/$built" "$work/$name-$commit"
    git worktree remove --force "$work/src-$commit"
  fi
}
base_engine() { base_build "$1" engine "--example engine" examples/engine; }
base_ploy() { base_build "$1" ploy "--bin ploy" ploy; }
