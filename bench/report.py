#!/usr/bin/env python3
"""Turns one bench/run.sh result folder into table.md and chart.png, and prints the table.

usage: bench/report.py RESULTS_DIR

Reads raw/summary.md (one row per wrk run, from ../shared/peers/loadtest.sh), openssl-speed.txt,
signing.txt, machine.txt, the jstat heap samples, and database-cpu.txt with its wrk runs (the
database servers' own CPU and the stranger flood, issue 42). Python 3 standard library only; the chart is
drawn by gnuplot.
"""
import json
import pathlib
import re
import subprocess
import sys
from math import isnan

SYSTEMS = [("identity-h2", "identity (H2)"), ("identity-pg", "identity (PostgreSQL)"),
           ("identity-mariadb", "identity (MariaDB)"), ("keycloak", "Keycloak 26")]
ENDPOINTS = [("post", "POST /oauth/token, client_secret_post"),
             ("basic", "POST /oauth/token, client_secret_basic"),
             ("jwks", "GET JWKS (/api/public-keys; Keycloak .../certs)")]
PEER = "keycloak"


def millis(text):
    """wrk's latency ('774.00us', '1.15ms', '1.02s') in milliseconds."""
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text.strip())
    if not match:
        return float("nan")
    value, unit = float(match.group(1)), match.group(2)
    return value * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def runs(folder):
    """{(system, endpoint, conns): row} from summary.md."""
    rows = {}
    summary = folder / "raw" / "summary.md"
    if not summary.exists():
        return rows
    for line in summary.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 17 or not cells[1].isdigit():
            continue
        system, _, endpoint = cells[0].rpartition("-")
        rows[(system, endpoint, int(cells[1]))] = {
            "requests": int(cells[4] or 0), "rps": float(cells[5] or 0),
            "p50": millis(cells[6]), "p99": millis(cells[8]), "non2xx": int(cells[10] or 0),
            "errors": cells[11], "server_cores": float(cells[12] or 0),
            "per_cpu": float(cells[13] or 0), "other_cores": float(cells[15] or 0)}
    return rows


def openssl_sign_rate(folder):
    for line in (folder / "openssl-speed.txt").read_text().splitlines():
        fields = line.split()
        if fields[:3] == ["rsa", "2048", "bits"]:
            return float(fields[5])
    return float("nan")


def jca_sign_rates(folder):
    rates = {}
    for line in (folder / "signing.txt").read_text().splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "rs256":
            rates[fields[1]] = float(fields[2])
    return rates


def heap(folder, system):
    """Peak heap used and committed (MB) from the jstat samples, and the live heap after a GC."""
    samples = folder / f"{system}-heap.txt"
    if not samples.exists():
        return None
    lines = [l.split() for l in samples.read_text().splitlines()]
    header = next((l for l in lines if "EU" in l), None)
    if header is None:
        return None
    used, committed, gc_start, gc_end = 0.0, 0.0, None, None
    for values in lines:
        if values is header or len(values) != len(header):
            continue
        try:
            sample = dict(zip(header, map(float, values)))
        except ValueError:
            continue
        used = max(used, sum(sample[k] for k in ("S0U", "S1U", "EU", "OU")) / 1024)
        committed = max(committed, sum(sample[k] for k in ("S0C", "S1C", "EC", "OC")) / 1024)
        gc_start = sample["GCT"] if gc_start is None else gc_start
        gc_end = sample["GCT"]
    after = None
    after_gc = folder / f"{system}-heap-after-gc.txt"
    if after_gc.exists():
        match = re.search(r"used (\d+)K", after_gc.read_text())
        after = int(match.group(1)) / 1024 if match else None
    return {"used": used, "committed": committed, "after_gc": after,
            "gc_seconds": (gc_end or 0) - (gc_start or 0)}


def number(value, digits=0):
    return "-" if value != value else f"{value:,.{digits}f}"


def ratio(value, of, digits=2):
    return "-" if value != value else f"{value:.{digits}f} × {of}"


def latency(value):
    return "-" if value != value else (f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms")


def comparison_table(rows, systems):
    ours = [s for s in systems if s[0] != PEER]
    peer = next((s for s in systems if s[0] == PEER), None)
    head = ["endpoint", "conns"]
    for _, name in systems:
        head += [f"{name} req/s", f"{name} p50 / p99", f"{name} req per server CPU-s"]
    if peer:
        for _, name in ours:
            head += [f"{name} / Keycloak: req/s", "req per CPU-s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for endpoint, title in ENDPOINTS:
        for conns in sorted({c for (_, e, c) in rows if e == endpoint}):
            cells = [title, str(conns)]
            for system, _ in systems:
                run = rows.get((system, endpoint, conns))
                if run is None:
                    cells += ["-", "-", "-"]
                    continue
                flag = f" ({run['non2xx']} non-2xx)" if run["non2xx"] else ""
                cells += [number(run["rps"]) + flag,
                          f"{latency(run['p50'])} / {latency(run['p99'])}", number(run["per_cpu"])]
            if peer:
                theirs = rows.get((PEER, endpoint, conns))
                for system, _ in ours:
                    run = rows.get((system, endpoint, conns))
                    if run and theirs and theirs["rps"] and theirs["per_cpu"]:
                        cells += [f"{run['rps'] / theirs['rps']:.1f} ×",
                                  f"{run['per_cpu'] / theirs['per_cpu']:.1f} ×"]
                    else:
                        cells += ["-", "-"]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def targets_table(rows, heaps, openssl, system):
    """Issue 10's targets for one of our systems, each as measured, its ratio and whether met."""
    def run(endpoint, conns):
        return rows.get((system, endpoint, conns), {})
    token8 = run("post", 8).get("per_cpu", float("nan"))
    goal = 0.8 * openssl
    kc8 = rows.get((PEER, "post", 8), {}).get("per_cpu")
    lines = ["| target | goal | measured | ratio | met |", "|---|---|---|---|---|"]

    def row(name, goal_text, measured, ratio, value, met):
        """value: the figure judged, NaN where the run did not measure it (--quick)."""
        verdict = "-" if isnan(value) else "yes" if met else "no"
        lines.append(f"| {name} | {goal_text} | {measured} | {ratio} | {verdict} |")

    row("token requests per server CPU-s, 8 connections", f"≥ 0.8 × openssl sign/s = {goal:,.0f}",
        number(token8), ratio(token8 / openssl, "openssl"), token8, token8 >= goal)
    if kc8:
        row("the same against Keycloak", "about 5 × Keycloak", number(token8),
            ratio(token8 / kc8, f"Keycloak ({kc8:,.0f})", 1), token8, token8 >= 5 * kc8)
    jwks8 = run("jwks", 8).get("per_cpu", float("nan"))
    row("JWKS requests per server CPU-s, 8 connections", "≥ 30,000", number(jwks8),
        ratio(jwks8 / 30000, "goal"), jwks8, jwks8 >= 30000)
    for conns, limit in ((8, 20), (32, 40)):
        p99s = [run(e, conns)["p99"] for e in ("post", "basic") if run(e, conns)]
        worst = max(p99s) if p99s else float("nan")
        row(f"token p99, {conns} connections (worse of post and basic)", f"< {limit} ms",
            latency(worst), ratio(worst / limit, "limit"), worst, worst < limit)
    h = heaps.get(system)
    if h:
        row("heap through the run (jstat every second)", "< 256 MB",
            f"peak used {h['used']:.0f} MB, committed {h['committed']:.0f} MB",
            ratio(h["used"] / 256, "limit"), h["used"], h["used"] < 256 and h["committed"] <= 256)
    return lines


def chart(folder, rows, systems):
    """Throughput and p99 against connections, token endpoint and JWKS, every system."""
    blocks, plots = [], {}
    for endpoint in ("post", "jwks"):
        for system, name in systems:
            points = sorted((c, r) for (s, e, c), r in rows.items() if s == system and e == endpoint)
            if not points:
                continue
            block = f"${system.replace('-', '_')}_{endpoint}"
            blocks.append(f"{block} << EOD\n" + "\n".join(
                f"{c} {r['rps']:.1f} {r['p99']:.3f}" for c, r in points) + "\nEOD")
            plots.setdefault(endpoint, []).append((block, name))
    if not plots:
        return None
    script = "\n".join(blocks) + """
set terminal pngcairo size 1400,900 font ",11" noenhanced
set output '""" + str(folder / "chart.png") + """'
set multiplot layout 2,2 title "identity beside Keycloak: throughput and p99 latency against connections (one run, same machine)"
set logscale x 2
set xtics (1, 2, 4, 8, 16, 32)
set xlabel "connections"
set grid
set key top left
"""
    titles = {"post": "POST /oauth/token (client_secret_post)", "jwks": "GET JWKS"}
    for endpoint in ("post", "jwks"):
        for column, what in ((2, "requests per second"), (3, "p99 latency (ms)")):
            series = plots.get(endpoint, [])
            script += f'set title "{titles[endpoint]}: {what}"\nset ylabel "{what}"\n'
            script += ("set logscale y\nset yrange [*:*]\n" if column == 3
                       else "unset logscale y\nset yrange [0:*]\n")
            script += "plot " + ", ".join(
                f"{block} using 1:{column} with linespoints lw 2 pt 7 title '{name}'"
                for block, name in series) + "\n"
    script += "unset multiplot\n"
    (folder / "chart.gp").write_text(script)
    subprocess.run(["gnuplot", str(folder / "chart.gp")], check=True)
    return folder / "chart.png"


def wrk_run(path):
    """Requests, p50, p99, non-2xx, socket errors and the stranger-flood.lua status counts of one
    wrk --latency output."""
    text = path.read_text() if path.exists() else ""
    found = re.search(r"(\d+) requests in", text)
    def pct(p):
        match = re.search(r"^\s+" + p + r"%\s+(\S+)", text, re.M)
        return millis(match.group(1)) if match else float("nan")
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = re.search(r"Socket errors: (.*)", text)
    return {"requests": int(found.group(1)) if found else 0, "p50": pct("50"), "p99": pct("99"),
            "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "errors": errors.group(1).strip() if errors else "none",
            "statuses": {int(k): int(v) for k, v in re.findall(r"^status (\d+): (\d+)", text, re.M)}}


def database_runs(folder):
    """[(system, label, figures)] from database-cpu.txt: each run's wrk figures with the launcher's
    and the database server's CPU (cores over the run)."""
    listing = folder / "database-cpu.txt"
    out = []
    if not listing.exists():
        return out
    for line in listing.read_text().splitlines():
        system, label, seconds, jvm, db, hz = line.split()
        seconds, hz = float(seconds), float(hz)
        run = wrk_run(folder / "raw" / f"{system}-{label}.txt")
        run.update(seconds=seconds, jvm=float(jvm) / hz, db=float(db) / hz)
        out.append((system, label, run))
    return out


def database_table(runs):
    names = dict(SYSTEMS)
    lines = ["| system | tokens/s | tokens per JVM CPU-s | database server cores | database CPU-ms per 1,000 tokens "
             "| tokens per (JVM + database) CPU-s | p50 / p99 | non-2xx |", "|---|---|---|---|---|---|---|---|"]
    for system, label, r in runs:
        if label != "dbcpu":
            continue
        n, db = r["requests"], r["db"]
        in_jvm = system == "identity-h2"
        lines.append(
            f"| {names.get(system, system)} | {number(n / r['seconds'])} "
            f"| {number(n / r['jvm'] if r['jvm'] else float('nan'))} "
            f"| {'(in the JVM)' if in_jvm else number(db / r['seconds'], 2)} "
            f"| {'-' if in_jvm else number(1e6 * db / n if n else float('nan'), 0)} "
            f"| {number(n / (r['jvm'] + db) if r['jvm'] + db else float('nan'))} "
            f"| {latency(r['p50'])} / {latency(r['p99'])} | {r['non2xx']} |")
    return lines


def flood_table(folder, runs):
    names = {"identity-pg-flood": "PostgreSQL", "identity-mariadb-flood": "MariaDB"}
    lines = ["| server | addresses | refusals/s | 401 | 429 | other | p50 / p99 | JVM cores "
             "| database server cores | refusals per (JVM + database) CPU-s | bucket rows after |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for system, label, r in runs:
        if not label.startswith("flood-"):
            continue
        statuses = r["statuses"]
        refused = statuses.get(401, 0) + statuses.get(429, 0)
        other = sum(v for k, v in statuses.items() if k not in (401, 429))
        buckets = folder / f"{system}-buckets.txt"
        rows = buckets.read_text().strip() if buckets.exists() else "-"
        cpu = r["jvm"] + r["db"]
        lines.append(
            f"| {names.get(system, system)} | {label[len('flood-'):]} | {number(refused / r['seconds'])} "
            f"| {statuses.get(401, 0):,} | {statuses.get(429, 0):,} | {other:,} "
            f"| {latency(r['p50'])} / {latency(r['p99'])} | {number(r['jvm'] / r['seconds'], 2)} "
            f"| {number(r['db'] / r['seconds'], 2)} | {number(refused / cpu if cpu else float('nan'))} "
            f"| {rows or '-'} |")
    return lines


def main():
    folder = pathlib.Path(sys.argv[1])
    rows = runs(folder)
    present = {s for (s, _, _) in rows}
    systems = [s for s in SYSTEMS if s[0] in present]
    openssl = openssl_sign_rate(folder)
    jca = jca_sign_rates(folder)
    heaps = {s: heap(folder, s) for s, _ in systems}
    out = [f"# Benchmark, {folder.name}", ""]
    out += [f"- {l}" for l in (folder / "machine.txt").read_text().splitlines()]
    out += ["", "## Ceiling: RS256 signatures per second on one core", "",
            "| signer | signatures per second |", "|---|---|",
            f"| `openssl speed rsa2048` | {number(openssl)} |"]
    out += [f"| JCA {name}{' (the service signs with it)' if i == 0 else ''} | {number(rate)} |"
            for i, (name, rate) in enumerate(jca.items())]
    out += ["", "## Side by side", ""] + comparison_table(rows, systems)
    for system, name in systems:
        if system != PEER:
            out += ["", f"## Targets (issue 10), {name}", ""]
            out += targets_table(rows, heaps, openssl, system)
    db_runs = database_runs(folder)
    if any(label == "dbcpu" for _, label, _ in db_runs):
        out += ["", "## The database servers' own CPU (POST /oauth/token, client_secret_post, 8 connections)",
                ""] + database_table(db_runs)
    if any(label.startswith("flood-") for _, label, _ in db_runs):
        out += ["", "## Stranger flood, rate-limit buckets in the database (8 connections)", ""]
        out += flood_table(folder, db_runs)
    out += ["", "## Heap", "", "| system | peak used | peak committed | live after full GC | GC time |",
            "|---|---|---|---|---|"]
    for system, name in systems:
        h = heaps.get(system)
        if h:
            live = f"{h['after_gc']:.0f} MB" if h["after_gc"] else "-"
            out.append(f"| {name} | {h['used']:.0f} MB | {h['committed']:.0f} MB | {live} "
                       f"| {h['gc_seconds']:.1f} s |")
    noisy = [k for k, r in rows.items() if r["other_cores"] > 0.1]
    if noisy:
        out += ["", f"Other processes took more than 0.1 core during {len(noisy)} run(s): "
                + ", ".join(f"{s}-{e} c={c}" for s, e, c in sorted(noisy))]
    token = folder / "identity-h2-token.json"
    if token.exists():
        size = len(json.loads(token.read_text())["access_token"])
        out += ["", f"An access token of the bench client is {size} characters."]
    png = chart(folder, rows, systems)
    if png:
        out += ["", f"![throughput and p99 against connections]({png.name})"]
    text = "\n".join(out) + "\n"
    (folder / "table.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
