#!/usr/bin/env python3
"""Issue 24: the tables of one bench/hsm.sh result folder (docs/performance.md, docs/hsm.md).

usage: bench/hsm_report.py RESULTS_DIR

Reads signing.txt (Pkcs11SigningBenchmark's "sign PROVIDER THREADS PER_S PER_CPU_S" lines),
raw/summary.md (one row per wrk run, from ../shared/peers/loadtest.sh), machine.txt and
pkcs11-kid.txt. Python 3 standard library only.
"""
import pathlib
import sys

NAMES = {"pkcs11": "SunPKCS11 on SoftHSM2", "AmazonCorrettoCryptoProvider": "ACCP (AWS-LC)",
         "jdk": "JDK (SunRsaSign)"}


def signing(folder):
    rates = {}
    for line in (folder / "signing.txt").read_text().splitlines():
        fields = line.split()
        if len(fields) == 5 and fields[0] == "sign":
            rates[(fields[1], int(fields[2]))] = (float(fields[3]), float(fields[4]))
    return rates


def runs(folder):
    rows = {}
    summary = folder / "raw" / "summary.md"
    if not summary.exists():
        return rows
    for line in summary.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 17 or not cells[1].isdigit():
            continue
        rows[(cells[0].rsplit("-", 1)[0], int(cells[1]))] = {
            "rps": float(cells[5] or 0), "p50": cells[6], "p99": cells[8],
            "non2xx": int(cells[10] or 0), "errors": cells[11],
            "cores": float(cells[12] or 0), "per_cpu": float(cells[13] or 0)}
    return rows


def main():
    folder = pathlib.Path(sys.argv[1])
    print((folder / "machine.txt").read_text().strip().replace("\n", "; "))
    rates = signing(folder)
    print("\nRS256 (RSA-2048) signatures, in process; per CPU-second of the process:\n")
    print("| provider | 1 thread: per s | 1 thread: per CPU-s | 2 threads: per s | 2 threads: per CPU-s |")
    print("|---|---:|---:|---:|---:|")
    for key, name in NAMES.items():
        cells = []
        for threads in (1, 2):
            wall, cpu = rates.get((key, threads), (float("nan"), float("nan")))
            cells += [f"{wall:,.0f}", f"{cpu:,.0f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    pkcs11, accp, jdk = (rates.get((k, 1), (float("nan"),) * 2)[1] for k in NAMES)
    print(f"\nPer CPU-second on one thread: SoftHSM2 {pkcs11 / accp:.2f} × ACCP, "
          f"{pkcs11 / jdk:.2f} × the JDK's provider.")

    rows = runs(folder)
    print("\nPOST /oauth/token (client_secret_post), the launcher on H2:\n")
    print("| keyStore | conns | tokens/s | p50 / p99 | server cores | tokens per server CPU-s |")
    print("|---|---:|---:|---|---:|---:|")
    for (store, conns), run in sorted(rows.items(), key=lambda item: (item[0][1], item[0][0])):
        flag = f" ({run['non2xx']} non-2xx)" if run["non2xx"] else ""
        print(f"| {store} | {conns} | {run['rps']:,.0f}{flag} | {run['p50']} / {run['p99']} | "
              f"{run['cores']:.2f} | {run['per_cpu']:,.0f} |")
    for conns in sorted({c for (_, c) in rows}):
        database, hsm = rows.get(("database", conns)), rows.get(("pkcs11", conns))
        if database and hsm and database["per_cpu"]:
            print(f"\n{conns} connections: pkcs11 serves {hsm['per_cpu'] / database['per_cpu']:.2f} × "
                  f"the tokens per CPU-second of database, {hsm['rps'] / database['rps']:.2f} × the "
                  "tokens per second.")
    kid = folder / "pkcs11-kid.txt"
    if kid.exists():
        print("\n" + kid.read_text().strip())


main()
