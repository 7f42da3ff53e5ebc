#!/usr/bin/env bash
# This checkout's token path against other commits', in one run on one machine: bench/profile.sh
# on each in turn (this, others, this, others, ...), so that whatever else the machine does falls
# on all alike, and the tokens each served per server CPU-second (read from /proc/PID/stat, far
# steadier under a shared machine's load than tokens per second). Prints every run's figure and,
# per commit and connection count, the median and the spread.
#
#   bench/against.sh COMMIT...
#
# Environment: ROUNDS (2), CONNECTIONS ("8 32"), WARMUP (s, 60), DURATION (s, 20), PORT (18495;
# the Nth other commit's server listens on PORT + N). Each COMMIT is built in a detached worktree
# of its own (removed at the end) and measured with this checkout's bench scripts, so all are
# measured alike. This checkout's profiles stay under bench/results/profile-*/, the others' are
# kept under bench/results/<commit>/. Each run takes WARMUP + DURATION + about 20 s: with the
# defaults and one COMMIT, about 15 minutes in all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ $# -ge 1 ] || { echo "usage: bench/against.sh COMMIT..." >&2; exit 2; }
here=$(git rev-parse --short HEAD)
source bench/launcher.sh
bench_peers "$root"
export PEERS # the other commits' worktrees are elsewhere: their ../shared/peers is not this one
ROUNDS=${ROUNDS:-2} CONNECTIONS=${CONNECTIONS:-8 32} PORT=${PORT:-18495}
export WARMUP=${WARMUP:-60} DURATION=${DURATION:-20}

base=$(mktemp -d)
trees=()
keep() {
  for t in "${trees[@]}"; do
    mkdir -p "bench/results/$(basename "$t")"
    cp -r "$t/bench/results/." "bench/results/$(basename "$t")/" 2>/dev/null || true
    git worktree remove --force "$t" 2>/dev/null || true
  done
}
trap keep EXIT
echo "== build $here (this checkout) and $*" >&2
mvn -B -q -DskipTests package
for commit in "$@"; do
  tree=$base/$(git rev-parse --short "$commit^{commit}")
  git worktree add --detach "$tree" "$commit" > /dev/null 2>&1
  trees+=("$tree")
  cp bench/profile.sh bench/profile.py bench/launcher.sh "$tree/bench/"
  (cd "$tree" && mvn -B -q -DskipTests package)
done

# run DIR PORT CONNECTIONS: one profiled run; prints its tokens per server CPU-second, and stops
# the whole run, naming the log, when the run fails.
log=$root/bench/results/against.log
mkdir -p "$(dirname "$log")"
run() {
  local figure
  figure=$( (cd "$1" && BUILD=0 PORT=$2 CONNECTIONS=$3 bench/profile.sh 2>> "$log") |
    awk -F'[(]' 'NR == 1 {split($2, a, " "); print a[1]}')
  [ -n "$figure" ] || { echo "a run in $1 failed: see $log" >&2; exit 1; }
  echo "$figure"
}

results=$(mktemp)
for round in $(seq 1 "$ROUNDS"); do
  for connections in $CONNECTIONS; do
    echo "== round $round, $connections connections: $here, then $*" >&2
    figure=$(run "$root" "$PORT" "$connections")
    echo "$here $connections $figure" >> "$results"
    n=0
    for tree in "${trees[@]}"; do
      n=$((n + 1))
      figure=$(run "$tree" $((PORT + n)) "$connections")
      echo "$(basename "$tree") $connections $figure" >> "$results"
    done
  done
done

cat "$results" >> "$log"
echo "tokens per server CPU-second under the profiler, ${WARMUP} s warm-up, ${DURATION} s measured:"
python3 - "$results" "$here" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    commit, connections, figure = line.split()
    runs[(commit, int(connections))].append(int(figure))
print("| commit | connections | runs, in order | median | spread |\n|---|---|---|---|---|")
for (commit, connections), figures in sorted(runs.items(), key=lambda r: (r[0][1], r[0][0] != sys.argv[2])):
    spread = (max(figures) - min(figures)) / statistics.median(figures)
    print(f"| {commit} | {connections} | {', '.join(f'{f:,}' for f in figures)} |"
          f" {statistics.median(figures):,.0f} | {100 * spread:.0f} % |")
PY
rm -f "$results"
