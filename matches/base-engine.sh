# Sourced by the match scripts (after they cd to the repository's root): `base_engine COMMIT`
# builds the engine program of COMMIT once, in a worktree it removes again, into
# target/matches/engine-COMMIT, and leaves it there for the next run.
base_engine() {
  local base="$1" work="target/matches"
  mkdir -p "$work"
  if [ ! -x "$work/engine-$base" ]; then
    rm -rf "$work/src-$base"
    git worktree add --detach "$work/src-$base" "$base"
    (cd "$work/src-$base" && cargo build --release --example engine)
    cp "$work/src-$base/target/release/examples/engine" "$work/engine-$base"
    git worktree remove --force "$work/src-$base"
  fi
}

# `base_ploy COMMIT`: the same for the `ploy` program of COMMIT, into target/matches/ploy-COMMIT
# (the self-play scripts play its in-process engines).
base_ploy() {
  local commit="$1" work="target/matches"
  mkdir -p "$work"
  if [ ! -x "$work/ploy-$commit" ]; then
    rm -rf "$work/src-$commit"
    git worktree add --detach "$work/src-$commit" "$commit"
    (cd "$work/src-$commit" && cargo build --release --bin ploy)
    cp "$work/src-$commit/target/release/ploy" "$work/ploy-$commit"
    git worktree remove --force "$work/src-$commit"
  fi
}
