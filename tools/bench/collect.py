# SPDX-License-Identifier: GPL-2.0
"""Turn what tools/bench/guest-points.sh left in the guest's /results/bench/
into the run's JSON document: every fio figure of every repetition (the raw
fio JSON included), medians and spreads, counter deltas, memory snapshots,
and the configuration."""

import gzip
import json
import os
import statistics

import gdbsample

PERCENTILES = ("50", "90", "99", "99.9")
HCTX_COUNTERS = ("busy", "dispatched", "direct", "queued", "runs")


def _read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def _fio_json(path):
    """fio's JSON output; fio may put warnings before the document."""
    text = _read(path)
    if not text or "{" not in text:
        return None
    try:
        return json.loads(text[text.index("{"):])
    except ValueError:
        return None


def _proc_stat_cpu(before, after):
    """The guest's CPU time between two 'cpu ...' lines of /proc/stat, in %
    of all CPUs' time: busy (not idle or iowait) and its user, system
    (kernel threads: a target, soft-RoCE's work, block and SCSI submission)
    and softirq (completions, rxe's packets) parts; {} if unreadable."""
    try:
        b = [int(x) for x in before.split()[1:]]
        a = [int(x) for x in after.split()[1:]]
    except (AttributeError, ValueError):
        return {}
    d = [y - x for x, y in zip(b, a)]
    total = sum(d[:8])  # user..steal; guest time is already in user
    if total <= 0 or len(d) < 7:
        return {}

    def pct(x):
        return round(100.0 * x / total, 1)

    return {"guest_busy_pct": pct(total - d[3] - d[4]), "guest_user_pct": pct(d[0] + d[1]),
            "guest_sys_pct": pct(d[2]), "guest_softirq_pct": pct(d[5] + d[6])}


def _percentiles(lat):
    pct = (lat or {}).get("percentile") or {}
    out = {}
    for want in PERCENTILES:
        for k, v in pct.items():
            if abs(float(k) - float(want)) < 1e-6:
                out["p" + want] = round(v / 1000.0, 2)
    return out


def rep_figures(fio, jobs_total, vcpus):
    """The figures of one fio run (one group: group_reporting)."""
    job = fio["jobs"][0]
    r, w = job.get("read", {}), job.get("write", {})
    usr, sys_ = job.get("usr_cpu", 0.0), job.get("sys_cpu", 0.0)
    fig = {
        "iops": round(r.get("iops", 0.0) + w.get("iops", 0.0), 1),
        "read_iops": round(r.get("iops", 0.0), 1),
        "write_iops": round(w.get("iops", 0.0), 1),
        "read_bw_mib": round(r.get("bw", 0) / 1024.0, 2),
        "write_bw_mib": round(w.get("bw", 0) / 1024.0, 2),
        "usr_cpu": usr,
        "sys_cpu": sys_,
        # fio's usr/sys_cpu of a group are per job on average: times jobs is
        # the CPU fio used, over all vCPUs as the seeds report it.
        "cpu_pct": round((usr + sys_) * jobs_total / vcpus, 1),
        "errors": job.get("error", 0),
    }
    for name, d in (("read", r), ("write", w)):
        if d.get("total_ios"):
            lat = d.get("lat_ns") or {}
            if not lat.get("percentile"):
                lat = dict(d.get("clat_ns") or {}, mean=lat.get("mean"))
            fig["%s_lat_us" % name] = dict(_percentiles(lat),
                                           mean=round((lat.get("mean") or 0) / 1000.0, 2))
    return fig


def summarize(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    med = statistics.median(values)
    lo, hi = min(values), max(values)
    return {"median": round(med, 2), "min": lo, "max": hi, "n": len(values),
            "spread_pct": round(100.0 * (hi - lo) / med, 1) if med else 0.0}


def summary_of(reps):
    s = {}
    for k in ("iops", "read_iops", "write_iops", "read_bw_mib", "write_bw_mib",
              "cpu_pct", "guest_busy_pct", "guest_user_pct", "guest_sys_pct",
              "guest_softirq_pct"):
        s[k] = summarize([r.get(k) for r in reps])
    for d in ("read_lat_us", "write_lat_us"):
        if any(d in r for r in reps):
            s[d] = {k: summarize([r.get(d, {}).get(k) for r in reps])
                    for k in ["p" + p for p in PERCENTILES] + ["mean"]}
    return s


def parse_counters(text):
    """Totals over disks and hardware queues of smq's counters."""
    t = {}
    if not text:
        return t

    def add(k, v):
        t[k] = t.get(k, 0) + v

    for line in text.splitlines():
        f = line.split()
        if len(f) < 3:
            continue
        if f[1] == "lock_stats":
            kv = dict(zip(f[2::2], f[3::2]))
            for k in ("acquired", "busy", "merges", "batches", "batched"):
                if k in kv:
                    add("lock_" + k, int(kv[k]))
        elif f[1].startswith("mq/"):
            add("hctx_" + f[1].rsplit("/", 1)[1], int(f[2]))
        elif f[1] == "stat":
            add("disk_read_ios", int(f[2]))
            add("disk_read_merges", int(f[3]))
            add("disk_write_ios", int(f[6]))
            add("disk_write_merges", int(f[7]))
        elif f[0] == "sys" and f[1] in ("intr", "softirq"):  # /proc/stat totals
            add("sys_" + f[1], int(f[2]))
        elif f[1] == "io_poll":  # the disk takes polled I/O (queue/io_poll)
            add("io_poll_disks", int(f[2]))
        elif f[0] == "scsi_debug" and f[1] == "mq_polls":  # completions its mq_poll reaped
            add("sdebug_mq_polls", int(f[2]))
        elif f[1] == "reply_queue" and len(f) >= 6:
            add("rq_queued", int(f[3]))
            add("rq_completed", int(f[4]))
            add("rq_ipis", int(f[5]))
            if len(f) >= 9:  # queue queued completed ipis polls rearms cpus
                add("rq_polls", int(f[6]))
                add("rq_rearms", int(f[7]))
        elif f[0] == "rdma" and f[2].isdigit():  # soft-RoCE port counters
            add("rdma_" + f[1], int(f[2]))
        elif f[1] == "iser_session":
            _add_iser_session(add, f[2:])
    return t


def _add_iser_session(add, f):
    """One line of smq_iser's hostN/iser_sessions: commands sent (CmdSN)
    by session index, and the busy W/R/P counts summed."""
    kv = dict(zip(f[2::2], f[3::2]))  # after "INDEX STATE": key value pairs
    if kv.get("cmdsn", "").isdigit():
        add("iser_s%s_cmdsn" % f[0], int(kv["cmdsn"]))
    busy = kv.get("busy", "").split("/")
    for name, v in zip(("window", "reg", "post"), busy):
        if v.isdigit():
            add("iser_busy_" + name, int(v))
    if kv.get("reconnects", "").isdigit():
        add("iser_reconnects", int(kv["reconnects"]))


def parse_meminfo_slab(text):
    mem, slab, part = {}, {}, None
    for line in (text or "").splitlines():
        if line.startswith("## "):
            part = line[3:].strip()
            continue
        f = line.split()
        if part == "meminfo" and len(f) >= 2:
            mem[f[0].rstrip(":")] = int(f[1])
        elif part == "slabinfo" and f and not line.startswith(("slabinfo", "#")):
            # name active num objsize objperslab pagesperslab : tunables ...
            #   : slabdata active_slabs num_slabs sharedavail
            try:
                i = f.index("slabdata")
                slab[f[0]] = int(f[i + 2]) * int(f[5]) * 4096
            except (ValueError, IndexError):
                pass
    return mem, slab


MEM_KEYS = ("MemFree", "MemAvailable", "Slab", "SReclaimable", "SUnreclaim",
            "Percpu", "VmallocUsed", "KernelStack", "PageTables")


def mem_delta(before, after):
    mb, sb = parse_meminfo_slab(before)
    ma, sa = parse_meminfo_slab(after)
    if not mb or not ma:
        return None
    d = {"meminfo_kib": {k: ma[k] - mb[k] for k in MEM_KEYS if k in ma and k in mb}}
    caches = {k: sa.get(k, 0) - sb.get(k, 0) for k in set(sa) | set(sb)}
    d["slabinfo_kib"] = round(sum(caches.values()) / 1024.0, 1)
    top = sorted(caches.items(), key=lambda kv: -abs(kv[1]))[:10]
    d["slab_caches_kib"] = {k: round(v / 1024.0, 1) for k, v in top if v}
    return d


def _kv_lines(text, nfields):
    """'a b rest...' lines into nested dicts {a: {b: rest}}."""
    out = {}
    for line in (text or "").splitlines():
        f = line.split(None, nfields)
        if len(f) == nfields + 1:
            out.setdefault(f[0], {})[f[1]] = f[2]
        elif len(f) == nfields:
            out.setdefault(f[0], {})[f[1]] = ""
    return out


def read_timeline(d):
    """A "recovery" point's timeline (guest-points.sh run_recovery): per fio
    job its disk, H:C:T:L and [ms, IOPS] samples (fio's 100 ms IOPS logs),
    when the faults were injected, and LUN 0's and its host's state samples
    [ms, lun-state, host-state]."""
    jobs, inject = [], None
    for line in (_read(os.path.join(d, "recovery.events")) or "").splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "job":
            samples = []
            for row in (_read(os.path.join(d, "lun_iops.%s.log" % f[1])) or "").splitlines():
                v = [x.strip() for x in row.split(",")]
                if len(v) >= 2 and v[0].isdigit() and v[1].isdigit():
                    samples.append([int(v[0]), int(v[1])])
            jobs.append({"job": int(f[1]), "disk": f[2], "hctl": f[3], "samples": samples})
        elif len(f) == 2 and f[0] == "inject":
            inject = int(f[1])
    states = []
    for line in (_read(os.path.join(d, "recovery.states")) or "").splitlines():
        f = line.split()
        if len(f) == 3 and f[0].isdigit():
            states.append([int(f[0]), f[1], f[2]])
    return {"jobs": jobs, "inject_ms": inject, "states": states,
            "rules": (_read(os.path.join(d, "recovery.rules")) or "").splitlines()}


def fio_engine(cmd, p, config):
    """{"engine": E, "hipri": bool} of a point: the last --ioengine= of the
    command the guest ran (fio takes the last one given), else the point's
    own or the run's; hipri: polled completion (--hipri)."""
    engine = p.fio.get("ioengine") or config.get("engine", "libaio")
    for a in cmd.split():
        if a.startswith("--ioengine="):
            engine = a.split("=", 1)[1]
    return {"engine": engine, "hipri": "--hipri" in cmd.split() or bool(p.fio.get("hipri"))}


def collect(plan, bench_dirs, config, boots=None):
    """The run's JSON document from the guests' results directories:
    BENCH_DIRS maps each setup id to the directory of the boot that ran it."""
    vcpus = config["vcpus"]
    info = {}
    first = next(iter(bench_dirs.values()), "")
    for line in (_read(os.path.join(first, "guest.info")) or "").splitlines():
        k, _, v = line.partition(" ")
        info[k] = v
    config = dict(config, guest=info)
    setups, sstatus = [], {}
    for s in plan.setups:
        d = os.path.join(bench_dirs.get(s.sid, ""), "setups", s.sid)
        st = (_read(os.path.join(d, "status")) or "missing").strip()
        if s.sid not in bench_dirs:
            st = "not-run"  # no boot got to it
        sstatus[s.sid] = st
        disks = {}
        for line in (_read(os.path.join(d, "disks")) or "").splitlines():
            f = line.split(None, 3)
            if len(f) >= 3:
                disks.setdefault(f[1], {})[f[2]] = f[3] if len(f) > 3 else ""
        js = s.to_json()
        if st == "skipped":  # the target's reason (its last line)
            js["why"] = (_read(os.path.join(d, "why")) or "").strip() or None
        js.update(status=st, modules=_kv_lines(_read(os.path.join(d, "params")), 2),
                  disk_info=disks,
                  up_log=(_read(os.path.join(d, "up.log")) or "").splitlines()[-40:],
                  dmesg_bad=(_read(os.path.join(d, "dmesg-bad")) or "").splitlines())
        if s.extras.get("mem"):
            js["mem"] = mem_delta(_read(os.path.join(d, "mem.before")),
                                  _read(os.path.join(d, "mem.after")))
        setups.append(js)
    points = []
    for p in plan.points:
        d = os.path.join(bench_dirs.get(p.setup.sid, ""), "points", str(p.pid))
        js = p.to_json()
        st = (_read(os.path.join(d, "status")) or "").strip()
        if not st:
            st = sstatus.get(p.setup.sid, "missing")
            st = "missing" if st == "ok" else st
        jobs_total = int((_read(os.path.join(d, "jobs")) or "0").strip() or 0) \
            or p.jobs * p.setup.disks
        reps = []
        for i in range(1, config["reps"] + 1):
            fio = _fio_json(os.path.join(d, "rep%d.json" % i))
            if fio is None:
                continue
            fig = rep_figures(fio, jobs_total, vcpus)
            fig["guest_busy_pct"] = None
            fig.update(_proc_stat_cpu(_read(os.path.join(d, "stat.%d.before" % i)),
                                      _read(os.path.join(d, "stat.%d.after" % i))))
            fig["fio"] = fio
            reps.append(fig)
        if st == "ok" and len(reps) != config["reps"]:
            st = "incomplete"
        cb = parse_counters(_read(os.path.join(d, "counters.before")))
        ca = parse_counters(_read(os.path.join(d, "counters.after")))
        for fig in reps:
            fig["round"] = p.round
        js.update(status=st, jobs_total=jobs_total,
                  fio_cmd=(_read(os.path.join(d, "fio.cmd")) or "").strip(),
                  reps=reps, summary=summary_of(reps) if reps else None,
                  counters={"before": cb, "after": ca,
                            "delta": {k: ca[k] - cb.get(k, 0) for k in ca}})
        js.update(fio_engine(js["fio_cmd"], p, config))
        if p.kind.startswith("recovery;"):
            js["timeline"] = read_timeline(d)
        points.append((p, js))
    return {"format": "smq-bench-1", "config": config, "notes": plan.notes,
            "boots": boots or [], "setups": setups, "points": merge_rounds(points)}


def merge_rounds(points):
    """One entry per measured point: the copies Plan.interleave made of a
    point (one per round) folded into it: every run of every round in
    reps[] (each with its round), the summary over all of them, the counter
    deltas summed, and the worst status."""
    out, by_base = [], {}
    for p, js in points:
        if p.base not in by_base:
            js["rounds"] = [{"round": p.round, "setup": js["setup"], "status": js["status"]}]
            by_base[p.base] = js
            out.append(js)
            continue
        m = by_base[p.base]
        m["rounds"].append({"round": p.round, "setup": js["setup"], "status": js["status"]})
        m["reps"].extend(js["reps"])
        if m["status"] == "ok" and js["status"] != "ok":
            m["status"] = js["status"]
        delta = m["counters"]["delta"]
        for k, v in js["counters"]["delta"].items():
            delta[k] = delta.get(k, 0) + v
    for m in out:
        if len(m["rounds"]) > 1:
            m["summary"] = summary_of(m["reps"]) if m["reps"] else None
    return out


def add_profiles(doc, plan, bench_dirs, samples):
    """--profile: each point's "profile" (gdbsample.profile) from the pcs
    sampled during its fio runs (SAMPLES: plan point id -> pcs), symbolized
    with the kernel's symbols and those of the modules as its setup loaded
    them (so the rounds of a point, with modules at new addresses each
    time, are symbolized apart and then summed)."""
    core, syms, names = {}, {}, {}
    for p in plan.points:
        d = bench_dirs.get(p.setup.sid)
        if d is None:
            continue
        if d not in core:  # the kernel's symbols: once per boot
            try:
                with gzip.open(os.path.join(d, "kallsyms.gz"), "rt") as f:
                    core[d] = gdbsample.parse_kallsyms(f.read())
            except OSError:
                core[d] = []
        if p.setup.sid not in syms:  # the modules': once per setup
            syms[p.setup.sid] = gdbsample.Symbols(core[d], gdbsample.parse_kallsyms(
                _read(os.path.join(d, "setups", p.setup.sid, "kallsyms"))))
        names.setdefault(p.base, []).extend(
            syms[p.setup.sid].lookup(pc) for pc in samples.get(p.pid, []))
    for js in doc["points"]:
        js["profile"] = gdbsample.profile(names.get(js["id"], []))
