#!/usr/bin/env bash
# Issue 26: whether the time of a wrong-secret token answer tells that a client_id exists.
#
#   bench/timing.sh [N [ROUNDS [WARMUP]]]
#
# Runs dev.platform.identity.token.WrongSecretTimingBenchmark (src/test/java): N known and N
# unknown client_ids (200), every one ROUNDS times (20) in a shuffled interleaved order after WARMUP
# (50000) discarded requests, in process on H2 in memory. Prints both medians, the difference and
# the Mann-Whitney z; |z| below about 3 says the two cannot be told apart. About a minute.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  dev.platform.identity.token.WrongSecretTimingBenchmark "$@"
