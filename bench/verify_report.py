#!/usr/bin/env python3
"""Issue 23: the table of bench/verify.sh from JMH's JSON results (one thread, then eight)."""
import json
import os
import sys

NAMES = [
    ("rawJdk", "raw SHA256withRSA verify, JDK (SunRsaSign)"),
    ("rawAccp", "raw SHA256withRSA verify, ACCP"),
    ("coldJdk", "BearerVerifier cold (cache off), JDK"),
    ("coldAccp", "BearerVerifier cold (cache off), ACCP"),
    ("hit", "BearerVerifier cache hit"),
    ("hitBound", "BearerVerifier cache hit, certificate-bound token, same certificate object"),
    ("hitBoundRehash", "BearerVerifier cache hit, certificate-bound token, new certificate object"),
    ("hitRevocations", "BearerVerifier cache hit, revocation feed on (10,000 jtis, 1,000 accounts)"),
    ("revocationCheck", "the revocation check alone (what a hit with the feed adds)"),
    ("nimbus", "Nimbus DefaultJWTProcessor + JWKSource"),
    ("jjwt", "JJWT parser"),
]


def scores(path):
    with open(path) as results:
        return {
            r["benchmark"].rsplit(".", 1)[1]: (r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"])
            for r in json.load(results)
        }


one = scores(sys.argv[1])
eight = scores(sys.argv[2]) if len(sys.argv) > 2 and os.path.exists(sys.argv[2]) else {}
print(f"{os.cpu_count()} cores; ops/s on one thread (± JMH's 99.9 % error), µs per call\n")
print("| | calls/s, 1 thread | µs per call | calls/s, 8 threads on one verifier |")
print("|---|---:|---:|---:|")
for key, name in NAMES:
    if key not in one:
        continue
    score, error = one[key]
    many = f"{eight[key][0]:,.0f}" if key in eight else ""
    error = f"{error:,.0f}" if isinstance(error, (int, float)) and error == error else "?"
    print(f"| {name} | {score:,.0f} ± {error} | {1e6 / score:.3f} | {many} |")


def ratio(a, b):
    return one[a][0] / one[b][0]


print()
print(f"- cold / raw, JDK: {ratio('coldJdk', 'rawJdk'):.2f} (target ≥ 0.9)")
print(f"- cold / raw, ACCP: {ratio('coldAccp', 'rawAccp'):.2f} (target ≥ 0.9)")
print(f"- cache hit: {1e6 / one['hit'][0]:.3f} µs per call (target ≤ 1), "
      f"{ratio('hit', 'nimbus'):.0f} × Nimbus (target ≥ 20)")
if "hitRevocations" in one:
    extra = 1e9 / one["hitRevocations"][0] - 1e9 / one["hit"][0]
    alone = f", {1e9 / one['revocationCheck'][0]:.1f} ns measured alone" if "revocationCheck" in one else ""
    print(f"- revocation check on a cache hit: {extra:+.1f} ns per call{alone} (target ≤ 50)")
if "hitBound" in one:
    bound = 1e9 / one["hitBound"][0] - 1e9 / one["hit"][0]
    rehash = (f", {1e9 / one['hitBoundRehash'][0] - 1e9 / one['hit'][0]:+.1f} ns with a new certificate"
              " object (hashed)") if "hitBoundRehash" in one else ""
    print(f"- certificate binding on a cache hit: {bound:+.1f} ns per call with the same certificate"
          f" object{rehash}")
if "hit" in eight:
    print(f"- 8 threads on one verifier: hit {eight['hit'][0] / one['hit'][0]:.2f} × one thread's rate "
          f"on {os.cpu_count()} cores (a lock would hold it near 1)")
hit, cold = 1 / one["hit"][0], 1 / one["coldAccp"][0]
mixed = 1 / (0.99 * hit + 0.01 * cold)
print(f"- at a 99 % hit rate (a token reused ~100 times): {mixed:,.0f} verifications per second per "
      f"core, {mixed / one['coldAccp'][0]:.0f} × verifying every call (ACCP), "
      f"{mixed / one['nimbus'][0]:.0f} × Nimbus")
