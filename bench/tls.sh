#!/usr/bin/env bash
# Issue 39: token requests per server CPU-second over TLS, by a secret and by a client
# certificate, and over plain HTTP for scale, in one run, on this machine.
#
#   bench/tls.sh [--quick]
#
# Builds the project, makes a test PKI (TlsTokenBenchmark pki, src/test/java, tls package: a CA's
# server key store for 127.0.0.1, EC P-256, its password in an owner-only file; a self-signed client
# certificate), then starts two launchers, each on a fresh H2 data folder: plain HTTP on PORT and
# HTTPS on PORT+1 (--tls-keystore, --tls-keystore-password-file). The launcher has one connector,
# plain or TLS, hence two processes; both run through the whole load, the one not loaded idle, so
# that each round measures every phase within a few minutes of the others on a shared machine:
#   http:secret                client_secret_basic over plain HTTP, kept-alive connections;
#   https:secret               the same over TLS;
#   https:certificate          self_signed_tls_client_auth over TLS (the client registered through
#                              /admin/v1 with its certificate in x5c), kept-alive connections;
#   https:ca-certificate       tls_client_auth over TLS: a certificate of the bench CA (passed to the
#                              launcher with --tls-client-ca), its path built on every request;
#   https:secret-new, https:certificate-new, https:ca-certificate-new
#                              a new connection and a full handshake per request.
# The load generator is TlsTokenBenchmark load, a JVM of its own (wrk cannot present a client
# certificate): CONNS connections to 127.0.0.1, one thread each; JIT_WARMUP s per launcher
# discarded, then ROUNDS times every phase: WARMUP s discarded and DURATION s measured. It reads the
# bootstrap administrators from the launchers' logs (never a command line) and the loaded server's
# utime+stime from /proc/PID/stat around each measured run, its own CPU and the rest of the
# machine's (the idle launcher included) apart. Everything listens on and is sent to 127.0.0.1 only;
# every run is bounded in time; each launcher is stopped by the PID its start gave. Raw output and
# table.md go to bench/results/tls-<UTC time>/ (git-ignored); the table is printed.
#
# Environment: DURATION (s, 20), WARMUP (s, 10), JIT_WARMUP (s, 60: C2 takes a while on 2 shared
# cores), ROUNDS (2), CONNS (8), QUIET_MAX (s the load generator waits for an idle machine before
# each phase, 15), PORT (18400; PORT+1 too), HEAP (256m), MVN_FLAGS (extra Maven flags, e.g. -o).
# --quick: one round of 5 s runs, 5 s of JIT warm-up: about 3 minutes, to try the command. In full
# about 12.
# Needs: JDK 17, Maven, curl.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source bench/launcher.sh
DURATION=${DURATION:-20} WARMUP=${WARMUP:-10} JIT_WARMUP=${JIT_WARMUP:-60}
CONNS=${CONNS:-8} QUIET_MAX=${QUIET_MAX:-15} ROUNDS=${ROUNDS:-2}
PORT=${PORT:-18400}
HEAP=${HEAP:-256m}
for option in "$@"; do
  case $option in
    --quick) DURATION=5 WARMUP=3 JIT_WARMUP=5 ROUNDS=1 ;;
    -h | --help) sed -n '2,33p' "$0"; exit 0 ;;
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
plain="" # the launchers' PIDs
tls=""
stop_both() {
  if [ -n "$plain" ]; then LAUNCHER_PID=$plain stop_launcher; fi
  if [ -n "$tls" ]; then LAUNCHER_PID=$tls stop_launcher; fi
  plain="" tls=""
}
cleanup() {
  stop_launcher # one that start_launcher gave and the script had not yet taken
  stop_both
  if [ -n "$work" ]; then rm -rf "$work"; fi
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
  echo "runs: JIT warm-up ${JIT_WARMUP} s per launcher, then $ROUNDS rounds of every phase, ${WARMUP} s discarded and ${DURATION} s measured, ${CONNS} connections, each launcher -Xmx$HEAP"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

work=$(mktemp -d) # owner-only: the key stores, their passwords, the data folders
pki=$work/pki
mkdir -m 700 "$pki"
say "a test PKI (server key store for 127.0.0.1, a self-signed client certificate)"
bench pki "$pki"
context=$out/context.xml
bench_context "$context"

say "plain HTTP: start a launcher on 127.0.0.1:$PORT (-Xmx$HEAP)"
start_launcher "$PORT" "$work/plain" "$context" "$out/plain-server.log" "$HEAP"
plain=$LAUNCHER_PID
LAUNCHER_PID=""

tls_port=$((PORT + 1))
say "TLS: start a launcher on 127.0.0.1:$tls_port (-Xmx$HEAP)"
java -Xmx"$HEAP" -jar target/launcher/identity-launcher.jar --bind 127.0.0.1 --port "$tls_port" \
  --data "$work/tls" --context "$context" --tls-keystore "$pki/server.p12" \
  --tls-keystore-password-file "$pki/server.p12.password" --tls-client-ca "$pki/ca.pem" \
  > "$out/tls-server.log" 2>&1 &
tls=$!
ready=false
for _ in $(seq 1 240); do
  if curl -sf --cacert "$pki/ca.pem" "https://127.0.0.1:$tls_port/health/ready" >/dev/null; then
    ready=true
    break
  fi
  kill -0 "$tls" 2>/dev/null || { echo "the launcher stopped: see $out/tls-server.log" >&2; exit 1; }
  sleep 0.5
done
$ready || { echo "the launcher is not ready after 120 s: see $out/tls-server.log" >&2; exit 1; }

say "load: $ROUNDS rounds"
bench load "$pki" "$CONNS" "$DURATION" "$WARMUP" "$JIT_WARMUP" "$QUIET_MAX" "$(getconf CLK_TCK)" \
  "$ROUNDS" "http://127.0.0.1:$PORT" "$out/plain-server.log" "$plain" \
  "https://127.0.0.1:$tls_port" "$out/tls-server.log" "$tls" -- \
  http:secret https:secret https:certificate https:ca-certificate https:secret-new \
  https:certificate-new https:ca-certificate-new \
  2> >(tee -a "$out/run.log" >&2) | tee "$out/load.txt"
stop_both
redact_log "$out/plain-server.log"
redact_log "$out/tls-server.log"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

{
  cat "$out/machine.txt"
  echo
  grep '^# ' "$out/load.txt" | sed 's/^# /- /'
  echo
  grep '^|' "$out/load.txt"
} > "$out/table.md"
cat "$out/table.md"
echo "results: $out"
