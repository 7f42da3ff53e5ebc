#!/usr/bin/env bash
# The performance benchmark (issue 10): this service beside Keycloak, in one run, on this machine.
#
#   bench/run.sh [--postgres] [--mariadb] [--no-keycloak] [--quick]
#
# Builds the project, measures the RS256 ceiling (openssl speed rsa2048 and single-thread
# signatures through the service's JCA provider and the JDK's), then starts the launcher (H2
# default; with --postgres also on a fresh PostgreSQL database at 127.0.0.1:5432, with --mariadb on
# a fresh MariaDB database at 127.0.0.1:3306, root with an empty password, issue 42) and Keycloak
# (../shared/peers/keycloak.sh), and load-tests each with the same wrk scripts and the
# same ../shared/peers/loadtest.sh: POST /oauth/token by client_secret_post and by
# client_secret_basic, and the JWKS GET, at 1, 8 and 32 connections, each after a discarded
# warm-up. Each launcher then gets one more measured token run at 8 connections that also reads the
# database server's own CPU from /proc/PID/stat (PostgreSQL: the bench database's backends and the
# server's background processes; MariaDB: the mariadbd process). With a server database, a second
# launcher on another fresh database with identity/rateLimitStore=database takes the stranger flood
# (bench/wrk/stranger-flood.lua: random unknown client_ids and secrets), first from one address,
# then from many (X-Forwarded-For, 127.0.0.1 trusted as a proxy). Everything listens on and is sent
# to 127.0.0.1 only; every run is bounded in time and every server is stopped by the PID its start
# gave; every database made is dropped. Writes the raw output, summary.md, table.md and chart.png
# under bench/results/<UTC time>/ (git-ignored) and prints the table.
#
# Environment: DURATION (s, measured run, 20), WARMUP (s, discarded run before each, 10),
# CONNS ("1 8 32"), PORT (18490), HEAP (the launcher's -Xmx, 256m), PEERS (../shared/peers),
# QUIET_MAX (s, loadtest.sh's wait for a quiet machine, 120), MVN_ARGS (more Maven options, -o),
# BUILD (true; false uses target/ as an earlier run of this script built it).
# --quick: 5 s runs at 8 connections only, to try the command. --no-in-process: skips the
# in-process token benchmarks (MetricsOverheadBenchmark, AssertionCostBenchmark), minutes on a
# busy machine. Takes about 21 minutes in full.
# Needs: JDK 17, Maven, wrk and gnuplot (apt-get install -y wrk gnuplot-nox), openssl, python3,
# psql for --postgres, the mariadb client for --mariadb, and for Keycloak the Temurin 25 JDK under
# /usr/lib/jvm (see ../shared/peers/README.md).
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
mariadb=false
keycloak=true
in_process=true
for option in "$@"; do
  case $option in
    --postgres) postgres=true ;;
    --mariadb) mariadb=true ;;
    --no-keycloak) keycloak=false ;;
    --no-in-process) in_process=false ;;
    --quick) DURATION=5 WARMUP=3 CONNS=8 ;;
    -h | --help) sed -n '2,32p' "$0"; exit 0 ;;
    *) echo "unknown option $option (--postgres, --mariadb, --no-keycloak, --no-in-process, --quick)" >&2; exit 2 ;;
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
if $mariadb; then need mariadb "apt-get install -y mariadb-client"; fi

out=$root/bench/results/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
export OUTDIR=$out/raw
say() { echo "== $*" | tee -a "$out/run.log" >&2; }

sampler=""
pg_databases=()
mariadb_databases=()
keycloak_started=false
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  stop_launcher
  if $keycloak_started; then "$PEERS/keycloak.sh" stop >/dev/null 2>&1 || true; fi
  for db in "${pg_databases[@]}"; do
    psql -q -h 127.0.0.1 -U postgres -d postgres -c "drop database if exists $db with (force)" || true
  done
  for db in "${mariadb_databases[@]}"; do
    mariadb -h 127.0.0.1 -u root -e "drop database if exists $db" || true
  done
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

if [ "${BUILD:-true}" = false ]; then
  say "build: skipped (BUILD=false), target/ as built before"
  [ -f target/launcher/identity-launcher.jar ] && [ -f target/test-classpath.txt ] ||
    { echo "BUILD=false but target/ has no launcher or test-classpath.txt: build once" >&2; exit 2; }
else
  say "build"
  mvn -B -q ${MVN_ARGS:-} -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
fi

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
if $in_process; then
  say "the token path with metrics on and off, in process (issue 20)"
  java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
    dev.platform.identity.token.MetricsOverheadBenchmark > "$out/metrics-overhead.txt" 2>&1
  say "private_key_jwt and DPoP beside secrets, tokens per CPU-second, in process (issues 22, 40)"
  java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
    dev.platform.identity.token.AssertionCostBenchmark 3000 $($postgres && echo --postgres) \
    > "$out/assertion-cost.txt" 2>&1
fi

# kind database: a fresh, empty database on the server of KIND (postgres or mariadb), dropped by
# cleanup.
create_database() {
  case $1 in
    postgres) pg_databases+=("$2")
      psql -q -h 127.0.0.1 -U postgres -d postgres -c "create database $2" ;;
    mariadb) mariadb_databases+=("$2")
      mariadb -h 127.0.0.1 -u root -e "create database $2" ;;
  esac
}

# kind database: the context.xml Resource of DATABASE on the server of KIND.
database_resource() {
  local driver url user
  case $1 in
    postgres) driver=org.postgresql.Driver user=postgres
      url="jdbc:postgresql://127.0.0.1:5432/$2" ;;
    mariadb) driver=org.mariadb.jdbc.Driver user=root
      url="jdbc:mariadb://127.0.0.1:3306/$2?connectionTimeZone=UTC&amp;preserveInstants=true" ;;
  esac
  cat <<XML
<Resource name="jdbc/identity" auth="Container" type="javax.sql.DataSource"
            driverClassName="$driver"
            url="$url" username="$user" password=""
            maxTotal="20" maxWaitMillis="5000" testOnBorrow="true" closeMethod="close"/>
XML
}

# kind database: the PIDs whose CPU is the database server's own, one a line: PostgreSQL's
# postmaster, its background processes and DATABASE's backends (not other databases' sessions);
# MariaDB's one mariadbd process (its threads serve every database on the server).
database_pids() {
  case $1 in
    postgres) ss -ltnpH "sport = :5432" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
      psql -At -h 127.0.0.1 -U postgres -d postgres -c "select pid from pg_stat_activity
        where datname = '$2' or backend_type <> 'client backend'" ;;
    mariadb) ss -ltnpH "sport = :3306" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 ;;
  esac
}

# PID...: their CPU time, user and system, in clock ticks (a PID gone since counts nothing).
cpu_ticks() {
  local total=0 pid ticks
  for pid in "$@"; do
    ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) && total=$((total + ticks))
  done
  echo "$total"
}

# name kind database url lua label: one measured wrk run of DURATION s at 8 connections (after
# loadtest.sh's runs, so warm) with the launcher's and the database server's CPU read before and
# after; wrk's output in raw/NAME-LABEL.txt, a line "NAME LABEL seconds jvm-ticks db-ticks hz" in
# database-cpu.txt (report.py reads both).
measure_with_database() {
  local name=$1 kind=$2 db=$3 url=$4 lua=$5 label=$6 pids=() j0 j1 d0 d1
  [ "$kind" = h2 ] || mapfile -t pids < <(database_pids "$kind" "$db")
  j0=$(cpu_ticks "$LAUNCHER_PID"); d0=$(cpu_ticks "${pids[@]}")
  wrk -t1 -c8 -d"${DURATION}s" --latency -s "$lua" "$url" > "$OUTDIR/$name-$label.txt" 2>&1
  j1=$(cpu_ticks "$LAUNCHER_PID"); d1=$(cpu_ticks "${pids[@]}")
  echo "$name $label $DURATION $((j1 - j0)) $((d1 - d0)) $(getconf CLK_TCK)" >> "$out/database-cpu.txt"
}

# name context kind database: starts the launcher on a fresh data folder, creates a client through
# the admin API, load-tests it, measures the database's CPU beside its own, records its heap,
# stops it.
run_identity() {
  local name=$1 context=$2 kind=$3 db=${4:-} data log base=http://127.0.0.1:$PORT
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
  say "$name: token requests with the database server's CPU (${DURATION} s, 8 connections)"
  measure_with_database "$name" "$kind" "$db" "$base/oauth/token" "$PEERS/wrk/token-post.lua" dbcpu
  stop_sampling
  jcmd "$LAUNCHER_PID" GC.run > /dev/null
  jcmd "$LAUNCHER_PID" GC.heap_info > "$out/$name-heap-after-gc.txt"
  echo "$(($(wc -l < "$log"))) log lines" > "$out/$name-server.lines"
  stop_launcher
  redact_log "$log"
  rm -rf "$data"
}

# name kind: the stranger flood (issue 42) against a launcher whose rate-limit buckets live in a
# fresh database on the server of KIND (identity/rateLimitStore=database) and that believes
# X-Forwarded-For from 127.0.0.1: a discarded warm-up, then DURATION s at 8 connections, first all
# from 127.0.0.1 (the address's failure budget, 300 a minute, empties in the warm-up: the measured
# run is the limiter's 429s), then each request from a random 10.x.y.z (fresh budgets each: the
# 401 path, two new buckets a request). Writes the bucket rows left to NAME-buckets.txt.
flood_identity() {
  local name=$1 kind=$2 db=identity_flood_$$_$2 data log context base=http://127.0.0.1:$PORT
  local lua=$root/bench/wrk/stranger-flood.lua
  create_database "$kind" "$db"
  context=$out/context-$name.xml
  bench_context "$context" "$(cat <<XML
<Environment name="identity/rateLimitStore" value="database" type="java.lang.String" override="false"/>
  <Environment name="identity/trustedProxies" value="127.0.0.1" type="java.lang.String" override="false"/>
  $(database_resource "$kind" "$db")
XML
)"
  data=$(mktemp -d)
  log=$out/$name-server.log
  say "$name: start the launcher, rate-limit buckets in the database"
  start_launcher "$PORT" "$data/data" "$context" "$log" "$HEAP"
  for addresses in one many; do
    export ADDRESSES=$addresses
    say "$name: stranger flood from $addresses address(es): ${WARMUP} s discarded, ${DURATION} s measured"
    wrk -t1 -c8 -d"${WARMUP}s" -s "$lua" "$base/oauth/token" > /dev/null 2>&1
    measure_with_database "$name" "$kind" "$db" "$base/oauth/token" "$lua" \
      "flood-$addresses"
  done
  case $kind in
    postgres) psql -At -h 127.0.0.1 -U postgres -d "$db" -c "select count(*) from rate_limit_bucket" ;;
    mariadb) mariadb -N -h 127.0.0.1 -u root "$db" -e "select count(*) from rate_limit_bucket" ;;
  esac > "$out/$name-buckets.txt" || true
  stop_launcher
  redact_log "$log"
  rm -rf "$data"
}

h2_context=$out/context-h2.xml
bench_context "$h2_context"
run_identity identity-h2 "$h2_context" h2

for kind in postgres mariadb; do
  case $kind in postgres) $postgres || continue; short=pg ;; mariadb) $mariadb || continue; short=mariadb ;; esac
  database=identity_bench_$$_$kind
  create_database "$kind" "$database"
  context=$out/context-$kind.xml
  bench_context "$context" "$(database_resource "$kind" "$database")"
  run_identity "identity-$short" "$context" "$kind" "$database"
  flood_identity "identity-$short-flood" "$kind"
done

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
