#!/bin/sh
# Waits for the identity service on Payara Micro to be ready (docs/deploying-tomcat.md, "Payara Micro 6").
#   sh await-ready.sh URL LOG [SECONDS]
# Run it right after starting Payara. Exits 0 once URL/health/ready answers 200. Payara Micro keeps
# running when a post-boot command (the deploy too) fails, answering 500, so this exits 1 as soon
# as LOG gains a failed boot command, or after SECONDS (default 180), printing the reason: the
# failed commands, else the log's last lines. LOG is appended to start after start: only what LOG
# gains after this script starts counts. Wrong arguments exit 2 with a usage line.
usage() {
  echo "usage: sh await-ready.sh URL LOG [SECONDS]: $1" >&2
  exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage "two or three arguments, not $#"
url=$1 log=$2 seconds=${3:-180}
case $url in
  http://?* | https://?*) ;;
  *) usage "URL must start with http:// or https://" ;;
esac
case $seconds in
  '' | *[!0-9]*) usage "SECONDS must be a whole number of seconds" ;;
esac
failed='Boot Command .* failed'
skip=$( (wc -c <"$log") 2>/dev/null || echo 0)
since() { tail -c +$((skip + 1)) -- "$log" 2>/dev/null; }
# Seconds on the clock, not loop rounds: under load a round takes longer than its 1 s sleep (curl
# waits up to 5 s), so counting rounds reported too few seconds and waited too long.
start=$(date +%s)
elapsed=0
while [ "$elapsed" -lt "$seconds" ]; do
  if curl -sf -m 5 -o /dev/null "$url/health/ready"; then
    echo "ready after $(($(date +%s) - start)) s"
    exit 0
  fi
  if since | grep -aq "$failed"; then
    break
  fi
  sleep 1
  elapsed=$(($(date +%s) - start))
done
echo "not ready after $(($(date +%s) - start)) s; $log says:" >&2
since | grep -a "$failed" >&2 || since | tail -n 40 >&2
exit 1
