#!/usr/bin/env python3
"""Sorts async-profiler's collapsed stacks of a token-endpoint run into the parts of a token request.

usage: bench/profile.py PROFILE.collapsed [ROWS]

Each sample goes to the part named by the frame nearest its leaf that any part names (so Jackson
under the audit line counts as the audit line, and Tomcat code under the rate-limit filter as
Tomcat); where one frame fits several parts, the first below wins. Prints the share of every part and
the ROWS (15) busiest leaf frames outside the signature. Python 3 standard library only.
"""
import collections
import re
import sys

# (part, substrings of a frame), in order of precedence. Thread names are the root frame of each
# stack (async-profiler's "threads" option).
PARTS = [
    ("RS256 signature (ACCP / AWS-LC, or the JDK's RSA)",
     ["amazonCorrettoCryptoProvider", "com/amazon/corretto/crypto", "sun/security/rsa",
      "java/math/BigInteger"]),
    ("JIT compiler threads", ["[C1 CompilerThre", "[C2 CompilerThre"]),
    ("garbage collector and other JVM threads",
     ["[GC Thread", "[G1 ", "[VM Thread", "[VM Periodic", "[Sweeper"]),
    ("account read (EclipseLink, DBCP, H2)",
     ["org/eclipse/persistence", "org/h2/", "org/apache/tomcat/dbcp", "identity/account/ServiceAccounts",
      "identity/db/"]),
    ("audit line (JSON, java.util.logging, console)", ["identity/audit/AuditLog", "java/util/logging"]),
    ("claims and response JSON, base64url (Jackson)",
     ["identity/token/TokenIssuer.json", "identity/token/TokenAnswer.json", "java/util/Base64$Encoder",
      "identity/token/TokenResponse"]),
    ("client secret HMAC and compare", ["identity/account/SecretDigest", "javax/crypto/Mac"]),
    ("request parsing (form, Basic)",
     ["identity/token/TokenRequest", "identity/token/Form", "identity/token/BasicCredentials",
      "identity/token/TokenServlet.read"]),
    ("rate limiter (Bucket4j)", ["identity/ratelimit/", "io/github/bucket4j"]),
    ("scope grant", ["identity/scope/"]),
    ("jti (UUID.randomUUID)", ["java/util/UUID.randomUUID"]),
    ("rest of the token servlet", ["identity/token/"]),
    ("Tomcat: HTTP parsing, writing, the poller, socket system calls",
     ["org/apache/", "sun/nio/", "[http-nio"]),
]


def part_of(frames):
    for frame in reversed(frames):
        for name, needles in PARTS:
            if any(needle in frame for needle in needles):
                return name
    return "other"


def main():
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    parts, leaves, total = collections.Counter(), collections.Counter(), 0
    for line in open(sys.argv[1]):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")
        part = part_of(frames)
        parts[part] += int(count)
        total += int(count)
        if not part.startswith("RS256"):
            leaves[re.sub(r"_\[[a-z0-9]\]$", "", frames[-1])] += int(count)
    if not total:
        sys.exit("no samples in " + sys.argv[1])
    print(f"\n{total} CPU samples (1 ms each), by part of the token request:\n")
    print("| part | share of the server's CPU |\n|---|---|")
    for name, count in parts.most_common():
        print(f"| {name} | {100 * count / total:.1f} % |")
    print(f"\nBusiest leaf frames outside the signature:\n")
    print("| frame | share |\n|---|---|")
    for frame, count in leaves.most_common(rows):
        print(f"| `{frame[:110]}` | {100 * count / total:.1f} % |")


if __name__ == "__main__":
    main()
