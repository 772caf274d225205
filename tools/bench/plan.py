# SPDX-License-Identifier: GPL-2.0
"""Plans: the setups (a target brought up in the guest) and points (one fio
workload on a setup's disks) an experiment runs, and how they are written for
the guest runner (tools/bench/guest-points.sh).

The stacks:
  smq-mq, smq-legacy   smq_blk + smq_scsi + smq_sas (use_blk_mq=Y / N)
  scsi_debug           the kernel's scsi_debug + sd_mod
  null_blk             the kernel's null_blk (blk-mq, not SCSI)
  nullbio              the bench's smq_nullbio.ko (tools/bench/nullbio): a
                       bio-based disk ending every bio in ->submit_bio, the
                       ceiling of any block driver
  smq-iser-mq, smq-iser-legacy
                       smq_blk + smq_scsi + smq_iser (use_blk_mq=Y / N), an
                       iSER initiator, against LIO's iSER target over
                       soft-RoCE (rdma_rxe) in the same guest
  ib_iser              the kernel's iSER initiator (ib_iser + open-iscsi),
                       same target and link
  nvme_rdma            the kernel's NVMe over RDMA host against nvmet-rdma
                       over the same link (blk-mq, not SCSI)
Every IOPS setup keeps no data: smq_sas backing=null, scsi_debug fake_rw=1,
null_blk without memory backing, and the RDMA targets NULLIO backstores
(TARGET_BENCH=1), as the seeds used NULLIO.
"""

STACK_NAMES = {
    "smq-mq": "smq mq",
    "smq-legacy": "smq legacy",
    "scsi_debug": "scsi_debug",
    "null_blk": "null_blk",
    "nullbio": "bio driver",
    "smq-iser-mq": "smq_iser mq",
    "smq-iser-legacy": "smq_iser legacy",
    "ib_iser": "ib_iser",
    "nvme_rdma": "nvme_rdma",
}

# Seconds a setup of a stack takes to come up and go down in a TCG guest
# (bench's estimate; the RDMA stacks load rdma_rxe, LIO or nvmet and log in).
UP_SECONDS = {"smq-iser-mq": 15, "smq-iser-legacy": 15, "ib_iser": 15, "nvme_rdma": 12}


class Setup:
    """A target configuration: one guest target spec, its disks, extras."""

    def __init__(self, sid, stack, spec, disks, params, extras):
        self.sid = sid
        self.stack = stack
        self.spec = spec
        self.disks = disks
        self.params = params  # the experiment's view: hosts, luns, queues...
        self.extras = extras  # sched=, depth=, mem=

    def to_json(self):
        return {"id": self.sid, "stack": self.stack, "spec": self.spec,
                "disks": self.disks, "params": self.params,
                "extras": self.extras}


class Point:
    """One fio workload on the disks of a setup."""

    def __init__(self, pid, setup, mode, key, jobs, fio, label, kind=""):
        self.pid = pid
        self.setup = setup
        self.mode = mode  # a column/line of the experiment's tables and plot
        self.key = key  # the point's coordinates, e.g. {"luns": 4, "threads": 2}
        self.jobs = jobs  # fio jobs per disk
        self.fio = fio  # fio options, e.g. {"rw": "randread", "bs": "1k"}
        self.label = label
        # "" for plain fio runs, else a special run of guest-points.sh
        # ("recovery;...": a fault-injection timeline)
        self.kind = kind
        self.base = pid  # the point this one repeats (Plan.interleave)
        self.round = 1

    def fio_args(self):
        args = []
        for k, v in self.fio.items():
            args.append("--%s" % k if v is True else "--%s=%s" % (k, v))
        return " ".join(args)

    def to_json(self):
        return {"id": self.pid, "setup": self.setup.sid, "mode": self.mode,
                "key": self.key, "jobs_per_disk": self.jobs,
                "disks": self.setup.disks, "fio_args": self.fio_args(),
                "kind": self.kind, "label": self.label}


class Plan:
    def __init__(self, vscsi=""):
        self.setups = []
        self.points = []
        self.notes = []
        # run.sh -V: the guest's virtio-scsi controllers and disks, if any
        self.vscsi = vscsi

    def setup(self, stack_cfg, mem=False):
        stack, spec, disks, params, extras = stack_cfg
        extras = dict(extras)
        if mem:
            extras["mem"] = 1
        s = Setup("s%d" % len(self.setups), stack, spec, disks, params, extras)
        self.setups.append(s)
        return s

    def point(self, setup, mode, key, jobs, fio, label, kind=""):
        p = Point(len(self.points), setup, mode, key, jobs, dict(fio), label, kind)
        self.points.append(p)
        return p

    def interleave(self, rounds):
        """Run every setup that has points ROUNDS times, the whole list once
        per round (s0 s1 .. sN, s0 s1 .. sN, ...), so that the runs of the
        modes compared at a point are spread over the run instead of
        back to back: a slow stretch of the host then lowers every mode a
        little rather than one mode a lot. The copies get their own setup
        and point ids; a copy's point keeps the id of the point it repeats
        in .base (collect.py merges them back). Setups without points (the
        memory snapshots) run once."""
        if rounds <= 1:
            return
        measured = [s for s in self.setups if any(p.setup is s for p in self.points)]
        setups, points = list(self.setups), list(self.points)
        for r in range(2, rounds + 1):
            for s in measured:
                c = Setup("%sr%d" % (s.sid, r), s.stack, s.spec, s.disks,
                          dict(s.params), {k: v for k, v in s.extras.items() if k != "mem"})
                setups.append(c)
                for p in self.points:
                    if p.setup is s:
                        q = Point(len(points), c, p.mode, p.key, p.jobs, p.fio,
                                  "%s (round %d/%d)" % (p.label, r, rounds), p.kind)
                        q.base, q.round = p.pid, r
                        points.append(q)
        self.setups, self.points = setups, points

    def keep_points(self, regex):
        """Keep only the points whose label matches REGEX (and their setups)."""
        import re
        self.points = [p for p in self.points if re.search(regex, p.label)]
        used = {p.setup.sid for p in self.points}
        self.setups = [s for s in self.setups if s.sid in used or s.extras.get("mem")]
        for i, p in enumerate(self.points):
            p.pid = p.base = i

    def drop_stacks(self, stacks):
        """Remove the setups (and their points) of STACKS (e.g. no smq build)."""
        self.setups = [s for s in self.setups if s.stack not in stacks]
        self.points = [p for p in self.points if p.setup.stack not in stacks]

    def text(self, setups=None):
        """The plan (or only SETUPS of it) as the guest runner reads it
        (tab-separated lines)."""
        lines = []
        for s in self.setups if setups is None else setups:
            extras = " ".join("%s=%s" % kv for kv in s.extras.items())
            lines.append("\t".join(["setup", s.sid, s.spec, str(s.disks), extras]))
            for p in self.points:
                if p.setup is s:
                    f = ["point", str(p.pid), s.sid, str(p.jobs), p.fio_args()]
                    lines.append("\t".join(f + ([p.kind] if p.kind else [])))
        return "\n".join(lines) + "\n"


def _spec(name, vars_):
    return name + ":" + ",".join("%s=%s" % kv for kv in vars_.items())


def smq(mq=True, hosts=1, tgts=1, luns=1, queues=1, tagset=0, irqmode=0,
        nsec=None, can_queue=None, cmd_per_lun=None, sched=None, size_mb=1024,
        poll_weight=None, poll_queues=None):
    """smq_sas with null backing (poll_weight: irqmode=3's irq_poll weight;
    poll_queues: smq_sas poll_queues, target variable POLL_QUEUES, and the
    setup's points poll: extra poll=1)."""
    v = {"MQ": "Y" if mq else "N", "BACKING": "null", "IRQMODE": irqmode,
         "HOSTS": hosts, "TGTS": tgts, "LUNS": luns, "QUEUES": queues,
         "TAGSET": tagset, "SIZE_MB": size_mb}
    if nsec is not None:
        v["NSEC"] = nsec
    opts = []
    if can_queue is not None:
        opts.append("can_queue=%d" % can_queue)
    if cmd_per_lun is not None:
        opts.append("cmd_per_lun=%d" % cmd_per_lun)
    if poll_weight is not None:
        opts.append("poll_weight=%d" % poll_weight)
    if poll_queues:
        v["POLL_QUEUES"] = poll_queues
    if opts:
        v["OPTS"] = " ".join(opts)
    params = {"hosts": hosts, "targets": tgts, "luns": luns, "queues": queues,
              "host_tagset": tagset, "irqmode": irqmode,
              "completion_nsec": nsec, "can_queue": can_queue or 192,
              "cmd_per_lun": cmd_per_lun or can_queue or 192,
              "use_blk_mq": "Y" if mq else "N", "sched": sched}
    if poll_weight is not None:
        params["poll_weight"] = poll_weight
    extras = {"sched": sched} if sched else {}
    if poll_queues:
        params["poll_queues"] = poll_queues
        extras["poll"] = 1
    return ("smq-mq" if mq else "smq-legacy", _spec("smq_sas", v),
            hosts * tgts * luns, params, extras)


def scsi_debug(hosts=1, luns=1, queues=1, can_queue=None, host_tagset=0,
               depth=None, ndelay=0, sched=None, size_mb=256, poll_queues=None):
    """scsi_debug + sd_mod, fake_rw=1; delay=0 (inline) unless ndelay.
    poll_queues: that many of the QUEUES submit queues are polled (QUEUES
    >= 2; scsi_debug completes a polled command inline with delay=0, so a
    polled setup needs NDELAY > 0 for its mq_poll to reap anything)."""
    opts = ["fake_rw=1", "add_host=%d" % hosts, "num_tgts=1",
            "max_luns=%d" % luns]
    if can_queue is not None:
        opts.append(("host_max_queue=%d" if host_tagset else "max_queue=%d")
                    % can_queue)
    v = {"NDELAY": ndelay, "QUEUES": queues, "SIZE_MB": size_mb,
         "OPTS": " ".join(opts)}
    if poll_queues:
        v["POLL_QUEUES"] = poll_queues
    params = {"hosts": hosts, "luns": luns, "queues": queues,
              "host_tagset": host_tagset, "can_queue": can_queue or 192,
              "queue_depth": depth, "ndelay": ndelay, "sched": sched}
    extras = {}
    if poll_queues:
        params["poll_queues"] = poll_queues
        extras["poll"] = 1
    if sched:
        extras["sched"] = sched
    if depth:
        extras["depth"] = depth
    return ("scsi_debug", _spec("scsi_debug", v), hosts * luns, params, extras)


def null_blk(devices=1, queues=1, depth=None, shared_tags=False,
             shared_bitmap=False, irqmode=0, nsec=None, sched=None, poll_queues=None):
    """null_blk (blk-mq), no memory backing; poll_queues: polled hardware
    queues besides the QUEUES submit queues (null_blk completes a polled
    request in its ->poll)."""
    opts = ["nr_devices=%d" % devices]
    if depth is not None:
        opts.append("hw_queue_depth=%d" % depth)
    if shared_tags:
        opts.append("shared_tags=1")
    if shared_bitmap:
        opts.append("shared_tag_bitmap=1")
    if nsec is not None:
        opts.append("completion_nsec=%d" % nsec)
    v = {"QUEUE_MODE": 2, "IRQMODE": irqmode, "QUEUES": queues,
         "OPTS": " ".join(opts)}
    if poll_queues:
        v["POLL_QUEUES"] = poll_queues
    params = {"devices": devices, "queues": queues, "hw_queue_depth": depth or 64,
              "shared_tags": int(shared_tags),
              "shared_tag_bitmap": int(shared_bitmap), "irqmode": irqmode,
              "completion_nsec": nsec, "sched": sched}
    extras = {"sched": sched} if sched else {}
    if poll_queues:
        params["poll_queues"] = poll_queues
        extras["poll"] = 1
    return ("null_blk", _spec("null_blk", v), devices, params, extras)


def nullbio(size_mb=1024):
    """The bench's bio driver (smq_nullbio.ko, target smq_nullbio): every bio
    ended in ->submit_bio; no queue, no scheduler."""
    return ("nullbio", _spec("smq_nullbio", {"SIZE_MB": size_mb}), 1,
            {"size_mb": size_mb}, {})


# ---- the RDMA stacks (tests/guest/targets/{smq_iser,ib_iser,nvme_rdma}.sh) --
# Each brings up, in the guest, soft-RoCE (rdma_rxe on a dummy netdev) and
# the target (LIO iSER with NULLIO backstores, or nvmet-rdma), then logs its
# initiator in; BENCH=1 (TARGET_BENCH=1) asks for the NULLIO backstores.

def smq_iser(mq=True, targets=1, luns=1, queues=1, qd=None, cmd_per_lun=None,
             sched=None):
    """smq_iser: TARGETS hosts (one iSER target each, QUEUES sessions per
    host = hardware queues) with LUNS LUNs each; QD: the host's queue depth
    (can_queue), CMD_PER_LUN: the LUNs' queue depth."""
    v = {"BENCH": 1, "MQ": "Y" if mq else "N", "TARGETS": targets, "LUNS": luns,
         "QUEUES": queues}
    if qd is not None:
        v["QD"] = qd
    if cmd_per_lun is not None:
        v["CMD_PER_LUN"] = cmd_per_lun
    params = {"hosts": targets, "targets": targets, "luns": luns, "queues": queues,
              "can_queue": qd, "cmd_per_lun": cmd_per_lun,
              "use_blk_mq": "Y" if mq else "N", "sched": sched}
    extras = {"sched": sched} if sched else {}
    return ("smq-iser-mq" if mq else "smq-iser-legacy", _spec("smq_iser", v),
            targets * luns, params, extras)


def ib_iser(targets=1, luns=1, sessions=1, qd=None, depth=None, sched=None):
    """The kernel's ib_iser (open-iscsi): TARGETS LIO targets, one session
    (SCSI host) each, or SESSIONS sessions to each (every LUN then appears
    once per session), LUNS LUNs per target. QD: the session's cmds_max
    (libiscsi's can_queue is cmds_max - 15, a power of two: 128 gives 113);
    DEPTH: every disk's device/queue_depth (the seed's cmd_per_lun)."""
    v = {"BENCH": 1, "TARGETS": targets, "LUNS": luns}
    if sessions != 1:
        v["SESSIONS"] = sessions
    if qd is not None:
        v["QD"] = qd
    params = {"hosts": targets * sessions, "targets": targets, "luns": luns,
              "sessions": sessions, "cmds_max": qd, "queue_depth": depth,
              "sched": sched}
    extras = {}
    if sched:
        extras["sched"] = sched
    if depth:
        extras["depth"] = depth
    return ("ib_iser", _spec("ib_iser", v), targets * luns * sessions, params, extras)


def smq_virtio(mq=True, sched=None):
    """smq_virtio on virtio-scsi controller vs0 (QEMU, raw-file disk,
    num_queues = vCPUs), the same controller the virtio_scsi setup uses."""
    v = {"MQ": "Y" if mq else "N"}
    if sched:
        v["SCHED"] = sched
    params = {"use_blk_mq": "Y" if mq else "N", "sched": sched}
    extras = {"sched": sched} if sched else {}
    return ("smq-mq" if mq else "smq-legacy", _spec("smq_virtio", v), 1, params, extras)


def virtio_scsi(sched=None):
    """Linux's virtio_scsi + sd on the same controller vs0 and image."""
    v = {"SCHED": sched} if sched else {}
    params = {"sched": sched or "default"}
    extras = {"sched": sched} if sched else {}
    return ("virtio_scsi", _spec("virtio_scsi", v) if v else "virtio_scsi", 1, params,
            extras)


def nvme_rdma(queues=1, qd=None, sched=None):
    """The kernel's nvme-rdma host against nvmet-rdma: one namespace,
    QUEUES I/O queues (nr_io_queues), QD entries each (queue_size)."""
    v = {"BENCH": 1, "QUEUES": queues}
    if qd is not None:
        v["QD"] = qd
    params = {"queues": queues, "queue_size": qd, "sched": sched}
    extras = {"sched": sched} if sched else {}
    return ("nvme_rdma", _spec("nvme_rdma", v), 1, params, extras)
