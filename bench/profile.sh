#!/usr/bin/env bash
# Where a token request's CPU goes (issue 10): the launcher (H2 default) under wrk at 8
# connections (CONNECTIONS), profiled by async-profiler (CPU time sampled every millisecond, native
# and JIT threads included) through a measured run after a discarded warm-up. Prints the share of the
# samples per part of the token path and the busiest frames, and writes the flame graph
# (flame.html) and the collapsed stacks under bench/results/profile-<UTC time>/ (git-ignored).
#
#   bench/profile.sh [--basic]      (--basic: client_secret_basic instead of client_secret_post)
#
# Environment: DURATION (s, profiled run, 20), WARMUP (s, discarded, 30), CONNECTIONS (8), PORT
# (18491), HEAP (256m), EVENT (async-profiler's event, itimer: it needs no perf events), PEERS
# (../shared/peers), BUILD (1; 0 runs the launcher as target/ holds it, as bench/against.sh does).
# async-profiler 4.2 comes from Maven Central (tools.profiler:async-profiler, its linux-x64
# library), loaded into the running server with jcmd. Needs JDK 17, Maven, wrk, python3; about 2
# minutes. Loopback only; the server is stopped by its PID.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source bench/launcher.sh
bench_peers "$root"
DURATION=${DURATION:-20} WARMUP=${WARMUP:-30} PORT=${PORT:-18491} HEAP=${HEAP:-256m}
EVENT=${EVENT:-itimer} CONNECTIONS=${CONNECTIONS:-8} BUILD=${BUILD:-1}
script=$PEERS/wrk/token-post.lua
case ${1:-} in
  "") ;;
  --basic) script=$root/bench/wrk/token-basic.lua ;;
  *) echo "unknown option $1 (--basic)" >&2; exit 2 ;;
esac
need wrk "apt-get install -y wrk"
need unzip "apt-get install -y unzip"
need python3 "a Python 3"
need jcmd "a JDK 17"

out=$root/bench/results/profile-$(date -u +%Y%m%d-%H%M%S)
work=$(mktemp -d)
mkdir -p "$out"
trap 'stop_launcher; rm -rf "$work"' EXIT

echo "== build, and async-profiler from Maven Central" >&2
[ "$BUILD" = 0 ] || mvn -B -q -DskipTests package
mvn -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.2 -DoutputDirectory="$work"
unzip -q -o "$work/async-profiler-4.2.jar" 'linux-x64/*' -d "$work"
agent=$work/linux-x64/libasyncProfiler.so
# jcmd splits its arguments at commas unless they are quoted.
profiler() { jcmd "$LAUNCHER_PID" JVMTI.agent_load "$agent" "\"$1\"" > /dev/null; }

bench_context "$work/context.xml"
start_launcher "$PORT" "$work/data" "$work/context.xml" "$out/server.log" "$HEAP"
base=http://127.0.0.1:$PORT
bench_client "$base" "$out/server.log"
export BASIC=$(printf '%s:%s' "$CLIENT_ID" "$CLIENT_SECRET" | base64 -w0)

echo "== warm-up ${WARMUP} s (discarded), then ${DURATION} s profiled ($(basename "$script"))" >&2
wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$script" "$base/oauth/token" > /dev/null
ticks() { awk '{print $14 + $15}' "/proc/$LAUNCHER_PID/stat"; }
before=$(ticks)
profiler "start,event=$EVENT,interval=1ms,threads"
wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$script" "$base/oauth/token" > "$out/wrk.txt"
profiler "dump,file=$out/flame.html"
profiler "stop,file=$out/profile.collapsed,collapsed"
after=$(ticks)
requests=$(awk '/requests in/ {print $1}' "$out/wrk.txt")
cpu=$(echo "$before $after $(getconf CLK_TCK)" | awk '{print ($2 - $1) / $3}')
stop_launcher
redact_log "$out/server.log"

{
  echo "$requests token requests in ${DURATION} s at $CONNECTIONS connections under the profiler," \
    "$cpu server CPU-seconds" \
    "($(echo "$requests $cpu" | awk '{printf "%.0f", $1 / $2}') per CPU-second; the profiler costs some)"
  python3 "$root/bench/profile.py" "$out/profile.collapsed"
} | tee "$out/summary.txt"
echo "flame graph: $out/flame.html" >&2
