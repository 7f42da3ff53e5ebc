#!/usr/bin/env bash
# Issue 24: the signing keys in an HSM (identity/keyStore = pkcs11) on SoftHSM2, beside the
# database keys, in one run on this machine.
#
#   bench/hsm.sh [--quick]
#
# Builds the project, makes a SoftHSM2 token store of its own under the run's result folder (its
# softhsm2.conf, its token directory, two tokens initialised by softhsm2-util with throwaway PINs),
# then:
#  1. signatures per second and per CPU-second, on 1 and 2 threads, through SunPKCS11 on that token
#     beside ACCP and the JDK's SunRsaSign (Pkcs11SigningBenchmark, src/test/java);
#  2. the launcher on a fresh H2 data folder, twice: identity/keyStore = database, then pkcs11 on
#     the token (SOFTHSM2_CONF in its environment, the PIN in an owner-only file). Each gets a
#     client through /admin/v1, 20 s of JIT warm-up, then ../shared/peers/loadtest.sh on
#     POST /oauth/token (client_secret_post): a discarded warm-up, then the measured run, with the
#     server's CPU time from /proc/PID/stat before and after. The pkcs11 run checks that the
#     token's kid is an alias of the token's KeyStore (keytool through SunPKCS11).
# Everything listens on and is sent to 127.0.0.1; each launcher is stopped by the PID its start
# gave. Writes the raw output and table.md under bench/results/hsm-<UTC time>/ (git-ignored) and
# prints the table.
#
# Environment: DURATION (s, measured run, 20), WARMUP (s, discarded run before it, 10), CONNS
# ("1 8"), SIGN_SECONDS (s per signature measurement, 10), PORT (18491), HEAP (256m), QUIET_MAX
# (s loadtest.sh waits for a quiet machine, 30), PEERS (../shared/peers),
# LIBRARY (/usr/lib/softhsm/libsofthsm2.so).
# --quick: 5 s runs at 8 connections, 3 s signature runs. About 6 minutes in full, 3 quick.
# Needs: JDK 17, Maven, wrk, softhsm2 (apt-get install -y wrk softhsm2), python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source bench/launcher.sh
bench_peers "$root"
export DURATION=${DURATION:-20} WARMUP=${WARMUP:-10} QUIET_MAX=${QUIET_MAX:-30}
CONNS=${CONNS:-1 8}
SIGN_SECONDS=${SIGN_SECONDS:-10}
PORT=${PORT:-18491}
HEAP=${HEAP:-256m}
LIBRARY=${LIBRARY:-/usr/lib/softhsm/libsofthsm2.so}
for option in "$@"; do
  case $option in
    --quick) DURATION=5 WARMUP=3 CONNS=8 SIGN_SECONDS=3 ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "unknown option $option (--quick)" >&2; exit 2 ;;
  esac
done

need wrk "apt-get install -y wrk"
need softhsm2-util "apt-get install -y softhsm2"
need python3 "a Python 3"
need mvn "Apache Maven"
need keytool "a JDK 17"
need ss "apt-get install -y iproute2"
[ -f "$LIBRARY" ] || { echo "no PKCS#11 module at $LIBRARY: apt-get install -y softhsm2" >&2; exit 2; }

out=$root/bench/results/hsm-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
export OUTDIR=$out/raw
say() { echo "== $*" | tee -a "$out/run.log" >&2; }
trap stop_launcher EXIT
trap 'exit 130' INT TERM

say "build"
mvn -B -q -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "softhsm2: $(dpkg-query -W -f '${Version}' softhsm2 2>/dev/null || echo '?'), $LIBRARY"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
  echo "runs: warm-up ${WARMUP} s discarded, measured ${DURATION} s, connections ${CONNS}, wrk 1 thread"
} > "$out/machine.txt"

# The token store: SoftHSM reads SOFTHSM2_CONF when the module is initialised, in this script's
# children (the benchmark, keytool, the launcher). The PINs guard a throwaway token.
say "SoftHSM2 token store in $out/softhsm"
hsm=$out/softhsm
mkdir -p "$hsm/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n' \
  "$hsm/tokens" > "$hsm/softhsm2.conf"
export SOFTHSM2_CONF=$hsm/softhsm2.conf
pin=bench-user-pin-$RANDOM$RANDOM
slot=$(softhsm2-util --init-token --free --label identity-bench --pin "$pin" --so-pin "so-$pin" |
  sed -n 's/.*reassigned to slot \([0-9]*\).*/\1/p')
[ -n "$slot" ] || { echo "softhsm2-util did not say the slot" >&2; exit 1; }
(umask 077; printf '%s\n' "$pin" > "$hsm/pin")
# A second token for the raw signature benchmark, so that its key never meets the service's.
bench_slot=$(softhsm2-util --init-token --free --label signing-bench --pin "$pin" --so-pin "so-$pin" |
  sed -n 's/.*reassigned to slot \([0-9]*\).*/\1/p')
echo "slots: $slot (the service), $bench_slot (the raw signatures)" >> "$out/machine.txt"

say "signatures through SunPKCS11 (SoftHSM2), ACCP and the JDK, 1 and 2 threads (${SIGN_SECONDS} s each)"
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  dev.platform.identity.key.Pkcs11SigningBenchmark "$SIGN_SECONDS" "$LIBRARY" "$bench_slot" \
  < "$hsm/pin" > "$out/signing.txt" 2>&1
grep -E '^(#|sign )' "$out/signing.txt" >&2

# name context: the launcher on a fresh data folder, a client, the load, the stop.
run_identity() {
  local name=$1 context=$2 data log base=http://127.0.0.1:$PORT
  data=$(mktemp -d)
  log=$out/$name-server.log
  say "$name: start the launcher (-Xmx$HEAP)"
  start_launcher "$PORT" "$data/data" "$context" "$log" "$HEAP"
  bench_client "$base" "$log"
  curl -sf -d grant_type=client_credentials -d client_id="$CLIENT_ID" \
    --data-urlencode client_secret="$CLIENT_SECRET" "$base/oauth/token" > "$out/$name-token.json"
  curl -sf "$base/api/public-keys" > "$out/$name-keys.json"
  say "$name: JIT warm-up (20 s, discarded)"
  wrk -t1 -c8 -d20s -s "$PEERS/wrk/token-post.lua" "$base/oauth/token" > /dev/null
  "$PEERS/loadtest.sh" "$name-post" "$base/oauth/token" "$PEERS/wrk/token-post.lua" $CONNS
  curl -s "$base/health/ready" > "$out/$name-ready.json" || true
  stop_launcher
  redact_log "$log"
  rm -rf "$data"
}

database_context=$out/context-database.xml
bench_context "$database_context" \
  '<Environment name="identity/keyStore" value="database" type="java.lang.String" override="false"/>'
run_identity database "$database_context"

pkcs11_context=$out/context-pkcs11.xml
bench_context "$pkcs11_context" "$(cat <<XML
<Environment name="identity/keyStore" value="pkcs11" type="java.lang.String" override="false"/>
  <Environment name="identity/pkcs11Library" value="$LIBRARY" type="java.lang.String" override="false"/>
  <Environment name="identity/pkcs11Slot" value="$slot" type="java.lang.String" override="false"/>
  <Environment name="identity/pkcs11PinFile" value="$hsm/pin" type="java.lang.String" override="false"/>
XML
)"
run_identity pkcs11 "$pkcs11_context"

# The kid of the pkcs11 run's token is a private key in the token (an alias of its KeyStore).
kid=$(python3 -c 'import base64,json,sys
t=json.load(open(sys.argv[1]))["access_token"].split(".")[0]
print(json.loads(base64.urlsafe_b64decode(t+"="*(-len(t)%4)))["kid"])' "$out/pkcs11-token.json")
printf 'name=token\nlibrary=%s\nslot=%s\n' "$LIBRARY" "$slot" > "$hsm/sunpkcs11.cfg"
keytool -list -keystore NONE -storetype PKCS11 -providerclass sun.security.pkcs11.SunPKCS11 \
  -providerarg "$hsm/sunpkcs11.cfg" -storepass:file "$hsm/pin" > "$out/token-aliases.txt" 2>&1 || true
if grep -q "^$kid, .*PrivateKeyEntry" "$out/token-aliases.txt"; then
  echo "kid $kid: a private key in the token" > "$out/pkcs11-kid.txt"
else
  echo "kid $kid: NOT among the token's private keys (token-aliases.txt)" > "$out/pkcs11-kid.txt"
fi
say "$(cat "$out/pkcs11-kid.txt")"

python3 "$root/bench/hsm_report.py" "$out" | tee "$out/table.md"
echo "results: $out"
