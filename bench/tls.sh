#!/usr/bin/env bash
# Issue 39: token requests per server CPU-second over TLS, by a secret and by a client
# certificate, and over plain HTTP for scale, in one run, on this machine.
#
#   bench/tls.sh [--quick]
#
# Builds the project, makes a test PKI (TlsTokenBenchmark pki, src/test/java, tls package: a CA's
# server key store for 127.0.0.1, EC P-256, its password in an owner-only file; a self-signed client
# certificate), then starts the launcher twice, one after the other, each on a fresh H2 data folder:
#  1. plain HTTP on PORT: phase "secret" (client_secret_basic);
#  2. HTTPS on PORT+1 (--tls-keystore, --tls-keystore-password-file): phases "secret"
#     (client_secret_basic over TLS), "certificate" (self_signed_tls_client_auth, the client
#     registered through /admin/v1 with its certificate in x5c), both on kept-alive connections,
#     then "secret-new" and "certificate-new", a new connection and a full handshake per request.
# The launcher has one connector, plain or TLS, hence two processes. The load generator is
# TlsTokenBenchmark load, a JVM of its own (wrk cannot present a client certificate): CONNS
# connections to 127.0.0.1, one thread each, JIT_WARMUP s discarded per launcher, then per phase
# WARMUP s discarded and DURATION s measured; it reads the bootstrap administrator from the
# launcher's log (never a command line) and the server's utime+stime from /proc/PID/stat around each
# measured run, its own CPU and the rest of the machine's apart. Everything listens on and is sent to
# 127.0.0.1 only; every run is bounded in time; each launcher is stopped by the PID its start gave.
# Raw output and table.md go to bench/results/tls-<UTC time>/ (git-ignored); the table is printed.
#
# Environment: DURATION (s, 20), WARMUP (s, 10), JIT_WARMUP (s, 60: C2 takes a while on 2 shared cores), CONNS (8), QUIET_MAX (s the
# load generator waits for an idle machine before each phase, 15), PORT (18400; PORT+1 too),
# HEAP (256m), MVN_FLAGS (extra Maven flags, e.g. -o).
# --quick: 5 s runs, 5 s of JIT warm-up: about 2 minutes, to try the command. In full about 8.
# Needs: JDK 17, Maven, curl.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source bench/launcher.sh
DURATION=${DURATION:-20} WARMUP=${WARMUP:-10} JIT_WARMUP=${JIT_WARMUP:-60}
CONNS=${CONNS:-8} QUIET_MAX=${QUIET_MAX:-15}
PORT=${PORT:-18400}
HEAP=${HEAP:-256m}
for option in "$@"; do
  case $option in
    --quick) DURATION=5 WARMUP=3 JIT_WARMUP=5 ;;
    -h | --help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "unknown option $option (--quick)" >&2; exit 2 ;;
  esac
done

need mvn "Apache Maven"
need java "a JDK 17"
need curl "apt-get install -y curl"

out=$root/bench/results/tls-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
say() { echo "== $*" | tee -a "$out/run.log" >&2; }

work=""
cleanup() {
  stop_launcher
  [ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "build"
# shellcheck disable=SC2086 # MVN_FLAGS is a list of flags
mvn -B -q ${MVN_FLAGS:-} -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
bench() { java -Xmx256m -cp "$classpath" dev.platform.identity.tls.TlsTokenBenchmark "$@"; }

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  if command -v openssl >/dev/null; then
    echo "ceiling: openssl speed rsa2048, one thread: $(openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048/ {print $6}') signatures/s"
  fi
  echo "runs: JIT warm-up ${JIT_WARMUP} s per launcher, then per phase ${WARMUP} s discarded and ${DURATION} s measured, ${CONNS} connections, the launcher -Xmx$HEAP"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

work=$(mktemp -d) # owner-only: the key stores, their passwords, the data folders
pki=$work/pki
mkdir -m 700 "$pki"
say "a test PKI (server key store for 127.0.0.1, a self-signed client certificate)"
bench pki "$pki"
context=$out/context.xml
bench_context "$context"

# load NAME BASE PHASE...: the load generator against the launcher that runs, its rows to NAME.txt.
load() {
  local name=$1 base=$2
  shift 2
  bench load "$base" "$out/$name-server.log" "$LAUNCHER_PID" "$pki" "$CONNS" "$DURATION" \
    "$WARMUP" "$JIT_WARMUP" "$QUIET_MAX" "$(getconf CLK_TCK)" "$@" 2> >(tee -a "$out/run.log" >&2) |
    tee "$out/$name.txt"
}

say "plain HTTP: start the launcher on 127.0.0.1:$PORT (-Xmx$HEAP)"
start_launcher "$PORT" "$work/plain" "$context" "$out/plain-server.log" "$HEAP"
load plain "http://127.0.0.1:$PORT" secret
stop_launcher
redact_log "$out/plain-server.log"

tls_port=$((PORT + 1))
say "TLS: start the launcher on 127.0.0.1:$tls_port (-Xmx$HEAP)"
java -Xmx"$HEAP" -jar target/launcher/identity-launcher.jar --bind 127.0.0.1 --port "$tls_port" \
  --data "$work/tls" --context "$context" --tls-keystore "$pki/server.p12" \
  --tls-keystore-password-file "$pki/server.p12.password" > "$out/tls-server.log" 2>&1 &
LAUNCHER_PID=$!
ready=false
for _ in $(seq 1 240); do
  if curl -sf --cacert "$pki/ca.pem" "https://127.0.0.1:$tls_port/health/ready" >/dev/null; then
    ready=true
    break
  fi
  kill -0 "$LAUNCHER_PID" 2>/dev/null || { echo "the launcher stopped: see $out/tls-server.log" >&2; exit 1; }
  sleep 0.5
done
$ready || { echo "the launcher is not ready after 120 s: see $out/tls-server.log" >&2; exit 1; }
load tls "https://127.0.0.1:$tls_port" secret certificate secret-new certificate-new
stop_launcher
redact_log "$out/tls-server.log"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

{
  cat "$out/machine.txt"
  echo
  grep -h '^# ' "$out/plain.txt" "$out/tls.txt" | sed 's/^# /- /'
  echo
  grep -h '^|' "$out/plain.txt" | head -2
  grep -h '^| [pT]' "$out/plain.txt" "$out/tls.txt" | grep -v '^| transport'
} > "$out/table.md"
cat "$out/table.md"
echo "results: $out"
