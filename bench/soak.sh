#!/usr/bin/env bash
# Soak (issue 9 item 5): the launcher (H2 default) under a moderate fixed load on loopback for
# MINUTES minutes (default 10); prints heap after a full GC, threads, open files and established
# connections of the server at the start and at the end. Needs wrk (apt-get install wrk).
# Usage: bench/soak.sh [MINUTES]     (from the repository root, after mvn -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/launcher.sh
need wrk "apt-get install -y wrk"
MINUTES=${1:-10}
PORT=${PORT:-18490}
WORK=$(mktemp -d)
trap 'stop_launcher; rm -rf "$WORK"' EXIT
bench_context "$WORK/context.xml"
start_launcher "$PORT" "$WORK/data" "$WORK/context.xml" "$WORK/server.log" 512m
bench_client "http://127.0.0.1:$PORT" "$WORK/server.log"
export DELAY_MS=${DELAY_MS:-20}

figures() {
  jcmd "$LAUNCHER_PID" GC.run >/dev/null
  local heap threads fds conns
  heap=$(jcmd "$LAUNCHER_PID" GC.heap_info | grep -oP 'used \K[0-9]+K' | head -1)
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$LAUNCHER_PID/status")
  fds=$(ls "/proc/$LAUNCHER_PID/fd" | wc -l)
  conns=$(ss -Htn state established "( sport = :$PORT )" | wc -l)
  echo "$1: heap after GC ${heap}, threads ${threads}, open files ${fds}, established connections ${conns}"
}

wrk -t1 -c4 -d30s -s bench/soak-token.lua "http://127.0.0.1:$PORT/oauth/token" >/dev/null
figures "start"
wrk -t1 -c4 -d"${MINUTES}m" --latency -s bench/soak-token.lua "http://127.0.0.1:$PORT/oauth/token" \
  | grep -E "requests in|Requests/sec|Non-2xx|50%|99%"
figures "end (${MINUTES} min)"
