#!/usr/bin/env bash
# Issue 23: token verification, one run, beside the libraries our users would otherwise use.
#
#   bench/verify.sh [--quick]
#
# Runs the JMH benchmark dev.platform.identity.verify.VerifyBenchmark (src/test/java) on one
# thread: raw SHA256withRSA verify through the JDK's provider and through ACCP, BearerVerifier
# cold (cache off) with each, BearerVerifier on a cache hit without and with a revocation feed
# (issue 38: 10,000 revoked jtis and 1,000 revoked accounts, fetched once from 127.0.0.1 at
# set-up), on a cache hit of a certificate-bound token with its certificate (issue 39: the same
# certificate object, then a new one each call), Nimbus DefaultJWTProcessor with a JWKSource, and
# JJWT's parser, all on the same token.
# Then the cache hit and the cold path again on 8 threads sharing one verifier. Prints the table
# (docs/performance.md), with the issue's ratios, what a 99 % hit rate means per core and what the
# revocation check and the certificate binding add to a hit. Then DpopVerifyBenchmark (issue 40):
# a DPoP proof (ES256, RS256) per call beside a Bearer cache hit. In process; about 9 minutes
# (--quick: about 2, with wide error bars). Raw JMH output and JSON go to
# bench/results/verify-<UTC time>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
warmups=3 warmup=3s iterations=5 time=5s
if [ "${1:-}" = --quick ]; then warmups=1 warmup=1s iterations=2 time=2s; fi
out=bench/results/verify-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
classpath="target/test-classes:target/classes:$(cat target/test-classpath.txt)"
jmh() { # jmh <benchmarks (a regular expression)> <JMH options...>
  java -Xmx512m -cp "$classpath" org.openjdk.jmh.Main "dev\.platform\.identity\.verify\.VerifyBenchmark\.$1" \
    -f 1 -wi "$warmups" -w "$warmup" -i "$iterations" -r "$time" -rf json "${@:2}"
}
jmh '.*' -t 1 -rff "$out/one-thread.json" | tee "$out/one-thread.txt"
jmh '(hit|coldAccp)$' -t 8 -rff "$out/eight-threads.json" | tee "$out/eight-threads.txt"
python3 bench/verify_report.py "$out/one-thread.json" "$out/eight-threads.json" | tee "$out/table.md"
# Issue 40: a DPoP proof's cost per call at the verifier, beside a Bearer cache hit (one thread,
# thread CPU time; every proof made before the clock starts).
java -Xmx512m -cp "$classpath" dev.platform.identity.verify.DpopVerifyBenchmark 20000 \
  | tee "$out/dpop.txt"
