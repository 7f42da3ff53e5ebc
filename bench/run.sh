#!/usr/bin/env bash
# The performance benchmark (issue 10): this service beside Keycloak, in one run, on this machine.
#
#   bench/run.sh [--postgres] [--no-keycloak] [--quick]
#
# Builds the project, measures the RS256 ceiling (openssl speed rsa2048 and single-thread
# signatures through the service's JCA provider and the JDK's), then starts the launcher (H2
# default; with --postgres also a second time on a fresh PostgreSQL database at 127.0.0.1:5432)
# and Keycloak (../shared/peers/keycloak.sh), and load-tests each with the same wrk scripts and the
# same ../shared/peers/loadtest.sh: POST /oauth/token by client_secret_post and by
# client_secret_basic, and the JWKS GET, at 1, 8 and 32 connections, each after a discarded
# warm-up. Everything listens on and is sent to 127.0.0.1 only; every run is bounded in time and
# every server is stopped by the PID its start gave. Writes the raw output, summary.md, table.md
# and chart.png under bench/results/<UTC time>/ (git-ignored) and prints the table.
#
# Environment: DURATION (s, measured run, 20), WARMUP (s, discarded run before each, 10),
# CONNS ("1 8 32"), PORT (18490), HEAP (the launcher's -Xmx, 256m), PEERS (../shared/peers).
# --quick: 5 s runs at 8 connections only, to try the command. Takes about 21 minutes in full.
# Needs: JDK 17, Maven, wrk and gnuplot (apt-get install -y wrk gnuplot-nox), openssl, python3,
# and for Keycloak the Temurin 25 JDK under /usr/lib/jvm (see ../shared/peers/README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source bench/launcher.sh
bench_peers "$root"
export DURATION=${DURATION:-20} WARMUP=${WARMUP:-10}
CONNS=${CONNS:-1 8 32}
PORT=${PORT:-18490}
HEAP=${HEAP:-256m}
postgres=false
keycloak=true
for option in "$@"; do
  case $option in
    --postgres) postgres=true ;;
    --no-keycloak) keycloak=false ;;
    --quick) DURATION=5 WARMUP=3 CONNS=8 ;;
    -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown option $option (--postgres, --no-keycloak, --quick)" >&2; exit 2 ;;
  esac
done

need wrk "apt-get install -y wrk"
need gnuplot "apt-get install -y gnuplot-nox"
need openssl "apt-get install -y openssl"
need python3 "a Python 3"
need mvn "Apache Maven"
need jstat "a JDK 17"
need ss "apt-get install -y iproute2"
if $postgres; then need psql "apt-get install -y postgresql-client"; fi

out=$root/bench/results/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
export OUTDIR=$out/raw
say() { echo "== $*" | tee -a "$out/run.log" >&2; }

sampler=""
database=""
keycloak_started=false
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  stop_launcher
  if $keycloak_started; then "$PEERS/keycloak.sh" stop >/dev/null 2>&1 || true; fi
  if [ -n "$database" ]; then
    psql -q -h 127.0.0.1 -U postgres -d postgres -c "drop database if exists $database with (force)" || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The heap of PID, every second, until killed (jstat -gc: capacities and usage in KB); JSTAT must
# come from the JDK that runs PID.
sample_heap() { "${JSTAT:-jstat}" -gc "$1" 1000 > "$2" 2>/dev/null & sampler=$!; }
stop_sampling() { kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; sampler=""; }

# label url: the token endpoint by both client authentications, in one place for every system.
load_token_endpoint() {
  "$PEERS/loadtest.sh" "$1-post" "$2" "$PEERS/wrk/token-post.lua" $CONNS
  BASIC=$(printf '%s:%s' "$CLIENT_ID" "$CLIENT_SECRET" | base64 -w0) \
    "$PEERS/loadtest.sh" "$1-basic" "$2" "$root/bench/wrk/token-basic.lua" $CONNS
}

say "build"
mvn -B -q -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "openssl: $(openssl version)"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
  echo "runs: warm-up ${WARMUP} s discarded, measured ${DURATION} s, connections ${CONNS}, wrk 1 thread"
} > "$out/machine.txt"

say "ceiling: openssl speed rsa2048 (one thread, 10 s)"
openssl speed -seconds 10 rsa2048 > "$out/openssl-speed.txt" 2>/dev/null
say "ceiling: RS256 signatures through the JCA providers (one thread)"
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  dev.platform.identity.key.SigningBenchmark 10 > "$out/signing.txt" 2>&1
say "the token path with metrics on and off, in process (issue 20)"
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  dev.platform.identity.token.MetricsOverheadBenchmark > "$out/metrics-overhead.txt" 2>&1
say "private_key_jwt and DPoP beside secrets, tokens per CPU-second, in process (issues 22, 40)"
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  dev.platform.identity.token.AssertionCostBenchmark 3000 $($postgres && echo --postgres) \
  > "$out/assertion-cost.txt" 2>&1

# name context: starts the launcher on a fresh data folder, creates a client through the admin
# API, load-tests it, records its heap, stops it.
run_identity() {
  local name=$1 context=$2 data log base=http://127.0.0.1:$PORT
  data=$(mktemp -d)
  log=$out/$name-server.log
  say "$name: start the launcher (-Xmx$HEAP)"
  start_launcher "$PORT" "$data/data" "$context" "$log" "$HEAP"
  bench_client "$base" "$log"
  curl -sf -d grant_type=client_credentials -d client_id="$CLIENT_ID" \
    --data-urlencode client_secret="$CLIENT_SECRET" "$base/oauth/token" > "$out/$name-token.json"
  sample_heap "$LAUNCHER_PID" "$out/$name-heap.txt"
  say "$name: JIT warm-up (30 s, discarded)"
  wrk -t1 -c8 -d30s -s "$PEERS/wrk/token-post.lua" "$base/oauth/token" > /dev/null
  load_token_endpoint "$name" "$base/oauth/token"
  "$PEERS/loadtest.sh" "$name-jwks" "$base/api/public-keys" "$PEERS/wrk/get.lua" $CONNS
  stop_sampling
  jcmd "$LAUNCHER_PID" GC.run > /dev/null
  jcmd "$LAUNCHER_PID" GC.heap_info > "$out/$name-heap-after-gc.txt"
  echo "$(($(wc -l < "$log"))) log lines" > "$out/$name-server.lines"
  stop_launcher
  redact_log "$log"
  rm -rf "$data"
}

h2_context=$out/context-h2.xml
bench_context "$h2_context"
run_identity identity-h2 "$h2_context"

if $postgres; then
  database=identity_bench_$$
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "create database $database"
  pg_context=$out/context-postgres.xml
  bench_context "$pg_context" "$(cat <<XML
<Resource name="jdbc/identity" auth="Container" type="javax.sql.DataSource"
            driverClassName="org.postgresql.Driver"
            url="jdbc:postgresql://127.0.0.1:5432/$database" username="postgres" password=""
            maxTotal="20" maxWaitMillis="5000" testOnBorrow="true" closeMethod="close"/>
XML
)"
  run_identity identity-pg "$pg_context"
fi

if $keycloak; then
  say "keycloak: set up, start, configure (../shared/peers/keycloak.sh)"
  # keycloak.sh's own client (its defaults), not the one of the runs above.
  export CLIENT_ID=bench-client CLIENT_SECRET=bench-secret-0123456789
  "$PEERS/keycloak.sh" setup > "$out/keycloak-setup.txt" 2>&1
  keycloak_started=true
  "$PEERS/keycloak.sh" start >> "$out/keycloak-setup.txt" 2>&1
  "$PEERS/keycloak.sh" configure >> "$out/keycloak-setup.txt" 2>&1
  kc=http://127.0.0.1:${KC_PORT:-18080}/realms/bench/protocol/openid-connect
  kc_pid=$(ss -ltnpH "sport = :${KC_PORT:-18080}" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  JSTAT=${KC_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jstat sample_heap "$kc_pid" "$out/keycloak-heap.txt"
  say "keycloak: JIT warm-up (60 s, discarded)"
  wrk -t1 -c8 -d60s -s "$PEERS/wrk/token-post.lua" "$kc/token" > /dev/null
  load_token_endpoint keycloak "$kc/token"
  "$PEERS/loadtest.sh" keycloak-jwks "$kc/certs" "$PEERS/wrk/get.lua" $CONNS
  stop_sampling
  "$PEERS/keycloak.sh" stop >> "$out/keycloak-setup.txt" 2>&1
  keycloak_started=false
fi

python3 "$root/bench/report.py" "$out"
echo "results: $out"
