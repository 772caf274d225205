# SPDX-License-Identifier: GPL-2.0
"""Reading a run's JSON document back: looking points up, formatting the
seed-style tables, comparing two runs, and checking a document is complete."""

import math


class Results:
    """A run's JSON document, with points looked up by mode and key."""

    def __init__(self, doc):
        self.doc = doc
        self.config = doc["config"]
        self.points = doc["points"]
        self.setups = {s["id"]: s for s in doc["setups"]}
        self._index = {}
        for p in self.points:
            self._index[(p["mode"], tuple(sorted(p["key"].items())))] = p

    def get(self, mode, **key):
        return self._index.get((mode, tuple(sorted(key.items()))))

    def value(self, p, what="iops"):
        """Median of WHAT (a path: "read_lat_us/p99") for an ok point, else None."""
        if not p or p["status"] != "ok" or not p.get("summary"):
            return None
        s = p["summary"]
        for part in what.split("/"):
            s = (s or {}).get(part)
        return s["median"] if s else None


def kiops(v):
    return "%.1f" % (v / 1000.0)


def pct(v):
    return ("%.1f%%" if v < 10 else "%.0f%%") % v


def cell(r, p):
    """KIOPS(CPU%) as the seeds print it; the status if the point failed."""
    if p is None:
        return "n/a"
    iops = r.value(p)
    if iops is None:
        return p["status"]
    cpu = r.value(p, "cpu_pct")
    return "%s(%s)" % (kiops(iops), pct(cpu) if cpu is not None else "?")


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return "%.2f" % (a / b)


def lat(r, p, q, d="read_lat_us"):
    v = r.value(p, "%s/%s" % (d, q))
    return "-" if v is None else ("%.0f" % v if v >= 100 else "%.1f" % v)


def grid(title, corner, rows, cols, fn, row_head="", col_head=""):
    """A seed-style table: TITLE, then a header of COLS, one line per row."""
    cells = [[str(fn(r, c)) for c in cols] for r in rows]
    w0 = max([len(corner), len(row_head)] + [len(str(r)) for r in rows])
    w = max([len(str(c)) for c in cols] + [len(x) for line in cells for x in line] + [5])
    out = [title]
    if col_head:
        out.append(" " * (w0 + 2) + col_head)
    out.append(corner.ljust(w0) + "  " + "  ".join(str(c).rjust(w) for c in cols))
    if row_head:
        out.append(row_head)
    for r, line in zip(rows, cells):
        out.append(str(r).ljust(w0) + "  " + "  ".join(x.rjust(w) for x in line))
    return "\n".join(out) + "\n"


def columns(title, head, rows):
    """A plain table: HEAD names the columns, ROWS are lists of strings."""
    allrows = [head] + rows
    w = [max(len(str(r[i])) for r in allrows) for i in range(len(head))]
    out = [title] if title else []
    for j, r in enumerate(allrows):
        out.append("  ".join(str(x).ljust(w[i]) if i == 0 else str(x).rjust(w[i])
                             for i, x in enumerate(r)).rstrip())
        if j == 0:
            out.append("  ".join("-" * x for x in w))
    return "\n".join(out) + "\n"


def spread_line(r):
    """One line on the repetitions' spread over all ok points."""
    sp = []
    for p in r.points:
        s = (p.get("summary") or {}).get("iops")
        if p["status"] == "ok" and s:
            sp.append((s["spread_pct"], p["label"]))
    reps = runs(r.config)
    if not sp:
        return "no point finished\n"
    if reps < 2:
        return "1 repetition per point: no spread measured (use -r 3)\n"
    sp.sort()
    med = sp[len(sp) // 2][0]
    rounds = r.config.get("rounds", 1)
    how = (" (%d rounds over all setups, interleaved)" % rounds) if rounds > 1 else ""
    return ("IOPS: median of %d runs of %d s per point%s; spread (max-min)/median: "
            "median %.1f%%, worst %.1f%% (%s)\n" % (reps, r.config["seconds"], how, med,
                                                   sp[-1][0], sp[-1][1]))


def runs(config):
    """fio runs per point: reps per round times rounds."""
    return config["reps"] * config.get("rounds", 1)


def _s(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def header(r, title):
    c = r.config
    g = c.get("guest", {})
    lines = [
        "%s%s" % (title, " (quick)" if c.get("quick") else ""),
        "kernel %s, %s vCPUs, %s MiB (QEMU TCG), %s, tree %s" % (
            g.get("release", c.get("release")), c["vcpus"], c["mem_mib"],
            c["date"], c.get("tree", "?")),
        "host: %s CPUs, load average at start %s, other QEMU guests at start: %s" % (
            c["host"]["cpus"], c["host"]["loadavg"], c["host"]["other_guests"]),
    ]
    skipped = {}
    for s in r.doc.get("setups", []):
        if s.get("status") == "skipped":  # the target cannot run in this guest
            skipped.setdefault(s.get("why") or "target unavailable", []).append(s["id"])
        elif s.get("status") not in ("ok", "not-run"):
            first = next((p["label"] for p in r.points if p["setup"] == s["id"]), s["spec"])
            why = next((l.split("] ", 1)[-1] for l in s.get("dmesg_bad", [])), "")
            lines.append("setup %s (%s...): %s%s" % (s["id"], first, s["status"],
                                                    ": the kernel logged: " + why if why else ""))
    for why, sids in skipped.items():
        stacks = sorted({r.setups[sid]["stack"] for sid in sids if sid in r.setups})
        lines.append("skipped (%s): %s (%s)" % (why, ", ".join(stacks), _s(len(sids), "setup")))
    boots = r.doc.get("boots", [])
    for i, b in enumerate(boots[1:], 2):
        why = boots[i - 2].get("tcg")
        lines.append("boot %d: %d setups after %s ran in a fresh guest "
                     "(their peers were measured in another boot)"
                     % (i, len(b["setups"]), "the emulated CPU went wrong (TCG: %s)" % why
                        if why else "the kernel broke"))
    bad = [p for p in r.points if p["status"] not in ("ok", "skipped")]
    if bad:
        lines.append("%d of %d points did not finish: %s" % (
            len(bad), len(r.points),
            ", ".join("%s (%s)" % (p["label"], p["status"]) for p in bad[:6])
            + (" ..." if len(bad) > 6 else "")))
    return "\n".join(lines) + "\n"


# ---- compare --------------------------------------------------------------

def compare(a, b):
    """Per-point ratios B/A of median IOPS; a change counts when the two runs'
    [min, max] ranges do not overlap (beyond the measured spread)."""
    ra, rb = Results(a), Results(b)
    out = []
    ca, cb = ra.config, rb.config
    for name, c in (("A", ca), ("B", cb)):
        out.append("%s: %s%s, %s, %s vCPUs, %d x %d s, %s" % (
            name, c["experiment"], " (quick)" if c.get("quick") else "", c.get("release"),
            c["vcpus"], runs(c), c["seconds"], c["date"]))
    for k in ("experiment", "release", "vcpus", "mem_mib", "seconds", "engine"):
        dflt = "libaio" if k == "engine" else None  # runs before --engine: libaio
        if ca.get(k, dflt) != cb.get(k, dflt):
            out.append("note: %s differs (%s vs %s)" % (k, ca.get(k, dflt), cb.get(k, dflt)))
    bl = {p["label"]: p for p in rb.points}
    rows, logs, up, down, nospread = [], [], 0, 0, 0
    by_stack = {}
    for pa in ra.points:
        pb = bl.get(pa["label"])
        if pb is None:
            continue
        va, vb = ra.value(pa), rb.value(pb)
        if va is None or vb is None:
            rows.append([pa["label"], "-" if va is None else kiops(va), "",
                         "-" if vb is None else kiops(vb), "", "-",
                         "%s/%s" % (pa["status"], pb["status"])])
            continue
        sa, sb = pa["summary"]["iops"], pb["summary"]["iops"]
        flag = ""
        if sa["n"] < 2 or sb["n"] < 2:
            flag = "?"
            nospread += 1
        elif sb["min"] > sa["max"]:
            flag, up = "UP", up + 1
        elif sb["max"] < sa["min"]:
            flag, down = "DOWN", down + 1
        logs.append(math.log(vb / va))
        stack = ra.setups.get(pa["setup"], {}).get("stack", "?")
        by_stack.setdefault(stack, []).append(math.log(vb / va))
        rows.append([pa["label"], kiops(va), "±%.0f%%" % (sa["spread_pct"] / 2),
                     kiops(vb), "±%.0f%%" % (sb["spread_pct"] / 2),
                     "%.2f" % (vb / va), flag])
    out.append("")
    out.append(columns("", ["point", "A KIOPS", "spread", "B KIOPS", "spread",
                             "B/A", "change"], rows).rstrip())
    out.append("")
    if logs:
        out.append("%d points compared: geometric mean B/A %.2f; beyond the spread "
                   "(min..max ranges apart): %d up, %d down" % (
                       len(logs), math.exp(sum(logs) / len(logs)), up, down))
    if len(by_stack) > 1:
        gm = {k: math.exp(sum(v) / len(v)) for k, v in by_stack.items()}
        out.append("geometric mean B/A per stack: " + ", ".join(
            "%s %.2f (%d)" % (k, gm[k], len(by_stack[k])) for k in sorted(gm)))
        peers = [x for k in ("scsi_debug", "null_blk") for x in by_stack.get(k, [])]
        if peers:
            drift = math.exp(sum(peers) / len(peers))
            out.append("the kernel's peers moved by %.2f between the runs (the machine, "
                       "not smq); smq relative to them: %s" % (drift, ", ".join(
                           "%s %.2f" % (k, gm[k] / drift) for k in sorted(gm)
                           if k.startswith("smq"))))
    if nospread:
        out.append("?: %d point(s) with a single repetition: no spread to judge by"
                   % nospread)
    only = set(bl) ^ {p["label"] for p in ra.points}
    if only:
        out.append("%d point(s) in only one of the runs" % len(only))
    return "\n".join(out) + "\n"


# ---- validate -------------------------------------------------------------

def validate(doc, table_text=None, plot_path=None):
    """Checks that a run's document is complete: a list of (ok, what), one
    per part (configuration, setups, points, table, plot)."""
    import os
    checks = []
    c = doc.get("config", {})
    missing = [k for k in ("experiment", "release", "vcpus", "mem_mib", "seconds",
                           "reps", "date", "guest", "fio_common") if k not in c]
    if c.get("guest", {}).get("release") != c.get("release"):
        missing.append("guest release %s" % c.get("release"))
    checks.append((not missing, "configuration complete%s" % (
        ": missing " + ", ".join(missing) if missing else
        " (%s, %s vCPUs, %s x %s s)" % (c["release"], c["vcpus"], runs(c), c["seconds"]))))
    bad = ["%s %s (%s)" % (s["id"], s["spec"], s.get("status")) for s in doc.get("setups", [])
           if s.get("status") != "ok" or not s.get("modules")]
    checks.append((doc.get("setups") and not bad, "%d setups up and down, module "
                   "parameters recorded%s" % (len(doc.get("setups", [])),
                                              ": not " + "; ".join(bad) if bad else "")))
    bad = []
    for p in doc.get("points", []):
        reps = p.get("reps") or []
        ok = (p.get("status") == "ok" and len(reps) == runs(c)
              and all(r["iops"] > 0 and r["cpu_pct"] > 0 and r.get("fio") and
                      r["fio"]["jobs"][0].get("job options") is not None and
                      r.get("guest_busy_pct") is not None for r in reps)
              and {r.get("round", 1) for r in reps} == set(range(1, c.get("rounds", 1) + 1))
              and p.get("fio_cmd", "").startswith("fio ")
              and (p.get("summary") or {}).get("iops"))
        if not ok:
            bad.append("%s (%s, %d runs)" % (p["label"], p.get("status"), len(reps)))
    checks.append((doc.get("points") and not bad,
                   "%d points with %s runs each (%s round(s)): IOPS, CPU, raw fio JSON%s" % (
                       len(doc.get("points", [])), runs(c), c.get("rounds", 1),
                       ": incomplete " + "; ".join(bad) if bad else "")))
    if c.get("profile"):
        bad = []
        stacks = {st["id"]: st["stack"] for st in doc.get("setups", [])}
        for p in doc.get("points", []):
            prof = p.get("profile") or {}
            mods = prof.get("modules", {})
            want = ["kernel"]
            if stacks.get(p.get("setup"), "").startswith("smq-"):
                want += ["smq_blk", "smq_scsi", "smq_sas"]
            if prof.get("samples", 0) < 10 or any(m not in mods for m in want):
                bad.append("%s (%d samples in %s)" % (p["label"], prof.get("samples", 0),
                                                      ", ".join(mods) or "nothing"))
        checks.append((doc.get("points") and not bad,
                       "profile: every point sampled, symbolized to the kernel and, on "
                       "smq's points, to smq's three modules%s" % (
                           ": not " + "; ".join(bad) if bad else "")))
    # fio's engine: recorded per point and the one fio reports having run
    # (its JSON's global options; a point's own --ioengine comes last)
    bad = []
    for p in doc.get("points", []):
        ran = {(r.get("fio") or {}).get("global options", {}).get("ioengine")
               for r in p.get("reps") or []}
        if p.get("status") == "ok" and (not p.get("engine") or ran != {p["engine"]}):
            bad.append("%s (%s, fio ran %s)" % (p["label"], p.get("engine"),
                                               ", ".join(sorted(map(str, ran)))))
        # a polled point ran on disks that take polled I/O
        if p.get("status") == "ok" and p.get("hipri") and not \
                p.get("counters", {}).get("after", {}).get("io_poll_disks"):
            bad.append("%s (--hipri on a disk with queue/io_poll 0)" % p["label"])
    engines = sorted({str(p.get("engine")) for p in doc.get("points", [])})
    checks.append((doc.get("points") and c.get("engine") and not bad,
                   "fio engine recorded (run: %s; points: %s)%s" % (
                       c.get("engine"), ", ".join(engines),
                       ": wrong for " + "; ".join(bad) if bad else "")))
    if table_text is not None:
        checks.append((table_text.strip() and "n/a" not in table_text,
                       "table.txt renders (no n/a cells)"))
    if plot_path is not None:
        checks.append((os.path.isfile(plot_path) and os.path.getsize(plot_path) > 1000,
                       "plot.png written"))
    return checks


# ---- profile ---------------------------------------------------------------

def profiles(doc, top=12):
    """profile.txt of a --profile run: per point, where the vCPUs were
    (share of the samples per module, then the TOP functions)."""
    c = doc["config"]
    out = ["profile: %s, %s, %s vCPUs: every vCPU's pc sampled through QEMU's "
           "gdbstub during the fio runs (TCG: ranks functions, does not time "
           "them; the IOPS of a profiled run are lower)\n" % (
               c["experiment"], c.get("release"), c["vcpus"])]
    for p in doc["points"]:
        prof = p.get("profile") or {}
        out.append("== %s: %s IOPS, %d samples" % (
            p["label"], kiops(p["summary"]["iops"]["median"]) + "k"
            if p.get("summary") else p["status"], prof.get("samples", 0)))
        if not prof.get("samples"):
            out.append("")
            continue
        out.append("   " + ", ".join("%s %.1f%%" % kv for kv in prof["modules"].items()))
        for name, mod, share in prof["functions"][:top]:
            out.append("   %5.1f%%  %-40s %s" % (share, name, mod))
        out.append("")
    return "\n".join(out) + "\n"
