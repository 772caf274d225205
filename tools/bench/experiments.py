# SPDX-License-Identifier: GPL-2.0
"""The experiments: the seed threads (the linux-scsi / linux-block posts smq
was created from; each experiment's `seed` names its post, and its axes and
tables carry what the run needs, so nothing outside this repository is read;
see Documentation/bench.md) regenerated with smq beside the kernel's own
stack.

Each experiment builds a plan (setups and points) from small tables of
axes, renders tables in its seed's format from the run's JSON document, and
describes its plot. smq is reported as a ratio to the kernel's peers measured
in the same boot."""

import statistics

from plan import (Plan, ib_iser, null_blk, nullbio, nvme_rdma, scsi_debug, smq, smq_iser,
                  smq_virtio, virtio_scsi)
from report import cell, columns, grid, kiops, lat, ratio

RANDREAD_1K = {"rw": "randread", "bs": "1k", "iodepth": 128, "norandommap": True}


def _s(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def stat(r, p, what="iops"):
    """The summary dict (median, min, max...) of WHAT for an ok point."""
    if r.value(p, what) is None:
        return None
    s = p["summary"]
    for part in what.split("/"):
        s = s[part]
    return s


def line_series(r, mode, xs, keyfn, what="iops", scale=1e-3, xval=None):
    """[(x, median, min, max)] of WHAT over XS (points keyed by keyfn(x))."""
    pts = []
    for x in xs:
        s = stat(r, r.get(mode, **keyfn(x)), what)
        if s:
            pts.append((xval(x) if xval else x, s["median"] * scale,
                        s["min"] * scale, s["max"] * scale))
    return pts


def bar_values(r, mode, keys, what="iops", scale=1e-3):
    out = []
    for k in keys:
        s = stat(r, r.get(mode, **k), what)
        out.append((s["median"] * scale, s["min"] * scale, s["max"] * scale) if s else None)
    return out


def geometry(r, modes):
    """What the disks of each mode's first measured setup reported: the
    host's can_queue, cmd_per_lun and hardware queues, the disk's
    queue_depth and scheduler (NVMe: the controller's queues and sqsize)."""
    rows = []
    for mode, label in modes:
        p = next((p for p in r.points if p["mode"] == mode and p["status"] == "ok"), None)
        s = r.setups.get(p["setup"]) if p else None
        if not s or not s.get("disk_info"):
            continue
        d = next(iter(s["disk_info"].values()))
        sched = d.get("smq/scheduler") or d.get("queue/scheduler") or "-"
        sched = sched.split("[")[1].split("]")[0] if "[" in sched else sched
        rows.append([label, str(len(s["disk_info"])), d.get("host/can_queue", "-"),
                     d.get("host/cmd_per_lun", "-"), d.get("device/queue_depth", "-"),
                     d.get("smq/nr_hw_queues") or d.get("hw_queues", "-"),
                     d.get("nvme/queue_count", "-"), d.get("nvme/sqsize", "-"), sched])
    if not rows:
        return ""
    return columns("geometry as the guest reported it (first setup of each mode)",
                   ["", "disks", "can_queue", "cmd_per_lun", "queue_depth", "hw queues",
                    "nvme queues", "sqsize", "scheduler"], rows)


# soft-RoCE counters that mean the wire had to repeat or refuse something
RDMA_TROUBLE = ("duplicate_request", "out_of_seq_request", "rcvd_seq_err", "rcvd_rnr_err",
                "send_rnr_err", "completer_retry_err", "retry_exceeded_err",
                "retry_rnr_exceeded_err", "send_err")


def wire(r, rows):
    """Where an RDMA point's time went, for (LABEL, POINT) ROWS: the guest's
    CPU (all vCPUs: busy, user, system, softirq; fio's own share) and what it
    costs per I/O, soft-RoCE's packets and troubles (retries, RNR, sequence
    errors) per I/O, and smq_iser's busy (closed CmdSN window) and the share
    of the commands each session carried. Counters are deltas over every run
    of the point."""
    vcpus = r.config.get("vcpus") or 1
    out = []
    for label, p in rows:
        if p is None or p["status"] != "ok":
            continue
        d = p.get("counters", {}).get("delta", {})
        ios = d.get("disk_read_ios", 0) + d.get("disk_write_ios", 0)

        def per_io(v, scale=1.0, fmt="%.2f"):
            return "-" if v is None or not ios else fmt % (scale * v / ios)

        def v(k):
            return r.value(p, k)

        busy, iops = v("guest_busy_pct"), v("iops")
        us = "-" if not busy or not iops else "%.0f" % (busy / 100.0 * vcpus * 1e6 / iops)
        split = "/".join("-" if v(k) is None else "%.0f" % v(k)
                         for k in ("guest_user_pct", "guest_sys_pct", "guest_softirq_pct"))
        trouble = None
        if "rdma_sent_pkts" in d:
            trouble = sum(d.get("rdma_" + k, 0) for k in RDMA_TROUBLE)
        sess = sorted(k for k in d if k.startswith("iser_s") and k.endswith("_cmdsn"))
        total = sum(d[k] for k in sess)
        share = ":".join("%.0f" % (100.0 * d[k] / total) for k in sess) if total else "-"
        bw = d.get("iser_busy_window")
        out.append([label, cell(r, p), "-" if busy is None else "%.0f" % busy, split,
                    "-" if v("cpu_pct") is None else "%.0f" % v("cpu_pct"), us,
                    per_io(d.get("rdma_sent_pkts")),
                    per_io(trouble, 1000.0, "%.1f"),
                    per_io(bw, 1000.0, "%.1f"), share])
    if not out:
        return ""
    return columns("the wire and the guest's CPUs (%d vCPUs; target, soft-RoCE and "
                   "initiator share them): busy %%, user/system/softirq %%, fio %%, "
                   "guest CPU µs per I/O, RoCE packets per I/O, RoCE retries/RNR/"
                   "sequence errors per 1000 I/O, smq_iser busy W per 1000 I/O, "
                   "commands per session %%" % vcpus,
                   ["", "KIOPS(CPU%)", "busy", "usr/sys/si", "fio", "µs/IO", "pkts/IO",
                    "trouble/1k", "busyW/1k", "sessions"], out)


class Experiment:
    name = ""
    title = ""
    seed = ""
    about = ""
    # Defaults per point: fio runs of `seconds`, `reps` back to back, the
    # whole plan run `rounds` times (Plan.interleave); quick mode:
    seconds, reps, rounds = 5, 1, 3
    quick_seconds, quick_reps, quick_rounds = 2, 3, 1

    def build(self, ctx):
        raise NotImplementedError

    def tables(self, r):
        return ""

    def panels(self, r):
        return []


# ---- seed 000: #LUNs x threads per LUN, legacy vs mq ----------------------

class Seed000Grid(Experiment):
    name = "seed000-grid"
    title = "seed 000: #LUNs x threads per LUN, fio randread 1k iodepth 128"
    seed = "000_38b033bdf2b4e017.txt (scsi-mq V2, Jul 2014)"
    about = ("#LUNs (1,2,4,8,16) x threads per LUN (1,2,4), one host per LUN, "
             "can_queue=113, cmd_per_lun=32, 1 hardware queue per host (the "
             "seed's iSER sessions), randread 1k iodepth 128: smq legacy "
             "(use_blk_mq=N, noop), smq mq (none), scsi_debug, null_blk. "
             "Quick: LUNs 1,2,4 x threads 1,2.")
    quick_seconds, quick_reps = 2, 3
    MODES = [
        ("legacy", "smq legacy (use_blk_mq=N, noop)", "legacy noop",
         lambda n: smq(mq=False, hosts=n, can_queue=113, cmd_per_lun=32, sched="noop")),
        ("mq", "smq mq (use_blk_mq=Y, none)", "mq none",
         lambda n: smq(mq=True, hosts=n, can_queue=113, cmd_per_lun=32, sched="none")),
        ("scsi_debug", "kernel: scsi_debug + sd_mod (blk-mq, none, queue_depth 32)",
         "scsi_debug none",
         lambda n: scsi_debug(hosts=n, can_queue=113, depth=32, sched="none")),
        ("null_blk", "kernel: null_blk (blk-mq, none, hw_queue_depth 113, one device per LUN)",
         "null_blk none", lambda n: null_blk(devices=n, depth=113, sched="none")),
    ]

    # (a, b, title): the IOPS ratio tables a / b
    RATIOS = [("mq", o, "smq mq / %s" % o) for o in ("legacy", "scsi_debug", "null_blk")]

    # The like-for-like point (issue 14), measured first and reported first:
    # one LUN, queues = vCPUs, completion in the submitting context on every
    # stack, the grid's workload at 1 and 2 jobs, with each fio engine
    # (libaio, io_uring; with --engine io_uring only io_uring); the bio
    # driver that ends every bio at once is the ceiling. (mode, label,
    # cfg(vcpus), target ratio smq mq / mode)
    LL = [
        ("ll mq", "smq mq (submit_queues=vCPUs, irqmode=0)",
         lambda c: smq(queues=c, irqmode=0, sched="none"), None),
        ("ll scsi_debug", "scsi_debug (submit_queues=vCPUs, delay=0)",
         lambda c: scsi_debug(queues=c, sched="none"), 1.3),
        ("ll null_blk", "null_blk (submit_queues=vCPUs, irqmode=0)",
         lambda c: null_blk(queues=c, irqmode=0, sched="none"), 1.0),
        ("ll bio", "bio driver (smq_nullbio: bio_endio in submit_bio)",
         lambda c: nullbio(), 0.85),
    ]
    LL_THREADS = [1, 2]
    LL_ENGINES = ["libaio", "io_uring"]

    def axes(self, quick):
        return ([1, 2, 4], [1, 2]) if quick else ([1, 2, 4, 8, 16], [1, 2, 4])

    def ll_engines(self, ctx):
        return self.LL_ENGINES if ctx.engine == "libaio" else [ctx.engine]

    def build_ll(self, plan, ctx):
        for mode, _, cfg, _ in self.LL:
            s = plan.setup(cfg(ctx.vcpus))
            for e in self.ll_engines(ctx):
                for t in self.LL_THREADS:
                    fio = dict(RANDREAD_1K)
                    if e != ctx.engine:
                        fio["ioengine"] = e
                    name = {"mq": "smq mq", "bio": "bio driver"}.get(mode[3:], mode[3:])
                    plan.point(s, mode, {"ll": 1, "threads": t, "engine": e}, t, fio,
                               "like-for-like %s 1 LUN x %s %s" % (name, _s(t, "job"), e))

    def ll_tables(self, r):
        if not any(p["key"].get("ll") for p in r.points):
            return ""
        engines = [e for e in self.LL_ENGINES
                   if any(p["key"].get("engine") == e for p in r.points)]
        cols = ["%s %s" % (_s(t, "job"), e) for e in engines for t in self.LL_THREADS]

        def pt(m, col):
            t, e = int(col.split()[0]), col.split()[-1]
            return r.get(m, ll=1, threads=t, engine=e)

        out = [grid("like for like: 1 LUN, submit queues = vCPUs (%s), completion in the "
                    "submitting context, randread 1k iodepth 128: KIOPS(CPU%%)"
                    % r.config["vcpus"], "", [m for m, _, _, _ in self.LL], cols,
                    lambda m, c: cell(r, pt(m, c)))]
        rows = [m for m, _, _, want in self.LL if want]
        out.append(grid("like for like: smq mq as a ratio (IOPS; target: / scsi_debug "
                        ">= 1.3, / null_blk >= 1.0, / bio driver >= 0.85; '!' below it)",
                        "smq mq /", [m[3:] for m in rows], cols,
                        lambda m, c: self._ll_ratio(r, pt("ll mq", c), pt("ll " + m, c),
                                                    dict((x[3:], w) for x, _, _, w
                                                         in self.LL)[m])))
        out.append("modes: " + "; ".join("%s = %s" % (m, l) for m, l, _, _ in self.LL) + "\n")
        return "\n".join(out)

    @staticmethod
    def _ll_ratio(r, a, b, want):
        x = ratio(r.value(a), r.value(b))
        if x != "-" and want and float(x) < want:
            x += "!"
        return x

    def build(self, ctx):
        plan = Plan()
        self.build_ll(plan, ctx)
        luns, threads = self.axes(ctx.quick)
        for n in luns:  # modes interleaved: drift hits them alike
            for mode, _, label, cfg in self.MODES:
                s = plan.setup(cfg(n))
                for t in threads:
                    plan.point(s, mode, {"luns": n, "threads": t}, t, RANDREAD_1K,
                               "%s %s x %s" % (label, _s(n, "LUN"), _s(t, "job")))
        return plan

    def _grid_axes(self, r):
        luns = sorted({p["key"]["luns"] for p in r.points if "luns" in p["key"]})
        threads = sorted({p["key"]["threads"] for p in r.points if "luns" in p["key"]})
        return luns, threads

    def tables(self, r):
        luns, threads = self._grid_axes(r)
        out = [self.ll_tables(r)] if self.ll_tables(r) else []
        for mode, title, _, _ in self.MODES:
            out.append(grid(title + ": KIOPS(CPU%)", "Threads/LUN", luns, threads,
                            lambda n, t, m=mode: cell(r, r.get(m, luns=n, threads=t)),
                            row_head="#LUNs"))
        for a, b, title in self.RATIOS:
            out.append(grid("%s (IOPS ratio)" % title, "Threads/LUN", luns, threads,
                            lambda n, t, a=a, b=b: ratio(
                                r.value(r.get(a, luns=n, threads=t)),
                                r.value(r.get(b, luns=n, threads=t))),
                            row_head="#LUNs"))
        return "\n".join(out)

    def ll_panel(self, r):
        keys = [(t, e) for e in self.LL_ENGINES for t in self.LL_THREADS
                if any(r.get(m, ll=1, threads=t, engine=e) for m, _, _, _ in self.LL)]
        if not keys:
            return []
        return [{"kind": "bars", "title": "like for like: 1 LUN, queues = vCPUs, inline",
                 "ylabel": "KIOPS",
                 "categories": ["%s %s" % (_s(t, "job"), e) for t, e in keys],
                 "series": [(m[3:], bar_values(r, m, [{"ll": 1, "threads": t, "engine": e}
                                                      for t, e in keys]))
                            for m, _, _, _ in self.LL]}]

    def panels(self, r):
        luns, threads = self._grid_axes(r)
        return self.ll_panel(r) + [{"kind": "lines", "title": "%s per LUN" % _s(t, "thread"),
                 "xlabel": "#LUNs (one host each)", "ylabel": "KIOPS", "logx": True,
                 "series": [(label, line_series(r, mode, luns,
                                                lambda n, t=t: {"luns": n, "threads": t}))
                            for mode, _, label, _ in self.MODES]}
                for t in threads]


# ---- seed 002: block sizes, LUN scaling -----------------------------------

class Seed002Bs(Experiment):
    name = "seed002-bs"
    title = "seed 002: randread block sizes 1k..128k on one LUN; LUNs 1/2/4 at 1k"
    seed = "002_a5a6ac38ff22fab1.txt (LIO iSER target merged, May 2013)"
    about = ("One host, 2 fio jobs per LUN (the seed's numjobs=2), iodepth 128: "
             "block sizes 1k..128k on one LUN, then 1/2/4 LUNs at 1k; IOPS and "
             "bandwidth (null backing: no data is copied). Quick: 1k, 4k, 16k, 64k.")
    # (mode, label, cfg(luns, initiators)); the first mode is the one the
    # ratio tables divide (by each mode of RATIO_TO)
    MODES = [
        ("mq", "smq mq", lambda n, k: smq(mq=True, luns=n, sched="none")),
        ("legacy", "smq legacy", lambda n, k: smq(mq=False, luns=n, sched="noop")),
        ("scsi_debug", "scsi_debug", lambda n, k: scsi_debug(luns=n, sched="none")),
        ("null_blk", "null_blk", lambda n, k: null_blk(devices=n, sched="none")),
    ]
    RATIO_TO = ["legacy", "scsi_debug", "null_blk"]
    BS = ["1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k"]
    QUICK_BS = ["1k", "4k", "16k", "64k"]
    LUNS = [1, 2, 4]
    QUICK_LUNS = [1, 2, 4]
    # Initiator scaling (the seed's 1..3 initiators x 4 LUNs): more
    # initiators (sessions) to the same target, each seeing its LUNs; the
    # 1-initiator row is the LUN scaling's 4-LUN point. None here: a
    # transport's subclass sets them.
    INITIATORS = []
    QUICK_INITIATORS = []
    INIT_LUNS = 4
    JOBS = 2

    def build(self, ctx):
        plan = Plan()
        luns = self.QUICK_LUNS if ctx.quick else self.LUNS
        inits = [k for k in (self.QUICK_INITIATORS if ctx.quick else self.INITIATORS)
                 if k > 1]
        for n in luns:  # modes interleaved: drift hits them alike
            for mode, label, cfg in self.MODES:
                s = plan.setup(cfg(n, 1))
                for bs in (self.QUICK_BS if ctx.quick else self.BS) if n == 1 else ["1k"]:
                    fio = dict(RANDREAD_1K, bs=bs)
                    plan.point(s, mode, {"bs": bs, "luns": n}, self.JOBS, fio,
                               "%s %s %s x %d jobs" % (label, bs, _s(n, "LUN"), self.JOBS))
        for k in inits:
            for mode, label, cfg in self.MODES:
                s = plan.setup(cfg(self.INIT_LUNS, k))
                plan.point(s, mode, {"bs": "1k", "luns": self.INIT_LUNS, "initiators": k},
                           self.JOBS, RANDREAD_1K, "%s 1k %s x %s x %d jobs" % (
                               label, _s(k, "initiator"), _s(self.INIT_LUNS, "LUN"),
                               self.JOBS))
        return plan

    def _bs(self, r):
        return [b for b in self.BS if any(p["key"]["bs"] == b and p["key"]["luns"] == 1
                                          for p in r.points)]

    def _luns(self, r):
        return [n for n in self.LUNS if any(p["key"]["luns"] == n for p in r.points)]

    def _inits(self, r):
        ks = {p["key"].get("initiators") for p in r.points} - {None}
        return [1] + sorted(ks) if ks else []

    def _init_point(self, r, m, k):
        if k == 1:
            return r.get(m, bs="1k", luns=self.INIT_LUNS)
        return r.get(m, bs="1k", luns=self.INIT_LUNS, initiators=k)

    def tables(self, r):
        bss, luns, inits = self._bs(r), self._luns(r), self._inits(r)
        modes = [m for m, _, _ in self.MODES]
        names = dict((m, l) for m, l, _ in self.MODES)
        base = modes[0]
        over = ["/" + o for o in self.RATIO_TO]
        out = [grid("single LUN, %d jobs: KIOPS(CPU%%)" % self.JOBS, "bs",
                    bss, modes, lambda b, m: cell(r, r.get(m, bs=b, luns=1))),
               grid("single LUN: bandwidth MiB/s", "bs", bss, modes,
                    lambda b, m: "%.1f" % r.value(r.get(m, bs=b, luns=1), "read_bw_mib")
                    if r.value(r.get(m, bs=b, luns=1)) else "-"),
               grid("%s as a ratio (IOPS)" % names[base], "bs", bss, over,
                    lambda b, o: ratio(r.value(r.get(base, bs=b, luns=1)),
                                       r.value(r.get(o[1:], bs=b, luns=1)))),
               grid("1k, %d jobs per LUN: KIOPS(CPU%%)" % self.JOBS, "LUNs", luns,
                    modes, lambda n, m: cell(r, r.get(m, bs="1k", luns=n))),
               grid("%s as a ratio (IOPS)" % names[base], "LUNs", luns, over,
                    lambda n, o: ratio(r.value(r.get(base, bs="1k", luns=n)),
                                       r.value(r.get(o[1:], bs="1k", luns=n))))]
        if inits:
            out += [grid("1k, initiators x %s, %d jobs per LUN: KIOPS(CPU%%)" % (
                             _s(self.INIT_LUNS, "LUN"), self.JOBS), "initiators", inits,
                         modes, lambda k, m: cell(r, self._init_point(r, m, k))),
                    grid("%s as a ratio (IOPS)" % names[base], "initiators", inits, over,
                         lambda k, o: ratio(r.value(self._init_point(r, base, k)),
                                            r.value(self._init_point(r, o[1:], k))))]
        out.insert(0, "modes: " + ", ".join("%s = %s" % (m, names[m]) for m in modes) + "\n")
        return "\n".join(out)

    def panels(self, r):
        bss, luns, inits = self._bs(r), self._luns(r), self._inits(r)
        x = {b: float(b[:-1]) for b in bss}
        tl = {x[b]: b for b in bss}
        one = (lambda b: {"bs": b, "luns": 1})
        panels = [
            {"kind": "lines", "title": "IOPS, one LUN", "xlabel": "block size",
             "ylabel": "KIOPS", "logx": True, "xticlabels": tl,
             "series": [(l, line_series(r, m, bss, one, xval=x.get))
                        for m, l, _ in self.MODES]},
            {"kind": "lines", "title": "bandwidth, one LUN", "xlabel": "block size",
             "ylabel": "MiB/s", "logx": True, "xticlabels": tl,
             "series": [(l, line_series(r, m, bss, one, "read_bw_mib", 1, xval=x.get))
                        for m, l, _ in self.MODES]},
            {"kind": "lines", "title": "1k, LUN scaling", "xlabel": "LUNs",
             "ylabel": "KIOPS", "logx": True,
             "series": [(l, line_series(r, m, luns, lambda n: {"bs": "1k", "luns": n}))
                        for m, l, _ in self.MODES]},
        ]
        if inits:
            panels.append({"kind": "bars", "title": "1k, initiators x %s" % _s(
                self.INIT_LUNS, "LUN"), "ylabel": "KIOPS",
                "categories": [_s(k, "initiator") for k in inits],
                "series": [(l, [(lambda s: (s["median"] / 1e3, s["min"] / 1e3,
                                            s["max"] / 1e3) if s else None)(
                    stat(r, self._init_point(r, m, k))) for k in inits])
                    for m, l, _ in self.MODES]})
        return panels


class IserBs(Seed002Bs):
    """seed 002 over iSER: the seed's own transport (LIO iSER, NULLIO)."""
    name = "iser-bs"
    title = ("seed 002 over iSER: randread 1k..128k on one LUN; LUNs 1/2/4; "
             "initiators 1..3 x 4 LUNs")
    about = ("seed002-bs over iSER: LIO's iSER target (NULLIO backstores) over "
             "soft-RoCE in the guest; one host (iSCSI session), 2 fio jobs per "
             "LUN, iodepth 128: block sizes 1k..128k on one LUN (IOPS and MiB/s), "
             "1/2/4 LUNs on one session at 1k, then 1..3 initiators to the same "
             "4-LUN target (smq_iser: sessions of one host, its hardware queues; "
             "ib_iser: open-iscsi sessions, each LUN a disk per session). smq_iser "
             "mq and legacy beside the kernel's ib_iser. Quick: 1k, 4k, 16k, 64k; "
             "LUNs 1, 4; initiators 1, 2.")
    MODES = [
        ("mq", "smq_iser mq",
         lambda n, k: smq_iser(mq=True, luns=n, queues=k, qd=128, cmd_per_lun=128,
                              sched="none")),
        ("legacy", "smq_iser legacy",
         lambda n, k: smq_iser(mq=False, luns=n, queues=k, qd=128, cmd_per_lun=128,
                              sched="noop")),
        ("ib_iser", "ib_iser", lambda n, k: ib_iser(luns=n, sessions=k, sched="none")),
    ]
    RATIO_TO = ["legacy", "ib_iser"]
    QUICK_LUNS = [1, 4]
    INITIATORS = [1, 2, 3]
    QUICK_INITIATORS = [1, 2]
    quick_seconds, quick_reps = 2, 2

    def tables(self, r):
        return "\n".join([super().tables(r), wire(r, [(p["label"], p) for p in r.points]),
                          geometry(r, [(m, l) for m, l, _ in self.MODES])])


# ---- seed 001: shared host tags, mq-deadline vs none ----------------------

class Seed001SharedTags(Experiment):
    name = "seed001-shared-tags"
    title = "seed 001: shared host tags, mq-deadline vs none, 8 LUNs on one host"
    seed = "001_603fe72542f5c39b.txt (megaraid_sas to MQ, 2020)"
    about = ("8 LUNs behind one host, submit_queues = vCPUs, fio randread 4k "
             "iodepth 64, one job per LUN; every command completes 1 ms after it "
             "was issued (timer: smq_sas irqmode=2, null_blk irqmode=2, "
             "scsi_debug ndelay), like the seed's disks, so that commands stay in "
             "flight and a scarce can_queue binds. host_tagset=1 at can_queue 192 "
             "(high) and 16 (scarce), and host_tagset=0 at 192; mq-deadline vs "
             "none. smq's lock counters (smq/iosched/lock_stats) and hardware "
             "queue counters (mq/N/*) are read before and after each point. "
             "Peers: scsi_debug host_max_queue (shared) or max_queue; null_blk "
             "shared_tags=1 (+ shared_tag_bitmap=1 for host_tagset=1). Quick: "
             "the two host_tagset=1 rows.")
    LUNS = 8
    NSEC = 1000000
    CONFIGS = [("host_tagset=1 can_queue=192", 1, 192),
               ("host_tagset=1 can_queue=16", 1, 16),
               ("host_tagset=0 can_queue=192", 0, 192)]
    SCHEDS = ["none", "mq-deadline"]
    STACKS = [
        ("smq", "smq mq",
         lambda t, cq, q, s: smq(luns=8, queues=q, tagset=t, can_queue=cq, irqmode=2,
                                 nsec=Seed001SharedTags.NSEC, sched=s)),
        ("scsi_debug", "scsi_debug",
         lambda t, cq, q, s: scsi_debug(luns=8, queues=q, can_queue=cq, host_tagset=t,
                                        ndelay=Seed001SharedTags.NSEC, sched=s)),
        ("null_blk", "null_blk",
         lambda t, cq, q, s: null_blk(devices=8, queues=q, depth=cq, shared_tags=True,
                                      shared_bitmap=bool(t), irqmode=2,
                                      nsec=Seed001SharedTags.NSEC, sched=s)),
    ]
    FIO = {"rw": "randread", "bs": "4k", "iodepth": 64, "norandommap": True}

    def build(self, ctx):
        plan = Plan()
        for cname, t, cq in self.CONFIGS[:2] if ctx.quick else self.CONFIGS:
            for sched in self.SCHEDS:
                for mode, label, cfg in self.STACKS:
                    s = plan.setup(cfg(t, cq, ctx.vcpus, sched))
                    plan.point(s, mode, {"config": cname, "sched": sched}, 1, self.FIO,
                               "%s %s 8 LUNs %s" % (label, sched, cname))
        return plan

    def _configs(self, r):
        return [c for c, _, _ in self.CONFIGS if any(p["key"]["config"] == c for p in r.points)]

    def tables(self, r):
        configs = self._configs(r)
        out = []
        for mode, label, _ in self.STACKS:
            out.append(grid("%s: KIOPS(CPU%%)" % label, "", configs,
                            ["none", "mq-deadline", "dl/none"],
                            lambda c, s, m=mode: ratio(
                                r.value(r.get(m, config=c, sched="mq-deadline")),
                                r.value(r.get(m, config=c, sched="none")))
                            if s == "dl/none" else cell(r, r.get(m, config=c, sched=s))))
        out.append(grid("smq mq as a ratio to the kernel's peers (IOPS)", "", configs,
                        ["none/scsi_debug", "dl/scsi_debug", "none/null_blk", "dl/null_blk"],
                        lambda c, x: ratio(
                            r.value(r.get("smq", config=c,
                                          sched="none" if x.startswith("none") else "mq-deadline")),
                            r.value(r.get(x.split("/")[1], config=c,
                                          sched="none" if x.startswith("none") else "mq-deadline")))))
        rows = []
        for c in configs:
            for s in self.SCHEDS:
                p = r.get("smq", config=c, sched=s)
                if not p or p["status"] != "ok":
                    continue
                d = p["counters"]["delta"]
                disp = d.get("hctx_dispatched", 0)
                acq = d.get("lock_acquired")
                per_k = (lambda k: "%.1f" % (1000.0 * d.get(k, 0) / disp) if disp else "-")
                rows.append([
                    "%s %s" % (c, s), kiops(r.value(p)),
                    "-" if acq is None else str(acq),
                    "-" if acq is None else str(d.get("lock_busy", 0)),
                    "-" if not acq else "%.1f%%" % (100.0 * d.get("lock_busy", 0) / acq),
                    "-" if acq is None else str(d.get("lock_merges", 0)),
                    str(disp), per_k("hctx_busy"), per_k("hctx_direct"),
                    per_k("hctx_queued"), per_k("hctx_runs")])
        out.append(columns(
            "smq's counters over the point's runs (lock: smq/iosched/lock_stats of "
            "mq-deadline, summed over the LUNs; hctx: mq/N/*, per 1000 dispatched)",
            ["", "KIOPS", "lock acq", "lock busy", "busy %", "merges", "dispatched",
             "busy/1k", "direct/1k", "queued/1k", "runs/1k"], rows))
        return "\n".join(out)

    def panels(self, r):
        configs = self._configs(r)
        series = []
        for mode, label, _ in self.STACKS:
            for s in self.SCHEDS:
                series.append(("%s %s" % (label, s),
                               bar_values(r, mode, [{"config": c, "sched": s} for c in configs])))
        ratios = []
        for mode, label, _ in self.STACKS:
            vals = []
            for c in configs:
                a = r.value(r.get(mode, config=c, sched="mq-deadline"))
                b = r.value(r.get(mode, config=c, sched="none"))
                vals.append((a / b, None, None) if a and b else None)
            ratios.append((label, vals))
        return [{"kind": "bars", "title": "KIOPS, 8 LUNs on one host", "ylabel": "KIOPS",
                 "categories": configs, "series": series},
                {"kind": "bars", "title": "mq-deadline / none", "ylabel": "IOPS ratio",
                 "categories": configs, "series": ratios}]


# ---- seed 004: read / randrw / write, mq vs legacy ------------------------

class Seed004Rw(Experiment):
    name = "seed004-rw"
    title = "seed 004: read, randrw 50/50, write IOPS, mq vs legacy"
    seed = "004_a8256b2c8d623e09.txt (scsi-mq default on hisi_sas, Oct 2017)"
    about = ("One LUN, one reply queue exposed (hisi_sas did not expose its "
             "queues), fio bs 4k iodepth 64, 2 jobs: read (sequential), randrw "
             "50/50, write; smq legacy noop and deadline, smq mq none and "
             "mq-deadline, scsi_debug none and mq-deadline, null_blk none.")
    MODES = [
        ("legacy noop", "smq without default SCSI_MQ (use_blk_mq=N), noop",
         lambda: smq(mq=False, sched="noop")),
        ("legacy deadline", "smq without default SCSI_MQ (use_blk_mq=N), deadline",
         lambda: smq(mq=False, sched="deadline")),
        ("mq none", "smq with default SCSI_MQ (use_blk_mq=Y), none",
         lambda: smq(mq=True, sched="none")),
        ("mq mq-deadline", "smq with default SCSI_MQ (use_blk_mq=Y), mq-deadline",
         lambda: smq(mq=True, sched="mq-deadline")),
        ("scsi_debug none", "kernel scsi_debug, none", lambda: scsi_debug(sched="none")),
        ("scsi_debug mq-deadline", "kernel scsi_debug, mq-deadline",
         lambda: scsi_debug(sched="mq-deadline")),
        ("null_blk none", "kernel null_blk, none", lambda: null_blk(sched="none")),
    ]
    RW = [("read", {"rw": "read"}), ("randrw", {"rw": "randrw", "rwmixread": 50}),
          ("write", {"rw": "write"})]
    JOBS = 2

    def build(self, ctx):
        plan = Plan()
        for mode, _, cfg in self.MODES:
            s = plan.setup(cfg())
            for rw, fio in self.RW:
                plan.point(s, mode, {"rw": rw}, self.JOBS,
                           dict(fio, bs="4k", iodepth=64), "%s %s" % (mode, rw))
        return plan

    def _k(self, v):
        return "-" if v is None else "%.1fK" % (v / 1000.0)

    def tables(self, r):
        out = []
        for mode, title, _ in self.MODES:
            rd, rw, wr = (r.get(mode, rw=x) for x, _ in self.RW)
            out.append("%s\nread, rw, write IOPS\n%s, %s/%s, %s\n" % (
                title, self._k(r.value(rd)), self._k(r.value(rw, "read_iops")),
                self._k(r.value(rw, "write_iops")), self._k(r.value(wr))))
        modes = [m for m, _, _ in self.MODES]
        out.append(grid("all modes: KIOPS(CPU%)", "", modes, [x for x, _ in self.RW],
                        lambda m, x: cell(r, r.get(m, rw=x))))
        pairs = [("mq none", "legacy noop"), ("mq mq-deadline", "legacy deadline"),
                 ("mq none", "scsi_debug none"), ("mq mq-deadline", "scsi_debug mq-deadline"),
                 ("mq none", "null_blk none"), ("legacy noop", "scsi_debug none")]
        out.append(grid("ratios (IOPS)", "", ["%s / %s" % pr for pr in pairs],
                        [x for x, _ in self.RW],
                        lambda pr, x: ratio(r.value(r.get(pr.split(" / ")[0], rw=x)),
                                            r.value(r.get(pr.split(" / ")[1], rw=x)))))
        return "\n".join(out)

    def panels(self, r):
        cats = [x for x, _ in self.RW]
        return [{"kind": "bars", "title": "IOPS by workload", "ylabel": "KIOPS",
                 "categories": cats,
                 "series": [(m, bar_values(r, m, [{"rw": x} for x in cats]))
                            for m, _, _ in self.MODES]}]


# ---- seed 003: completion context -----------------------------------------

class Seed003Completion(Experiment):
    name = "seed003-completion"
    title = ("seed 003: completion context: submitting CPU vs softirq vs timer "
             "vs irq_poll (weights 128, 10)")
    seed = "003_f0eab7c77da7d169.txt (IB/srp completion polling, 2014)"
    about = ("One LUN, submit_queues = vCPUs, fio randread 1k, 1 job, at "
             "iodepth 128 (IOPS) and 1 (latency). smq_sas irqmode 0 (in "
             "queuecommand), 1 (reply queue tasklet), 2 (hrtimer, completion_nsec "
             "20000), 3 (irq_poll: the reply is posted on the reply queue's ring "
             "after completion_nsec 20000 or at once, the queue's interrupt "
             "schedules irq_poll, which reaps at most poll_weight 128 or 10 per "
             "pass); null_blk irqmode 0/1/2 (completion_nsec 20000); scsi_debug "
             "delay=0 (inline) and ndelay=20000 (hrtimer).")
    NSEC = 20000
    # (key, irqmode, completion_nsec, poll_weight)
    # (each irq_poll row right after the mode it is compared with, so that
    # drift of the host hits them alike)
    IRQ = [("0 none", 0, None, None), ("1 softirq", 1, None, None),
           ("3 poll/128 ns=0", 3, 0, 128), ("3 poll/10 ns=0", 3, 0, 10),
           ("2 timer", 2, NSEC, None),
           ("3 poll/128", 3, NSEC, 128), ("3 poll/10", 3, NSEC, 10)]
    # The interrupt-driven mode each irq_poll row is measured against: same
    # service time, the completion work in the interrupt / tasklet instead.
    BASE = {"3 poll/128": "2 timer", "3 poll/10": "2 timer",
            "3 poll/128 ns=0": "1 softirq", "3 poll/10 ns=0": "1 softirq"}
    QDS = [128, 1]
    NOTE = ("irq_poll rows: the kernel's irq_poll (lib/irq_poll.c) over smq_sas's "
            "reply ring, weights 128 and 10 as in seed 003's blk-iopoll runs; "
            "'ns=0' posts the reply in queuecommand (compare with irqmode 1), "
            "otherwise 20 us after it from an hrtimer (compare with irqmode 2). "
            "The seed's batched CQ polling (one pass per interrupt without a "
            "weight) is irqmode 1. null_blk and scsi_debug have no irq_poll: "
            "the irq_poll rows' peer ratios use their timer (20 us) or "
            "softirq/inline rows.")
    # Polled completion (issue 14): one setup per stack with poll queues
    # beside interrupt-driven ones, fio io_uring on it without --hipri (the
    # interrupt path: softirq; scsi_debug an hrtimer) and with --hipri
    # (polled), in the same boot and setup. scsi_debug completes a polled
    # command inline at delay=0, so its polled setup uses ndelay (1 us).
    SD_POLL_NDELAY = 1000
    POLL = [("4 io_uring", False), ("5 polled", True)]
    POLL_NOTE = ("polled rows: fio --ioengine=io_uring --hipri on a setup with one "
                 "poll queue (smq_sas poll_queues=1 irqmode=1, null_blk "
                 "poll_queues=1 irqmode=1, scsi_debug poll_queues=1 ndelay=%d); "
                 "'io_uring' rows: the same setup and engine without --hipri "
                 "(interrupt path), the polled rows' base. A polled setup runs "
                 "only if every disk has queue/io_poll 1 (else skipped); the "
                 "kernel fails a --hipri I/O to a disk without polling, so a "
                 "measured polled row polled; its irq+softirq/IO (/proc/stat "
                 "around the point) shows the completions that no interrupt or "
                 "softirq delivered." % SD_POLL_NDELAY)

    def build(self, ctx):
        plan = Plan()
        plan.notes.append(self.NOTE)
        for iname, irq, nsec, weight in self.IRQ:
            cfgs = [("smq", smq(queues=ctx.vcpus, irqmode=irq, nsec=nsec,
                                poll_weight=weight, sched="none"))]
            if irq != 3:
                cfgs.append(("null_blk", null_blk(queues=ctx.vcpus, irqmode=irq,
                                                  nsec=nsec, sched="none")))
            if irq in (0, 2):
                cfgs.append(("scsi_debug", scsi_debug(queues=ctx.vcpus,
                                                      ndelay=self.NSEC if irq == 2 else 0,
                                                      sched="none")))
            for mode, cfg in cfgs:
                s = plan.setup(cfg)
                for qd in self.QDS:
                    plan.point(s, mode, {"irq": iname, "qd": qd}, 1,
                               dict(RANDREAD_1K, iodepth=qd),
                               "%s %s QD%d" % (mode, self.what(mode, iname), qd))
        plan.notes.append(self.POLL_NOTE)
        for mode, cfg in self.poll_setups(ctx):
            s = plan.setup(cfg)
            for iname, hipri in self.POLL:
                for qd in self.QDS:
                    fio = dict(RANDREAD_1K, iodepth=qd, ioengine="io_uring")
                    if hipri:
                        fio["hipri"] = True
                    plan.point(s, mode, {"irq": iname, "qd": qd}, 1, fio,
                               "%s %s QD%d" % (mode, self.what(mode, iname), qd))
        return plan

    def poll_setups(self, ctx):
        """max(2, vCPUs) hardware queues on every stack, one of them polled
        (smq_sas and scsi_debug count poll queues in submit_queues, at most
        vCPUs; null_blk adds them to its submit_queues)."""
        n = max(2, ctx.vcpus)
        return [("smq", smq(queues=n, irqmode=1, poll_queues=1, sched="none")),
                ("null_blk", null_blk(queues=n - 1, irqmode=1, poll_queues=1, sched="none")),
                ("scsi_debug", scsi_debug(queues=n, ndelay=self.SD_POLL_NDELAY, poll_queues=1,
                                          sched="none"))]

    def what(self, mode, iname):
        irq = int(iname[0])
        if irq >= 4:
            return "%s%s" % ("io_uring" if irq == 4 else "polled (io_uring --hipri)", {
                "smq": " irqmode=1 poll_queues=1", "null_blk": " irqmode=1 poll_queues=1",
                "scsi_debug": " ndelay=%d poll_queues=1" % self.SD_POLL_NDELAY}[mode])
        if mode == "scsi_debug":
            return "delay=0" if irq == 0 else "ndelay=%d" % self.NSEC
        if irq == 3:
            w = iname.split("/")[1].split()[0]
            return "irqmode=3 poll_weight=%s completion_nsec=%d" % (
                w, 0 if iname.endswith("ns=0") else self.NSEC)
        return "irqmode=%s" % iname

    def peer_key(self, iname):
        """The peers' row for IRQ row INAME (their own, or the base mode's)."""
        return self.BASE.get(iname, iname)

    def tables(self, r):
        rows = []
        for iname in [i[0] for i in self.IRQ] + [i for i, _ in self.POLL]:
            for mode in ("smq", "null_blk", "scsi_debug"):
                a, b = r.get(mode, irq=iname, qd=128), r.get(mode, irq=iname, qd=1)
                if a is None and b is None:
                    continue
                d = (a or {}).get("counters", {}).get("delta", {})
                ipis, polls = d.get("rq_ipis"), d.get("rq_polls")
                done, rearms = d.get("rq_completed"), d.get("rq_rearms")
                batch = "-"
                if polls and done is not None:
                    batch = "%.1f" % (done / polls)
                rows.append(["%s %s" % (mode, self.what(mode, iname)), cell(r, a),
                             lat(r, a, "p50"), lat(r, a, "p99"), cell(r, b),
                             lat(r, b, "p50"), lat(r, b, "p99"), lat(r, b, "p99.9"),
                             "-" if ipis is None else str(ipis), batch,
                             "-" if not polls or rearms is None else str(rearms)])
        out = [columns("IOPS and latency (µs, fio total latency percentiles)",
                       ["", "QD128 KIOPS(CPU%)", "p50", "p99", "QD1 KIOPS(CPU%)", "p50",
                        "p99", "p99.9", "IPIs", "per poll", "rearms"], rows)]

        def peer(i, stack, qd):
            return r.get(stack, irq=self.peer_key(i), qd=qd)

        out.append(grid("smq as a ratio (IOPS; QD1: p50 latency, lower is better); "
                        "irq_poll rows against the peers' row in ()",
                        "irqmode", ["%s (%s)" % (n, self.peer_key(n)) if n in self.BASE
                                    else n for n, _, _, _ in self.IRQ],
                        ["QD128 /null_blk", "QD128 /scsi_debug", "QD1 p50 /null_blk"],
                        lambda i, c: self._peer_ratio(r, i.split(" (")[0], c, peer)))
        prow = [n for n in self.BASE]
        out.append(grid("irq_poll vs interrupt-driven completion in smq_sas (the seed's "
                        "blk-iopoll vs interrupt: IOPS ratio, QD1 p50/p99 latency ratio)",
                        "irq_poll row / base", ["%s / %s" % (n, self.BASE[n]) for n in prow],
                        ["QD128 IOPS", "QD128 p99", "QD1 p50", "QD1 p99"],
                        lambda pr, c: self._poll_ratio(r, pr.split(" / ")[0],
                                                       pr.split(" / ")[1], c)))
        out.append("IPIs: smq_sas completions sent to a CPU of the reply queue's mask; "
                   "per poll: completions per irq_poll pass; rearms: passes that used "
                   "the whole weight (debugfs reply_queues), during the QD128 point.\n")
        out.append(self.poll_tables(r))
        out.append("note: " + self.NOTE + "\n")
        out.append("note: " + self.POLL_NOTE + "\n")
        return "\n".join(out)

    # rows of the interrupt / irq_poll / polled table: (stack, irq row, what)
    COMPL = [("smq", "1 softirq", "interrupt: irqmode=1 softirq, libaio"),
             ("smq", "3 poll/128 ns=0", "irq_poll/128 (ns=0), libaio"),
             ("smq", "3 poll/10 ns=0", "irq_poll/10 (ns=0), libaio"),
             ("smq", "4 io_uring", "interrupt: irqmode=1, io_uring (poll setup)"),
             ("smq", "5 polled", "polled: io_uring --hipri"),
             ("null_blk", "1 softirq", "interrupt: irqmode=1 softirq, libaio"),
             ("null_blk", "4 io_uring", "interrupt: irqmode=1, io_uring (poll setup)"),
             ("null_blk", "5 polled", "polled: io_uring --hipri"),
             ("scsi_debug", "4 io_uring", "interrupt: hrtimer 1 us, io_uring (poll setup)"),
             ("scsi_debug", "5 polled", "polled: io_uring --hipri")]

    def poll_tables(self, r):
        rows = []
        for mode, iname, what in self.COMPL:
            a, b = r.get(mode, irq=iname, qd=128), r.get(mode, irq=iname, qd=1)
            if a is None and b is None:
                continue
            check, per_io = "-", "-"
            if b is not None and b["status"] == "ok":
                d = b.get("counters", {}).get("delta", {})
                ios = d.get("disk_read_ios")
                if ios and "sys_intr" in d:
                    per_io = "%.2f" % ((d["sys_intr"] + d.get("sys_softirq", 0)) / ios)
                if iname == "5 polled":
                    after = b.get("counters", {}).get("after", {})
                    check = "io_poll=%s" % ("1" if after.get("io_poll_disks") else "0")
                    if "sdebug_mq_polls" in d:
                        check += " mq_polls +%d" % d["sdebug_mq_polls"]
            rows.append(["%s %s" % (mode, what), cell(r, a), cell(r, b), lat(r, b, "p50"),
                         lat(r, b, "p99"), per_io, check])
        out = [columns("completion: interrupt vs irq_poll (weights 128 / 10) vs polled, "
                       "randread 1k, 1 job (latency µs; irq+softirq/IO: the guest's "
                       "interrupts and softirqs per I/O during the QD1 point)",
                       ["", "QD128 KIOPS(CPU%)", "QD1 KIOPS(CPU%)", "QD1 p50", "QD1 p99",
                        "irq+softirq/IO", "polled? (QD1)"], rows)]

        def v(mode, iname, c):
            qd = 128 if c.startswith("QD128") else 1
            what = {"IOPS": "iops", "p50": "read_lat_us/p50",
                    "p99": "read_lat_us/p99"}[c.split()[1]]
            return r.value(r.get(mode, irq=iname, qd=qd), what)

        pairs = [("smq polled / smq interrupt (io_uring)", "smq", "5 polled", "smq",
                  "4 io_uring"),
                 ("smq polled / smq irqmode=1 (libaio)", "smq", "5 polled", "smq",
                  "1 softirq"),
                 ("null_blk polled / null_blk interrupt (io_uring)", "null_blk", "5 polled",
                  "null_blk", "4 io_uring"),
                 ("scsi_debug polled / scsi_debug interrupt (io_uring)", "scsi_debug",
                  "5 polled", "scsi_debug", "4 io_uring"),
                 ("smq polled / null_blk polled", "smq", "5 polled", "null_blk", "5 polled"),
                 ("smq polled / scsi_debug polled", "smq", "5 polled", "scsi_debug",
                  "5 polled")]
        cols = ["QD128 IOPS", "QD1 IOPS", "QD1 p50", "QD1 p99"]
        # targets (issue 14): smq polled p50, p99 <= null_blk polled; smq
        # polled QD1 IOPS >= smq interrupt
        want = {("smq polled / null_blk polled", "QD1 p50"): "<=1",
                ("smq polled / null_blk polled", "QD1 p99"): "<=1",
                ("smq polled / smq interrupt (io_uring)", "QD1 IOPS"): ">=1",
                ("smq polled / smq irqmode=1 (libaio)", "QD1 IOPS"): ">=1"}

        def cellfn(name, c):
            _, ma, ia, mb, ib = next(x for x in pairs if x[0] == name)
            x = ratio(v(ma, ia, c), v(mb, ib, c))
            w = want.get((name, c))
            if x != "-" and w and not (float(x) <= 1.0 if w == "<=1" else float(x) >= 1.0):
                x += "!"
            return x
        out.append(grid("polled completion as a ratio (IOPS: higher is better; latency: "
                        "lower is better; targets: smq polled / null_blk polled p50, p99 "
                        "<= 1.0, smq polled / smq interrupt QD1 IOPS >= 1.0; '!' misses)",
                        "", [x[0] for x in pairs], cols, cellfn))
        return "\n".join(out)

    @staticmethod
    def _peer_ratio(r, i, c, peer):
        me128, me1 = r.get("smq", irq=i, qd=128), r.get("smq", irq=i, qd=1)
        if c.startswith("QD128"):
            stack = c.split("/")[1]
            return ratio(r.value(me128), r.value(peer(i, stack, 128)))
        return ratio(r.value(me1, "read_lat_us/p50"),
                     r.value(peer(i, "null_blk", 1), "read_lat_us/p50"))

    @staticmethod
    def _poll_ratio(r, poll, base, c):
        qd = 128 if c.startswith("QD128") else 1
        a, b = r.get("smq", irq=poll, qd=qd), r.get("smq", irq=base, qd=qd)
        what = {"QD128 IOPS": "iops", "QD128 p99": "read_lat_us/p99",
                "QD1 p50": "read_lat_us/p50", "QD1 p99": "read_lat_us/p99"}[c]
        return ratio(r.value(a, what), r.value(b, what))

    def panels(self, r):
        cats = [n for n, _, _, _ in self.IRQ]
        modes = ["smq", "null_blk", "scsi_debug"]
        return [{"kind": "bars", "title": "QD128 IOPS by irqmode", "ylabel": "KIOPS",
                 "categories": cats,
                 "series": [(m, bar_values(r, m, [{"irq": c, "qd": 128} for c in cats]))
                            for m in modes]},
                {"kind": "bars", "title": "QD1 latency p99 by irqmode", "ylabel": "µs",
                 "categories": cats,
                 "series": [(m, bar_values(r, m, [{"irq": c, "qd": 1} for c in cats],
                                           "read_lat_us/p99", 1)) for m in modes]}]


# ---- latency and memory ---------------------------------------------------

class Latency(Experiment):
    name = "latency"
    title = "QD1 latency, and memory per LUN and per tag"
    seed = "(none: smq's own)"
    about = ("fio randread 4k iodepth 1, 1 job, one LUN, completion in the "
             "submitting context: p50/p99/p99.9 of fio's total latency for smq mq, "
             "smq legacy, scsi_debug, null_blk. Memory: /proc/meminfo and "
             "/proc/slabinfo before loading and after the disks appeared (caches "
             "dropped), for 4 hosts x 1 LUN and can_queue 16, 4 hosts x 1 LUN and "
             "can_queue 192, 4 hosts x 8 LUNs and can_queue 16 (2 reply queues "
             "each, no data kept), each measured reps x rounds times: per LUN = (8-LUN - "
             "1-LUN) / 28, per tag = (192 - 16) / (4 hosts x 2 queues x 176).")
    MODES = [("mq", "smq mq", lambda: smq(mq=True, sched="none")),
             ("legacy", "smq legacy", lambda: smq(mq=False, sched="noop")),
             ("scsi_debug", "scsi_debug", lambda: scsi_debug(sched="none")),
             ("null_blk", "null_blk", lambda: null_blk(sched="none"))]
    HOSTS, QUEUES, LUNS, CQ = 4, 2, (1, 8), (16, 192)
    GEOMS = [("base", 1, 16), ("tags", 1, 192), ("luns", 8, 16)]
    MEM_STACKS = [("mq", "smq mq", lambda n, cq: smq(hosts=4, luns=n, queues=2, can_queue=cq)),
                  ("scsi_debug", "scsi_debug",
                   lambda n, cq: scsi_debug(hosts=4, luns=n, queues=2, can_queue=cq))]
    quick_seconds, quick_reps = 3, 3

    def build(self, ctx):
        plan = Plan()
        for mode, label, cfg in self.MODES:
            s = plan.setup(cfg())
            plan.point(s, mode, {"qd": 1}, 1,
                       {"rw": "randread", "bs": "4k", "iodepth": 1, "norandommap": True},
                       "%s QD1 4k" % label)
        for rep in range(1, ctx.reps * ctx.rounds + 1):  # memory: interleaved rounds
            for mode, _, cfg in self.MEM_STACKS:
                for g, n, cq in self.GEOMS:
                    s = plan.setup(cfg(n, cq), mem=True)
                    s.params.update(geometry=g, rep=rep)
        return plan

    def memory(self, r):
        """{(mode, rep): {geometry: meminfo deltas}} of the memory setups."""
        m = {}
        for s in r.doc["setups"]:
            if s.get("mem") and s["status"] == "ok":
                key = (s["stack"].replace("smq-", ""), s["params"].get("rep", 1))
                m.setdefault(key, {})[s["params"]["geometry"]] = s["mem"]["meminfo_kib"]
        return m

    @staticmethod
    def _med(values, fmt):
        """median (min..max) of VALUES."""
        if not values:
            return "-"
        values = sorted(values)
        med = statistics.median(values)
        if len(values) == 1:
            return fmt % med
        return (fmt + " (" + fmt + ".." + fmt + ")") % (med, values[0], values[-1])

    def tables(self, r):
        rows = []
        for mode, label, _ in self.MODES:
            p = r.get(mode, qd=1)
            rows.append([label, cell(r, p), lat(r, p, "mean"), lat(r, p, "p50"),
                         lat(r, p, "p90"), lat(r, p, "p99"), lat(r, p, "p99.9")])
        out = [columns("QD1 randread 4k, 1 job (latency in µs)",
                       ["", "KIOPS(CPU%)", "mean", "p50", "p90", "p99", "p99.9"], rows)]
        p50 = {m: r.value(r.get(m, qd=1), "read_lat_us/p50") for m, _, _ in self.MODES}
        out.append("smq mq p50 as a ratio: /legacy %s, /scsi_debug %s, /null_blk %s "
                   "(lower is faster)\n" % (ratio(p50["mq"], p50["legacy"]),
                                            ratio(p50["mq"], p50["scsi_debug"]),
                                            ratio(p50["mq"], p50["null_blk"])))
        mem = self.memory(r)
        luns = self.HOSTS * (self.LUNS[1] - self.LUNS[0])
        tags = self.HOSTS * self.QUEUES * (self.CQ[1] - self.CQ[0])
        rows = []
        for mode, label, _ in self.MEM_STACKS:
            est = {k: [] for k in ("base_slab", "base_used", "lun_slab", "lun_used",
                                   "tag_slab", "tag_used")}
            for (m, _), g in mem.items():
                if m != mode or "base" not in g:
                    continue
                b = g["base"]
                est["base_slab"].append(b["Slab"])
                est["base_used"].append(-b["MemAvailable"])
                if "luns" in g:
                    est["lun_slab"].append((g["luns"]["Slab"] - b["Slab"]) / luns)
                    est["lun_used"].append((b["MemAvailable"] - g["luns"]["MemAvailable"]) / luns)
                if "tags" in g:
                    est["tag_slab"].append((g["tags"]["Slab"] - b["Slab"]) * 1024.0 / tags)
                    est["tag_used"].append((b["MemAvailable"] - g["tags"]["MemAvailable"])
                                           * 1024.0 / tags)
            rows.append([label, self._med(est["base_slab"], "%d"),
                         self._med(est["base_used"], "%d"),
                         self._med(est["lun_slab"], "%.1f"), self._med(est["lun_used"], "%.1f"),
                         self._med(est["tag_slab"], "%.0f"), self._med(est["tag_used"], "%.0f")])
        out.append(columns(
            "memory: median (min..max) over %d round(s); base: %d hosts x 1 LUN, %d reply "
            "queues, can_queue %d" % (len({k[1] for k in mem}), self.HOSTS, self.QUEUES,
                                       self.CQ[0]),
            ["", "base Slab KiB", "base used KiB", "per LUN Slab KiB", "per LUN used KiB",
             "per tag Slab B", "per tag used B"], rows))
        out.append("after minus before loading the modules (caches dropped, memory "
                   "compacted); used = the drop of MemAvailable; the base includes the "
                   "modules themselves; per LUN: %d more LUNs, per tag: %d more tags. "
                   "The slab caches that changed most are in results.json "
                   "(setups[].mem).\n" % (luns, tags))
        return "\n".join(out)

    def panels(self, r):
        qs = ["p50", "p90", "p99", "p99.9"]
        return [{"kind": "bars", "title": "QD1 randread 4k latency", "ylabel": "µs",
                 "categories": qs,
                 "series": [(label, [(lambda s: (s["median"], s["min"], s["max"]) if s else None)(
                     stat(r, r.get(m, qd=1), "read_lat_us/" + q)) for q in qs])
                     for m, label, _ in self.MODES]}]


# ---- LUN-scoped recovery: one LUN in error handling, the others' IOPS -------

BUCKET_MS = 100


def iops_buckets(samples, t_end):
    """fio's IOPS log of a job as one value per 100 ms bucket up to T_END
    ms. fio writes a sample (time, IOPS over the time since the last one)
    every log_avg_msec but none for a stretch without completions, and a
    busy guest writes late: a gap of up to 250 ms is the late sample's
    interval, a longer one had no I/O (zeros)."""
    out = [0] * (t_end // BUCKET_MS + 1)
    prev = 0
    for t, v in samples:
        first = (prev if t - prev <= 250 else t - BUCKET_MS) // BUCKET_MS
        for b in range(max(first, 0), min(t // BUCKET_MS, len(out) - 1) + 1):
            out[b] = v
        prev = t
    return out


def recovery_window(tl, t_end):
    """LUN 0's recovery in a "recovery" point's timeline: (start ms, end ms,
    how it ended), or None when LUN 0 never stalled. Start: LUN 0's first
    100 ms without I/O from the injection on (fio's clock starts up to
    ~0.5 s after the injector's: the search starts 0.5 s early); end: the
    first of LUN 0 doing I/O again (3 buckets in a row), its state going
    offline, the end of the run."""
    lun0 = next((j for j in tl["jobs"] if j["hctl"].endswith(":0")), None)
    inj = tl.get("inject_ms")
    if lun0 is None or inj is None:
        return None
    io = iops_buckets(lun0["samples"], t_end)
    b0 = max(inj - 500, 0) // BUCKET_MS
    start = next((b for b in range(b0, len(io)) if io[b] == 0), None)
    if start is None:
        return None
    ends = [(t_end, "run ended")]
    resumed = next((b for b in range(start, len(io) - 2) if min(io[b:b + 3]) > 0), None)
    if resumed is not None:
        ends.append((resumed * BUCKET_MS, "running"))
    off = next((t for t, st, _ in tl["states"]
                if t >= start * BUCKET_MS and st == "offline"), None)
    if off is not None:
        ends.append((off, "offline"))
    end, why = min(ends)
    return start * BUCKET_MS, end, why


def healthy_iops(tl, t0, t1, t_end):
    """Per 100 ms bucket in [T0, T1): the summed IOPS of the LUNs other
    than LUN 0."""
    others = [iops_buckets(j["samples"], t_end) for j in tl["jobs"]
              if not j["hctl"].endswith(":0")]
    return [sum(o[b] for o in others)
            for b in range(t0 // BUCKET_MS, min(t1 // BUCKET_MS, t_end // BUCKET_MS))]


def recovery_figures(tl, t_end):
    """{baseline, during, ratio, worst, window_s, end} for a timeline of a
    run of T_END ms: the healthy LUNs' summed IOPS before the injection
    (from 1 s in to 0.5 s before it) and during LUN 0's recovery window, as
    means, and the worst 100 ms of the window."""
    w = recovery_window(tl, t_end)
    base = healthy_iops(tl, 1000, (tl["inject_ms"] or 0) - 500, t_end)
    out = {"baseline": statistics.mean(base) if base else None, "during": None,
           "ratio": None, "worst": None, "window_s": None, "end": "no stall",
           "window_ms": list(w[:2]) if w else None}
    if w is None:
        return out
    during = healthy_iops(tl, w[0], w[1], t_end)
    out.update(window_s=(w[1] - w[0]) / 1000.0, end=w[2])
    if during and out["baseline"]:
        out["during"] = statistics.mean(during)
        out["ratio"] = out["during"] / out["baseline"]
        out["worst"] = min(during) / out["baseline"]
    return out


class LunRecovery(Experiment):
    name = "lun-recovery"
    title = ("LUN-scoped recovery: 4 LUNs under fio randread, LUN 0 in error "
             "handling, the other LUNs' IOPS every 100 ms")
    seed = "(issue 12: Linux blocks every LUN of a host while its EH runs)"
    about = ("One host, 4 LUNs (smq_sas 2 reply queues, softirq completion, "
             "null backing; scsi_debug 2 queues, delay=0, fake_rw=1), fio "
             "randread 4k iodepth 16, one job per LUN, IOPS logged every "
             "100 ms. %d s in, LUN 0 gets device/timeout %d s, device/eh_timeout "
             "%d s and the error rules (scsi_debug 6.12's debugfs format, the "
             "same file in smq_sas): %s: its aborts of READ(10) fail, every "
             "TEST UNIT READY and every READ(10) times out, so it goes through "
             "the whole escalation to offline. Linux stops the whole host while "
             "its error handler runs; smq recovers the LUN alone. Figure: the "
             "healthy LUNs' IOPS during LUN 0's recovery window as a ratio to "
             "before it (target >= 0.8).")
    AT, TIMEOUT, EH_TIMEOUT = 8, 2, 3
    RULES = ["3 1 0x28", "0 1 0x00", "0 1 0x28"]
    seconds, reps, rounds = 70, 1, 1
    quick_seconds, quick_reps, quick_rounds = 50, 1, 1
    MODES = [("mq", "smq mq", lambda: smq(luns=4, queues=2, irqmode=1, sched="none")),
             ("legacy", "smq legacy", lambda: smq(mq=False, luns=4, queues=2, irqmode=1,
                                                  sched="noop")),
             ("scsi_debug", "scsi_debug", lambda: scsi_debug(luns=4, queues=2,
                                                             sched="none"))]
    FIO = {"rw": "randread", "bs": "4k", "iodepth": 16, "norandommap": True}

    def __init__(self):
        self.about = self.about % (self.AT, self.TIMEOUT, self.EH_TIMEOUT,
                                   ", ".join("'%s'" % r for r in self.RULES))

    def kind(self):
        return "recovery;%d;%d;%d;%s" % (self.AT, self.TIMEOUT, self.EH_TIMEOUT,
                                         ",".join(self.RULES))

    def build(self, ctx):
        plan = Plan()
        for mode, label, cfg in self.MODES:
            s = plan.setup(cfg())
            plan.point(s, mode, {"luns": 4}, 1, self.FIO,
                       "%s 4 LUNs, LUN 0 recovering" % label, kind=self.kind())
        return plan

    def figures(self, r):
        out = {}
        for mode, _, _ in self.MODES:
            p = r.get(mode, luns=4)
            if p and p["status"] == "ok" and p.get("timeline"):
                out[mode] = recovery_figures(p["timeline"], r.config["seconds"] * 1000)
        return out

    def tables(self, r):
        figs = self.figures(r)
        rows = []
        for mode, label, _ in self.MODES:
            f = figs.get(mode)
            if f is None:
                p = r.get(mode, luns=4)
                rows.append([label, p["status"] if p else "n/a", "", "", "", "", ""])
                continue
            rows.append([label, kiops(f["baseline"]) if f["baseline"] else "-",
                         kiops(f["during"]) if f["during"] is not None else "-",
                         "%.2f" % f["ratio"] if f["ratio"] is not None else "-",
                         "%.2f" % f["worst"] if f["worst"] is not None else "-",
                         "%.1f" % f["window_s"] if f["window_s"] is not None else "-",
                         f["end"]])
        out = [columns("healthy LUNs 1-3 (summed KIOPS) before and during LUN 0's recovery",
                       ["", "before", "during", "ratio", "worst 100 ms", "window s",
                        "LUN 0 ended"], rows)]
        out.append("window: from LUN 0's first 100 ms without I/O after the injection to "
                   "LUN 0 doing I/O again, going offline or the run's end; ratio: "
                   "mean during / mean before (target >= 0.8), worst: the lowest 100 ms "
                   "sample during / mean before.\n")
        return "\n".join(out)

    def panels(self, r):
        panels = []
        for mode, label, _ in self.MODES:
            p = r.get(mode, luns=4)
            if not p or not p.get("timeline"):
                continue
            tl = p["timeline"]
            t_end = r.config["seconds"] * 1000
            w = recovery_window(tl, t_end)
            series = [("LUN %s" % j["hctl"].split(":")[-1],
                       [(b * BUCKET_MS / 1000.0, v / 1000.0)
                        for b, v in enumerate(iops_buckets(j["samples"], t_end))])
                      for j in sorted(tl["jobs"], key=lambda j: j["hctl"])]
            marks = []
            if tl.get("inject_ms") is not None:
                marks.append((tl["inject_ms"] / 1000.0, "faults injected"))
            panels.append({"kind": "timeline", "title": "%s: IOPS per LUN" % label,
                           "xlabel": "s", "ylabel": "KIOPS", "series": series,
                           "marks": marks,
                           "span": (w[0] / 1000.0, w[1] / 1000.0) if w else None})
        return panels


# ---- iSER: smq_iser beside the kernel's ib_iser and nvme_rdma ---------------

class IserGrid(Seed000Grid):
    """seed 000 over its own transport: iSER to LIO, NULLIO."""
    LL = []  # no like-for-like point: every stack here shares the wire
    name = "iser-grid"
    title = "seed 000 over iSER: #LUNs x jobs per LUN, fio randread 1k iodepth 128"
    about = ("seed000-grid over iSER: LIO's iSER target (NULLIO backstores) over "
             "soft-RoCE in the guest, one host (iSCSI session, LIO target) per "
             "LUN, can_queue 113, cmd_per_lun 32 (smq_iser QD=113 CMD_PER_LUN=32; "
             "ib_iser QD=113: open-iscsi cmds_max 128, host can_queue 128 on "
             "6.1/6.12, cmd_per_lun 113, then device/queue_depth 32: with one LUN "
             "per host the LUN's 32 binds both), randread 1k iodepth "
             "128: smq_iser legacy "
             "(use_blk_mq=N, noop), smq_iser mq (none), the kernel's ib_iser "
             "(none). #LUNs 1,2,4,8 x jobs per LUN 1,2. Quick: LUNs 1,2,4.")
    quick_seconds, quick_reps = 2, 2
    MODES = [
        ("legacy", "smq_iser legacy (use_blk_mq=N, noop)", "smq_iser legacy noop",
         lambda n: smq_iser(mq=False, targets=n, qd=113, cmd_per_lun=32, sched="noop")),
        ("mq", "smq_iser mq (use_blk_mq=Y, none)", "smq_iser mq none",
         lambda n: smq_iser(mq=True, targets=n, qd=113, cmd_per_lun=32, sched="none")),
        ("ib_iser", "kernel: ib_iser + open-iscsi (blk-mq, none, can_queue 128, "
         "queue_depth 32)", "ib_iser none",
         lambda n: ib_iser(targets=n, qd=113, depth=32, sched="none")),
    ]
    RATIOS = [("mq", "ib_iser", "smq_iser mq / ib_iser"),
              ("mq", "legacy", "smq_iser mq / smq_iser legacy"),
              ("legacy", "ib_iser", "smq_iser legacy / ib_iser")]

    def axes(self, quick):
        return ([1, 2, 4], [1, 2]) if quick else ([1, 2, 4, 8], [1, 2])

    def tables(self, r):
        return "\n".join([super().tables(r), wire(r, [(p["label"], p) for p in r.points]),
                          geometry(r, [(m, l) for m, _, l, _ in self.MODES])])


class IserMq(Experiment):
    name = "iser-mq"
    title = ("iSER hardware queues: smq_iser 1 vs 2 sessions per host, beside "
             "nvme_rdma 1 vs 2 queues and ib_iser")
    seed = "(000's open question: iSER sessions as blk-mq hardware queues)"
    about = ("One LUN (one namespace), 2 fio jobs, randread 4k and 1k, iodepth "
             "128, over the same soft-RoCE link to LIO iSER / nvmet-rdma (NULLIO): "
             "smq_iser mq with QUEUES=1 and 2 (iSER sessions of one host = "
             "hardware queues, QD 128 each), the kernel's nvme_rdma with 1 and 2 "
             "I/O queues (queue_size 128), the kernel's ib_iser (one session, "
             "cmds_max 128); the ratio queues=2 / queues=1.")
    FIO = {"rw": "randread", "iodepth": 128, "norandommap": True}
    BS = ["4k", "1k"]
    JOBS = 2
    QD = 128
    MODES = [
        ("smq_iser q1", "smq_iser mq, 1 queue",
         lambda: smq_iser(queues=1, qd=IserMq.QD, cmd_per_lun=IserMq.QD, sched="none")),
        ("smq_iser q2", "smq_iser mq, 2 queues",
         lambda: smq_iser(queues=2, qd=IserMq.QD, cmd_per_lun=IserMq.QD, sched="none")),
        ("nvme_rdma q1", "nvme_rdma, 1 queue",
         lambda: nvme_rdma(queues=1, qd=IserMq.QD)),
        ("nvme_rdma q2", "nvme_rdma, 2 queues",
         lambda: nvme_rdma(queues=2, qd=IserMq.QD)),
        ("ib_iser", "ib_iser, 1 session", lambda: ib_iser(qd=IserMq.QD, sched="none")),
    ]
    RATIOS = [("smq_iser q2", "smq_iser q1"), ("nvme_rdma q2", "nvme_rdma q1"),
              ("smq_iser q1", "ib_iser"), ("smq_iser q2", "nvme_rdma q2"),
              ("nvme_rdma q1", "ib_iser")]
    # nvme_rdma: no scheduler set: the disk is the native multipath head
    # (bio-based, no scheduler); its controllers' queues are blk-mq, none.
    quick_seconds, quick_reps = 2, 2

    def build(self, ctx):
        plan = Plan()
        for mode, _, cfg in self.MODES:
            s = plan.setup(cfg())
            for bs in self.BS:
                plan.point(s, mode, {"bs": bs}, self.JOBS, dict(self.FIO, bs=bs),
                           "%s %s x %d jobs" % (mode, bs, self.JOBS))
        return plan

    def tables(self, r):
        modes = [m for m, _, _ in self.MODES]
        names = dict((m, l) for m, l, _ in self.MODES)
        out = ["modes: " + ", ".join("%s = %s" % (m, names[m]) for m in modes) + "\n",
               grid("one LUN, %d jobs, iodepth %d: KIOPS(CPU%%)" % (self.JOBS, self.QD), "",
                    modes, self.BS, lambda m, b: cell(r, r.get(m, bs=b))),
               grid("ratios (IOPS)", "", ["%s / %s" % pr for pr in self.RATIOS], self.BS,
                    lambda pr, b: ratio(r.value(r.get(pr.split(" / ")[0], bs=b)),
                                        r.value(r.get(pr.split(" / ")[1], bs=b)))),
               columns("p99 latency (µs)", [""] + self.BS,
                       [[m] + [lat(r, r.get(m, bs=b), "p99") for b in self.BS]
                        for m in modes]),
               wire(r, [("%s %s" % (m, b), r.get(m, bs=b)) for b in self.BS for m in modes]),
               geometry(r, [(m, m) for m in modes])]
        return "\n".join(out)

    def panels(self, r):
        return [{"kind": "bars", "title": "one LUN, %d jobs, iodepth %d" % (self.JOBS, self.QD),
                 "ylabel": "KIOPS", "categories": ["randread " + b for b in self.BS],
                 "series": [(l, bar_values(r, m, [{"bs": b} for b in self.BS]))
                            for m, l, _ in self.MODES]}]


# ---- issue 35: virtio-scsi, smq_virtio beside Linux's virtio_scsi ---------

class Virtio(Experiment):
    name = "virtio"
    title = ("virtio-scsi: smq_virtio (mq none / mq-deadline, legacy) beside Linux's "
             "virtio_scsi + sd on the same QEMU controller")
    seed = "(issue 35: a real multi-queue device)"
    about = ("One LUN on QEMU's virtio-scsi-pci (num_queues = vCPUs, a raw file, "
             "cache=none, aio=threads), the same controller and image for every mode: "
             "smq_virtio mq with none and mq-deadline, smq_virtio legacy, Linux's "
             "virtio_scsi with none and mq-deadline (its default is none with 2 "
             "request queues); fio 4k random "
             "reads and writes, one job per vCPU, iodepth 32.  Under TCG the device "
             "model (QEMU's emulation of the rings, the file I/O) costs most of each "
             "command, so the stacks' differences are small next to it.")
    RW = ["randread", "randwrite"]
    JOBS = 2
    QD = 32
    MODES = [
        ("smq mq", "smq_virtio mq, none", lambda: smq_virtio(sched="none")),
        ("smq mq-dl", "smq_virtio mq, mq-deadline",
         lambda: smq_virtio(sched="mq-deadline")),
        ("smq legacy", "smq_virtio legacy, noop", lambda: smq_virtio(mq=False)),
        ("linux", "virtio_scsi, none", lambda: virtio_scsi(sched="none")),
        ("linux mq-dl", "virtio_scsi, mq-deadline",
         lambda: virtio_scsi(sched="mq-deadline")),
    ]
    RATIOS = [("smq mq", "linux"), ("smq mq-dl", "linux mq-dl"),
              ("smq legacy", "smq mq")]
    quick_seconds, quick_reps = 2, 2

    def build(self, ctx):
        plan = Plan(vscsi="CTRLS=2")
        for mode, _, cfg in self.MODES:
            st = plan.setup(cfg())
            for rw in self.RW:
                plan.point(st, mode, {"rw": rw}, self.JOBS,
                           {"rw": rw, "bs": "4k", "iodepth": self.QD, "norandommap": True},
                           "%s %s 4k x %d jobs" % (mode, rw, self.JOBS))
        return plan

    def tables(self, r):
        modes = [m for m, _, _ in self.MODES]
        names = dict((m, l) for m, l, _ in self.MODES)
        out = ["modes: " + ", ".join("%s = %s" % (m, names[m]) for m in modes) + "\n",
               grid("one LUN, %d jobs, iodepth %d, 4k: KIOPS(CPU%%)" % (self.JOBS, self.QD),
                    "", modes, self.RW, lambda m, w: cell(r, r.get(m, rw=w))),
               grid("ratios (IOPS)", "", ["%s / %s" % pr for pr in self.RATIOS], self.RW,
                    lambda pr, w: ratio(r.value(r.get(pr.split(" / ")[0], rw=w)),
                                        r.value(r.get(pr.split(" / ")[1], rw=w)))),
               columns("p99 latency (µs)", [""] + self.RW,
                       [[m] + [lat(r, r.get(m, rw=w), "p99",
                                   "read_lat_us" if w == "randread" else "write_lat_us")
                               for w in self.RW] for m in modes]),
               geometry(r, [(m, m) for m in modes])]
        return "\n".join(out)

    def panels(self, r):
        return [{"kind": "bars", "title": "one LUN, %d jobs, iodepth %d, 4k" % (self.JOBS, self.QD),
                 "ylabel": "KIOPS", "categories": self.RW,
                 "series": [(l, bar_values(r, m, [{"rw": w} for w in self.RW]))
                            for m, l, _ in self.MODES]}]


# ---- issue 23: asynchronous SCSI passthrough -------------------------------

class Passthrough(Experiment):
    name = "passthrough"
    title = ("SCSI passthrough: io_uring uring_cmd on /dev/smq-ng vs the block "
             "path and SG_IO, 4k randread, one LUN")
    seed = "(issue 23: NVMe's io_uring passthrough, for SCSI)"
    about = ("One smq_sas LUN (null backing, 2 submit queues of which 1 polled), "
             "4k randread at QD 1 and 128, 1 and 2 jobs, in one boot: smq's "
             "uring_cmd passthrough (smq-ptio, interrupt driven and polled), "
             "smq's block path (fio io_uring O_DIRECT, interrupt driven and "
             "--hipri, and smq-ptio on /dev/sdX: the same client as the "
             "passthrough rows), SG_IO on smq's disk (fio's sg engine on /dev/sdX: one "
             "synchronous ioctl per I/O), and fio's sg engine on scsi_debug's "
             "/dev/sgN (the sg driver's asynchronous write/read interface, which "
             "takes at most 16 commands per open file: QD128 runs there at 16; "
             "scsi_debug fake_rw, delay 0). Aim (issue 23): passthrough >= 0.9x "
             "the block path at QD128 and >= 3x SG_IO sync.")
    QDS = [1, 128]
    JOBS = [1, 2]
    MODES = [
        ("block", "smq block path, fio io_uring"),
        ("block polled", "smq block path, fio io_uring --hipri"),
        ("uring_cmd", "smq passthrough, smq-ptio"),
        ("uring_cmd polled", "smq passthrough, smq-ptio --poll"),
        ("block smq-ptio", "smq block path, smq-ptio on /dev/sdX (O_DIRECT, the same client)"),
        ("block smq-ptio polled", "smq block path, smq-ptio --poll on /dev/sdX"),
        ("SG_IO sync", "smq, fio sg engine on /dev/sdX"),
        ("sg scsi_debug", "scsi_debug, fio sg engine on /dev/sgN"),
    ]
    RATIOS = [("uring_cmd", "block"), ("uring_cmd polled", "block polled"),
              ("uring_cmd", "block smq-ptio"),
              ("uring_cmd polled", "block smq-ptio polled"),
              ("uring_cmd", "SG_IO sync"), ("uring_cmd", "sg scsi_debug")]
    quick_seconds, quick_reps = 2, 2

    def build(self, ctx):
        plan = Plan()
        s = plan.setup(smq(queues=2, poll_queues=1, sched="none"))
        d = plan.setup(scsi_debug(sched="none"))
        base = {"rw": "randread", "bs": "4k", "norandommap": True}
        for qd in self.QDS:
            for jobs in self.JOBS:
                key = {"qd": qd, "jobs": jobs}
                tag = "QD%d x %d job%s" % (qd, jobs, "s" if jobs > 1 else "")
                uring = dict(base, ioengine="io_uring", iodepth=qd)
                plan.point(s, "block", key, jobs, uring, "block " + tag)
                plan.point(s, "block polled", key, jobs, dict(uring, hipri=True),
                           "block polled " + tag)
                ptio = "ptio;--rw randread --bs 4k --iodepth %d --size 1G" % qd
                plan.point(s, "uring_cmd", key, jobs, {}, "uring_cmd " + tag, kind=ptio)
                plan.point(s, "uring_cmd polled", key, jobs, {},
                           "uring_cmd polled " + tag, kind=ptio + " --poll --fixed")
                blk = "ptio-blk;" + ptio[len("ptio;"):]
                plan.point(s, "block smq-ptio", key, jobs, {}, "block smq-ptio " + tag,
                           kind=blk)
                plan.point(s, "block smq-ptio polled", key, jobs, {},
                           "block smq-ptio polled " + tag, kind=blk + " --poll --fixed")
                sg = dict(base, ioengine="sg", iodepth=qd)
                plan.point(s, "SG_IO sync", key, jobs, sg, "SG_IO sync " + tag)
                # the sg driver's nodes take no O_DIRECT (fio refuses them),
                # and at most 16 commands per open file (EDOM beyond)
                plan.point(d, "sg scsi_debug", key, jobs,
                           dict(sg, direct=0, iodepth=min(qd, 16)),
                           "sg scsi_debug " + tag, kind="sg;")
        return plan

    def _cols(self):
        return [(qd, j) for qd in self.QDS for j in self.JOBS]

    def tables(self, r):
        cols = self._cols()
        head = ["QD%d x%d" % c for c in cols]
        out = ["modes: " + "; ".join("%s = %s" % m for m in self.MODES) + "\n",
               columns("KIOPS(CPU%)", [""] + head,
                       [[m] + [cell(r, r.get(m, qd=q, jobs=j)) for q, j in cols]
                        for m, _ in self.MODES]),
               columns("ratios (IOPS)", [""] + head,
                       [["%s / %s" % pr] + [ratio(r.value(r.get(pr[0], qd=q, jobs=j)),
                                                  r.value(r.get(pr[1], qd=q, jobs=j)))
                                            for q, j in cols] for pr in self.RATIOS]),
               columns("p99 latency (µs)", [""] + head,
                       [[m] + [lat(r, r.get(m, qd=q, jobs=j), "p99") for q, j in cols]
                        for m, _ in self.MODES])]
        return "\n".join(out)

    def panels(self, r):
        cols = self._cols()
        return [{"kind": "bars", "title": "4k randread, one LUN", "ylabel": "KIOPS",
                 "categories": ["QD%d x%d" % c for c in cols],
                 "series": [(l, bar_values(r, m, [{"qd": q, "jobs": j} for q, j in cols]))
                            for m, l in self.MODES]}]


# ---- the bench's own test -------------------------------------------------

class Selftest(Experiment):
    name = "selftest"
    title = "bench self-test: smq mq and scsi_debug, one LUN, 1 job"
    seed = "(none)"
    about = ("Three points (smq mq with the run's engine and the other one of "
             "libaio / io_uring, scsi_debug; randread 1k iodepth 32, 1 job), "
             "for `make check`: proves the whole chain (plan, guest, fio JSON, "
             "engine, table, plot, compare) works.")
    # two rounds of one run: the self-test also covers Plan.interleave and
    # the merge of the rounds in collect.py
    seconds, reps, rounds = 1, 1, 2
    quick_seconds, quick_reps, quick_rounds = 1, 1, 2
    MODES = [("mq", "smq mq", lambda: smq(sched="none")),
             ("scsi_debug", "scsi_debug", lambda: scsi_debug(sched="none"))]
    # the other engine on smq's disks: the guest runs both (validate checks
    # each point's engine against fio's own record)
    OTHER = {"libaio": "io_uring", "io_uring": "libaio"}

    def build(self, ctx):
        plan = Plan()
        for mode, label, cfg in self.MODES:
            s = plan.setup(cfg())
            plan.point(s, mode, {"jobs": 1}, 1, dict(RANDREAD_1K, iodepth=32),
                       "%s 1 LUN x 1 job" % label)
            if mode == "mq":
                e = self.OTHER[ctx.engine]
                plan.point(s, "mq " + e, {"jobs": 1}, 1,
                           dict(RANDREAD_1K, iodepth=32, ioengine=e),
                           "%s 1 LUN x 1 job %s" % (label, e))
        return plan

    def tables(self, r):
        other = self.OTHER[r.config.get("engine", "libaio")]
        modes = [(m, l) for m, l, _ in self.MODES] + [("mq " + other, "smq mq " + other)]
        out = grid("KIOPS(CPU%%), fio %s" % r.config.get("engine", "libaio"), "",
                   [l for _, l in modes], ["1 job"],
                   lambda l, c: cell(r, r.get(dict((b, a) for a, b in modes)[l], jobs=1)))
        return out + "smq mq / scsi_debug: %s\n" % ratio(
            r.value(r.get("mq", jobs=1)), r.value(r.get("scsi_debug", jobs=1)))

    def panels(self, r):
        return [{"kind": "bars", "title": "IOPS", "ylabel": "KIOPS", "categories": ["1 job"],
                 "series": [(l, bar_values(r, m, [{"jobs": 1}])) for m, l, _ in self.MODES]}]


EXPERIMENTS = {e.name: e for e in (Seed000Grid(), Seed002Bs(), Seed001SharedTags(),
                                   Seed004Rw(), Seed003Completion(), Latency(),
                                   LunRecovery(), IserGrid(), IserBs(), IserMq(),
                                   Virtio(), Passthrough(), Selftest())}
