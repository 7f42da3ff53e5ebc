# Sourced by the bench scripts: the launcher on loopback for a load test, a client for it, and
# where the shared peer scripts (wrk scripts, loadtest.sh, keycloak.sh) are.
# Every function exits the calling script with a message when something does not come up.

# need COMMAND HINT: exits with HINT (how to install it) unless COMMAND is on the PATH.
need() {
  command -v "$1" >/dev/null || { echo "$1 is missing: $2" >&2; exit 2; }
}

# bench_peers ROOT: sets PEERS to the folder of the peer scripts, ROOT/../shared/peers unless PEERS
# is set.
bench_peers() {
  PEERS=$(cd "${PEERS:-$1/../shared/peers}" 2>/dev/null && pwd) ||
    { echo "the peer scripts are not at ${PEERS:-$1/../shared/peers}: set PEERS" >&2; exit 2; }
}

# bench_context FILE [XML]: a context.xml that lets one bench client take more than SPEC 8's 60
# tokens a minute (identity/tokenRateLimit) and every request thread (identity/requestThreadsPerAddress:
# the load comes from one address), with XML (more entries) inside.
bench_context() {
  cat > "$1" <<XML
<Context>
  <Environment name="identity/tokenRateLimit" value="1000000" type="java.lang.String" override="false"/>
  <Environment name="identity/requestThreadsPerAddress" value="10000" type="java.lang.String" override="false"/>
  ${2:-}
</Context>
XML
}

# start_launcher PORT DATA CONTEXT LOG HEAP [JAVA OPTION...]: the launcher on 127.0.0.1:PORT with
# its data folder DATA, its output in LOG; sets LAUNCHER_PID and returns once /health/ready answers.
# Callers stop it with stop_launcher (also in their EXIT trap).
start_launcher() {
  local port=$1 data=$2 context=$3 log=$4 heap=$5
  shift 5
  java -Xmx"$heap" "$@" -jar target/launcher/identity-launcher.jar --bind 127.0.0.1 \
    --port "$port" --data "$data" --context "$context" > "$log" 2>&1 &
  LAUNCHER_PID=$!
  for _ in $(seq 1 240); do
    curl -sf "http://127.0.0.1:$port/health/ready" >/dev/null && return 0
    kill -0 "$LAUNCHER_PID" 2>/dev/null || { echo "the launcher stopped: see $log" >&2; exit 1; }
    sleep 0.5
  done
  echo "the launcher is not ready after 120 s: see $log" >&2
  exit 1
}

# stop_launcher: stops the launcher that start_launcher started, by its PID, if it still runs.
stop_launcher() {
  [ -n "${LAUNCHER_PID:-}" ] || return 0
  kill "$LAUNCHER_PID" 2>/dev/null || true
  wait "$LAUNCHER_PID" 2>/dev/null || true
  LAUNCHER_PID=""
}

# bench_client BASE LOG [SCOPES]: exports CLIENT_ID and CLIENT_SECRET of a new account created
# through the admin API with the bootstrap administrator that LOG printed; SCOPES, a JSON array, by
# default two catalog scopes.
bench_client() {
  local base=$1 log=$2 scopes=${3:-'["catalog:products.view","catalog:categories.view"]'}
  local admin_id admin_secret admin account
  admin_id=$(grep -oP 'client_id:\s+\K\S+' "$log")
  admin_secret=$(grep -oP 'client_secret:\s+\K\S+' "$log")
  admin=$(curl -sf -u "$admin_id:$admin_secret" -d grant_type=client_credentials "$base/oauth/token" |
    json_field access_token)
  account=$(curl -sf "$base/admin/v1/service-accounts" -H "Authorization: Bearer $admin" \
    -H 'Content-Type: application/json' \
    -d '{"name":"bench","organization_id":"bench","scopes":'"$scopes"'}')
  CLIENT_ID=$(echo "$account" | json_field client_id)
  CLIENT_SECRET=$(echo "$account" | json_field client_secret)
  export CLIENT_ID CLIENT_SECRET
}

# json_field NAME: one field of the JSON object on standard input.
json_field() {
  python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

# redact_log LOG: keeps the start and the end of a launcher log (one audit line per token makes it
# hundreds of MB) and never the bootstrap administrator's secret.
redact_log() {
  { head -n 80 "$1"; echo "..."; tail -n 20 "$1"; } |
    sed -E 's/(client_secret:\s+)\S+/\1(redacted)/' > "$1.kept"
  mv "$1.kept" "$1"
}
