#!/usr/bin/env bash
# Issue 38: revocation and introspection, one run, on this machine.
#
#   bench/revocation.sh [--quick] [--no-keycloak]
#
# Builds the project, makes a fresh PostgreSQL database at 127.0.0.1:5432 and starts two launchers
# on it (node A on PORT, node B on PORT+1, one issuer), then:
#  1. propagation: RevocationBenchmark (src/test/java, verify package) takes COUNT tokens from A,
#     verifies them with a BearerVerifier whose RevocationFeed (default 5 s poll) and key set read
#     B, revokes them on A one every SPACING ms, and times each one's first refusal (a watcher
#     checks every 5 ms); target: p99 within the poll interval + 1 s;
#  2. the feed at FILL live revocations: stops B, issues and revokes FILL real tokens on A through
#     POST /oauth/revoke, records the feed's size (and whether it is served compressed), then
#     load-tests the unchanged poll (If-None-Match, every answer must be 304) and the full 200 GET;
#  3. introspection: POST /oauth/introspect of an active token by a client of scope
#     identity:introspect (client_secret_basic), beside Keycloak's token/introspect in the same run,
#     at 4 and 8 connections; the table counts only "active":true answers per CPU-second.
# Load runs go through the team's peers/loadtest.sh (8 connections, a discarded warm-up, the
# server's CPU from /proc/PID/stat), with bench/wrk/feed.lua and introspect.lua, which count every
# answer that is not the one expected. Everything listens on and is sent to 127.0.0.1 only; every
# run is bounded in time and every server is stopped by the PID its start gave. Raw output, the log
# and table.md go to bench/results/revocation-<UTC time>/ (git-ignored); the table is printed.
#
# Environment: DURATION (s, measured run, 20), WARMUP (s, discarded run before each, 10),
# QUIET_MAX (s loadtest.sh waits for an idle machine, 15), PORT (18491), HEAP (256m), COUNT (100: one client, whose revoked jtis in force are capped at 100),
# SPACING (ms, 370), FILL (10000), INTROSPECT_CONNS ("4 8": the launcher's default 8 request
# threads allow 6 at once at the database, identity/databaseConcurrency), PEERS (../shared/peers).
# --quick: COUNT 20, FILL 2000, 5 s runs: about 4 minutes, to try the command. In full about 9.
# Needs: JDK 17, Maven, wrk, curl, psql, python3, gzip; for Keycloak the Temurin 25 JDK.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source bench/launcher.sh
bench_peers "$root"
export DURATION=${DURATION:-20} WARMUP=${WARMUP:-10} QUIET_MAX=${QUIET_MAX:-15}
PORT=${PORT:-18491}
HEAP=${HEAP:-256m}
COUNT=${COUNT:-100} SPACING=${SPACING:-370} FILL=${FILL:-10000}
INTROSPECT_CONNS=${INTROSPECT_CONNS:-4 8}
jit_warmup=20
keycloak=true
for option in "$@"; do
  case $option in
    --no-keycloak) keycloak=false ;;
    --quick) DURATION=5 WARMUP=3 COUNT=20 FILL=2000 jit_warmup=5 ;;
    -h | --help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "unknown option $option (--quick, --no-keycloak)" >&2; exit 2 ;;
  esac
done

need wrk "apt-get install -y wrk"
need psql "apt-get install -y postgresql-client"
need python3 "a Python 3"
need mvn "Apache Maven"
need curl "apt-get install -y curl"
need gzip "apt-get install -y gzip"
need ss "apt-get install -y iproute2"

out=$root/bench/results/revocation-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
export OUTDIR=$out/raw
say() { echo "== $*" | tee -a "$out/run.log" >&2; }

database=""
data=""
node_a=""
node_b=""
keycloak_started=false
# stop_node PID: stops one launcher by the PID start_launcher gave (stop_launcher's way).
stop_node() { LAUNCHER_PID=$1 stop_launcher; }
cleanup() {
  [ -n "$node_b" ] && stop_node "$node_b"
  [ -n "$node_a" ] && stop_node "$node_a"
  if $keycloak_started; then "$PEERS/keycloak.sh" stop >/dev/null 2>&1 || true; fi
  if [ -n "$database" ]; then
    psql -q -h 127.0.0.1 -U postgres -d postgres -c "drop database if exists $database with (force)" || true
  fi
  [ -n "$data" ] && rm -rf "$data"
}
trap cleanup EXIT

# keycloak_audience add|remove: puts bench-client in the audience of its own tokens, or takes it
# out again (the realm is the peers' and stays as keycloak.sh configures it). Keycloak 26 answers
# {"active":false} to a client that introspects a token it is not an audience of ("Client ... is
# not in the token audience" in its log), so a resource server there is given an audience mapper.
keycloak_audience() {
  local url=http://127.0.0.1:${KC_PORT:-18080} admin client mappers
  admin=$(curl -sf "$url/realms/master/protocol/openid-connect/token" -d grant_type=password \
    -d client_id=admin-cli -d username="${KC_ADMIN:-admin}" \
    --data-urlencode password="${KC_ADMIN_PASSWORD:-admin-bench}" | json_field access_token)
  client=$(curl -sf -H "Authorization: Bearer $admin" "$url/admin/realms/bench/clients?clientId=$CLIENT_ID" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
  mappers=$url/admin/realms/bench/clients/$client/protocol-mappers/models
  if [ "$1" = add ]; then
    curl -sf -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' "$mappers" \
      -d '{"name":"bench-audience","protocol":"openid-connect","protocolMapper":"oidc-audience-mapper",
      "config":{"included.client.audience":"'"$CLIENT_ID"'","access.token.claim":"true",
      "id.token.claim":"false","introspection.token.claim":"true"}}'
  else
    curl -sf -H "Authorization: Bearer $admin" "$mappers" |
      python3 -c 'import json,sys; print(*[m["id"] for m in json.load(sys.stdin) if m["name"] == "bench-audience"])' |
      xargs -r -I{} curl -sf -X DELETE -H "Authorization: Bearer $admin" "$mappers/{}"
  fi
}
trap 'exit 130' INT TERM

say "build"
mvn -B -q -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "postgresql: $(psql -h 127.0.0.1 -U postgres -d postgres -tAc 'show server_version')"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
  echo "runs: warm-up ${WARMUP} s discarded, measured ${DURATION} s, 8 connections, wrk 1 thread"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

database=identity_revocation_$$
psql -q -h 127.0.0.1 -U postgres -d postgres -c "create database $database"
a=http://127.0.0.1:$PORT
b=http://127.0.0.1:$((PORT + 1))
context=$out/context.xml
# One issuer for both nodes, as behind a load balancer: a token of A verifies against B's keys.
bench_context "$context" "$(cat <<XML
<Environment name="identity/issuer" value="$a" type="java.lang.String" override="false"/>
  <Resource name="jdbc/identity" auth="Container" type="javax.sql.DataSource"
            driverClassName="org.postgresql.Driver"
            url="jdbc:postgresql://127.0.0.1:5432/$database" username="postgres" password=""
            maxTotal="20" maxWaitMillis="5000" testOnBorrow="true" closeMethod="close"/>
XML
)"
data=$(mktemp -d)
say "node A: start the launcher on $a (-Xmx$HEAP)"
start_launcher "$PORT" "$data/a" "$context" "$out/node-a.log" "$HEAP"
node_a=$LAUNCHER_PID
# Node B shares A's key-encryption key and pepper, as the nodes of one deployment do.
mkdir -m 700 "$data/b"
cp -p "$data/a/key-encryption-key" "$data/a/secret-pepper" "$data/b/"
say "node B: start the launcher on $b"
start_launcher "$((PORT + 1))" "$data/b" "$context" "$out/node-b.log" "$HEAP"
node_b=$LAUNCHER_PID

bench_client "$a" "$out/node-a.log"
caller_id=$CLIENT_ID caller_secret=$CLIENT_SECRET
bench_client "$a" "$out/node-a.log" '["identity:introspect"]'
introspector_basic=$(printf '%s:%s' "$CLIENT_ID" "$CLIENT_SECRET" | base64 -w0)

say "propagation: $COUNT revocations on A, one every $SPACING ms, a verifier polling B"
java -Xmx256m -cp "$classpath" dev.platform.identity.verify.RevocationBenchmark propagation \
  "$a" "$a" "$b" "$caller_id" "$caller_secret" "$COUNT" "$SPACING" "$out/propagation.csv" |
  tee "$out/propagation.txt"
stop_node "$node_b"
node_b=""

# A client's revoked jtis in force are capped at 100 (past them its revocations become one
# cut-off), so the feed is filled by FILL / 100 clients, 100 revocations each.
fillers=$((  (FILL + 99) / 100 ))
say "the feed: $FILL tokens of $fillers clients issued and revoked on A"
clients_file=$data/fill-clients   # secrets: in the owner-only data folder, never in the results
( umask 077; : > "$clients_file" )
for _ in $(seq 1 "$fillers"); do
  bench_client "$a" "$out/node-a.log"
  echo "$CLIENT_ID $CLIENT_SECRET" >> "$clients_file"
done
java -Xmx256m -cp "$classpath" dev.platform.identity.verify.RevocationBenchmark fill \
  "$a" "$clients_file" "$FILL" 4 | tee "$out/fill.txt"
sleep 2
curl -sf -D "$out/feed-headers.txt" -o "$out/feed.json" "$a/oauth/revocations"
curl -sf -H 'Accept-Encoding: gzip' -D "$out/feed-gzip-headers.txt" -o "$out/feed-gzip.body" \
  "$a/oauth/revocations"
etag=$(grep -i '^etag:' "$out/feed-headers.txt" | cut -d' ' -f2- | tr -d '\r')
feed_tokens=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tokens"]))' "$out/feed.json")
feed_bytes=$(stat -c %s "$out/feed.json")
if grep -qi '^content-encoding: *gzip' "$out/feed-gzip-headers.txt"; then
  feed_gzip="$(stat -c %s "$out/feed-gzip.body") bytes, served gzip on Accept-Encoding"
else
  feed_gzip="not compressed by the service (gzip -6 would make it $(gzip -6c "$out/feed.json" | wc -c) bytes)"
fi
conditional=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$a/oauth/revocations")
say "feed: $feed_tokens jtis, $feed_bytes bytes; $feed_gzip; If-None-Match answers $conditional"

say "the unchanged poll (If-None-Match) and the full GET, 8 connections"
ETAG=$etag EXPECT=304 "$PEERS/loadtest.sh" feed-304 "$a/oauth/revocations" bench/wrk/feed.lua 8
EXPECT=200 "$PEERS/loadtest.sh" feed-200 "$a/oauth/revocations" bench/wrk/feed.lua 8
etag_after=$(curl -s -D - -o /dev/null "$a/oauth/revocations" | grep -i '^etag:' | cut -d' ' -f2- | tr -d '\r')

say "introspection on A: JIT warm-up ($jit_warmup s, discarded), then the run"
token=$(curl -sf -u "$caller_id:$caller_secret" -d grant_type=client_credentials "$a/oauth/token" |
  json_field access_token)
export TOKEN=$token BASIC=$introspector_basic
curl -sf -H "Authorization: Basic $BASIC" -d "token=$TOKEN" "$a/oauth/introspect" > "$out/introspect-identity.json"
wrk -t1 -c8 -d"${jit_warmup}s" -s bench/wrk/introspect.lua "$a/oauth/introspect" > /dev/null
"$PEERS/loadtest.sh" introspect-identity "$a/oauth/introspect" bench/wrk/introspect.lua $INTROSPECT_CONNS

if $keycloak; then
  say "keycloak: set up, start, configure (../shared/peers/keycloak.sh)"
  export CLIENT_ID=bench-client CLIENT_SECRET=bench-secret-0123456789
  "$PEERS/keycloak.sh" setup > "$out/keycloak-setup.txt" 2>&1
  keycloak_started=true
  "$PEERS/keycloak.sh" start >> "$out/keycloak-setup.txt" 2>&1
  "$PEERS/keycloak.sh" configure >> "$out/keycloak-setup.txt" 2>&1
  kc=http://127.0.0.1:${KC_PORT:-18080}/realms/bench/protocol/openid-connect
  keycloak_audience remove >> "$out/keycloak-setup.txt" 2>&1 # a mapper an earlier run left
  keycloak_audience add >> "$out/keycloak-setup.txt" 2>&1
  TOKEN=$(curl -sf -d grant_type=client_credentials -d client_id="$CLIENT_ID" \
    --data-urlencode client_secret="$CLIENT_SECRET" "$kc/token" | json_field access_token)
  BASIC=$(printf '%s:%s' "$CLIENT_ID" "$CLIENT_SECRET" | base64 -w0)
  export TOKEN BASIC
  curl -sf -H "Authorization: Basic $BASIC" -d "token=$TOKEN" "$kc/token/introspect" > "$out/introspect-keycloak.json"
  say "keycloak: JIT warm-up ($((jit_warmup * 2)) s, discarded), then the run"
  wrk -t1 -c8 -d"$((jit_warmup * 2))s" -s bench/wrk/introspect.lua "$kc/token/introspect" > /dev/null
  "$PEERS/loadtest.sh" introspect-keycloak "$kc/token/introspect" bench/wrk/introspect.lua $INTROSPECT_CONNS
  keycloak_audience remove >> "$out/keycloak-setup.txt" 2>&1
  "$PEERS/keycloak.sh" stop >> "$out/keycloak-setup.txt" 2>&1
  keycloak_started=false
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

# field LABEL CONNS N: field N of that row of loadtest.sh's summary, split at | (6 requests,
# 7 req/s, 10 p99, 14 server cores, 15 req per server core-s, 17 other cores).
field() {
  awk -F'|' -v label=" $1 " -v conns=" $2 " -v n="$3" \
    '$2 == label && $3 == conns {gsub(/^ +| +$/, "", $n); print $n}' "$OUTDIR/summary.md"
}
# unexpected LABEL CONNS: the answers the wrk script counted as not the expected one.
unexpected() { grep -oP '^answers (other than \d+|not active): \K\d+' "$OUTDIR/$1-c$2.txt" || echo 0; }
# good LABEL CONNS: the expected answers per server CPU-second.
good() {
  awk -v r="$(field "$1" "$2" 6)" -v u="$(unexpected "$1" "$2")" -v c="$(field "$1" "$2" 15)" \
    'BEGIN { if (r > 0) printf "%.0f", c * (r - u) / r; else print "-" }'
}
load_row() { # LABEL CONNS WHAT
  local u
  u=$(unexpected "$1" "$2")
  echo "| $3, $2 conns | $(field "$1" "$2" 7) req/s, p99 $(field "$1" "$2" 10), $(field "$1" "$2" 14) server cores, $(field "$1" "$2" 17) other cores; $u of $(field "$1" "$2" 6) answers not the expected one$(grep -oP '^the first of them: \K\d+' "$OUTDIR/$1-c$2.txt" | sed 's/^/ (the first: /; s/$/)/') | $(good "$1" "$2") |"
}
prop() { grep -oP "^from the revocation's $1: +\K.*" "$out/propagation.txt" || echo "none"; }
verdict=$(grep -oP '^verdict: \K.*' "$out/propagation.txt" || echo "none")
ratio() { # CONNS
  awk -v a="$(good introspect-identity "$1")" -v b="$(good introspect-keycloak "$1")" \
    'BEGIN { if (b > 0) printf "%.1f ×", a / b; else print "-" }'
}
{
  cat "$out/machine.txt"
  echo
  echo "| figure | measured | expected answers per server CPU-s |"
  echo "|---|---|---|"
  echo "| propagation, A's revoke answered → refused by a verifier polling B | $(prop answer) | |"
  echo "| propagation, A's revoke sent → refused | $(prop send) | |"
  echo "| propagation verdict | $verdict | |"
  echo "| feed at $feed_tokens live revocations (jtis) | $feed_bytes bytes identity; $feed_gzip | |"
  load_row feed-304 8 "unchanged poll, If-None-Match → 304 (ETag the same after: $([ "$etag" = "$etag_after" ] && echo yes || echo no))"
  load_row feed-200 8 "full GET of the feed, 200"
  for c in $INTROSPECT_CONNS; do
    load_row introspect-identity "$c" "introspection, this service (node A)"
    if $keycloak; then
      load_row introspect-keycloak "$c" "introspection, Keycloak 26 token/introspect"
      echo "| introspection, this service / Keycloak, $c conns | | $(ratio "$c") |"
    fi
  done
} > "$out/table.md"
cat "$out/table.md"
redact_log "$out/node-a.log"
redact_log "$out/node-b.log"
echo "results: $out"
