#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""powerloss.py: power cuts of a guest whose disks have a volatile cache.

  powerloss.py [-n N] [-k KVER] [-o DIR] [--configs LIST] [--negative]
               [--delay MIN,MAX] [--seed S]

N boots (tools/vm/run.sh -s tools/powerloss/guest.sh) on the same disk
images (vscsi.py KEEP=): two virtio-scsi controllers, vs0 driven by
smq_virtio, vs1 by Linux's virtio_scsi + sd, 4 LUNs each (raw FUA writes,
raw write + flush, ext4, xfs), every disk served by nbdkit with
cache=writeback.  Each boot checks what the previous one acknowledged (on
Linux's driver), then runs the workloads on both controllers at once and,
after a random delay, kill -9s nbdkit and QEMU (the power cut, the same
moment for both stacks).  A last boot only checks.

--configs: comma-separated MQ:SCHED:WCE (MQ Y or N, SCHED none or
mq-deadline (legacy: noop, deadline), WCE 1 or 0: cache_type "write
through"), taken in turn; default all eight.  Linux's disks get the same
SCHED and WCE.  --negative: nbdkit's fua filter drops flushes and FUA
(NBD_FUA=discard): loss MUST be seen, or the harness cannot see loss.

Prints a table per configuration (cuts, acknowledged records/operations
checked, lost, torn, fsck failures) and writes DIR/results.json.  Exit
status 0: no loss anywhere (or, with --negative, loss seen in at least half
the cuts of each stack); 1 otherwise.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALL_CONFIGS = [f"{mq}:{s}:{w}" for mq in "YN" for s in ("none", "mq-deadline")
               for w in "10"]


def stack_key(ctrl, cfg):
    mq, sched, wce = cfg.split(":")
    if ctrl == "vs1":
        return f"linux {sched} wce={wce}"
    path = "mq" if mq == "Y" else "legacy"
    return f"smq-{path} {sched} wce={wce}"


def boot(args, n, cfg, indir, outdir, check_only):
    mq, sched, wce = cfg.split(":")
    delay = args.rng.uniform(*args.delay)
    spec = f"CTRLS=2,VQUEUES=2,VLUNS=4,VSIZE_MB=320,NBD=1,KEEP={args.images}"
    if args.negative:
        spec += ",NBD_FUA=discard"
    cmd = [os.path.join(TREE, "tools/vm/run.sh"), "-q", "-k", args.kver,
           "-t", "400", "-o", outdir, "-V", spec,
           "-s", os.path.join(TREE, "tools/powerloss/guest.sh"),
           "-e", f"PL_MQ={mq}", "-e", f"PL_SCHED={sched}",
           "-e", f"PL_WCE={wce}", "-e", f"PL_DELAY={delay:.2f}",
           "-e", f"PL_RUN={args.rng.getrandbits(48)}",
           "-e", f"PL_CHECK_ONLY={1 if check_only else 0}"]
    if indir:
        cmd += ["-I", indir]
    if args.mods:
        cmd += ["-M", args.mods]
    t0 = time.time()
    rc, lines = run_boot(cmd, outdir)
    if rc != 0 and tcg_broke(outdir) and not any(ln.startswith("PLRUN") for ln in lines):
        # The emulated CPU went wrong before any workload ran: nothing was
        # acknowledged and nothing cut, so the same boot is run once more.
        shutil.rmtree(outdir + ".tcg-trap", ignore_errors=True)
        os.rename(outdir, outdir + ".tcg-trap")
        print(f"boot {n}: RETRY guest: TCG broke before the workloads "
              f"({outdir}.tcg-trap)", flush=True)
        rc, lines = run_boot(cmd, outdir)
    cut = False
    try:
        with open(os.path.join(outdir, "host.log")) as f:
            cut = "killed" in f.read() and not check_only
    except OSError:
        pass
    try:
        with open(os.path.join(outdir, "console.log"), errors="replace") as f:
            oops = re.search(r"(WARNING:|BUG:|Oops|soft lockup|hung_task|blocked for more)",
                             f.read())
    except OSError:
        oops = None
    if oops:
        print(f"boot {n}: kernel reported '{oops.group(1)}' (console.log)")
        rc = rc or 1
    for ln in lines:
        if ln.startswith("PLDMESG bad"):
            print(f"boot {n}: dmesg gate: {ln[len('PLDMESG bad '):]}")
            rc = rc or 1
    what = "check" if check_only else f"cut after {delay:.1f}s"
    print(f"boot {n}: {cfg} {what}: status {rc}, {time.time() - t0:.0f}s", flush=True)
    return rc, cut, lines


def run_boot(cmd, outdir):
    """Runs one guest boot; its status and its SMQ-OUT lines."""
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT).returncode
    try:
        with open(os.path.join(outdir, "output.txt"), errors="replace") as f:
            return rc, [ln.rstrip("\n") for ln in f]
    except OSError:
        return rc, []


def tcg_broke(outdir):
    """True (and says why) if the boot's console shows QEMU's TCG broke."""
    r = subprocess.run([os.path.join(TREE, "tools/vm/tcg-broke.sh"),
                        os.path.join(outdir, "console.log")],
                       capture_output=True, text=True)
    if r.returncode == 0:
        print(f"powerloss: {r.stdout.strip()}")
    return r.returncode == 0


def entry(stats, ctrl, cfg, kind):
    """The counters of workload KIND on controller CTRL's stack under CFG."""
    return stats.setdefault(stack_key(ctrl, cfg), {}).setdefault(
        kind, {"cuts": 0, "checked": 0, "lost": 0, "torn": 0, "fsck": 0})


def tally(stats, prev_cfg, lines):
    """Adds a boot's PLCHECK/PLFSCK lines (about the previous cut)."""
    bad = {}
    for ln in lines:
        m = re.match(r"PLCHECK (vs\d)-(\S+) checked (\d+) lost (\d+) torn (\d+)", ln)
        f = re.match(r"PLFSCK (vs\d)-(\S+) (\S+)", ln)
        if m:
            ctrl = m.group(1)
            s = entry(stats, ctrl, prev_cfg, m.group(2))
            s["cuts"] += 1
            s["checked"] += int(m.group(3))
            s["lost"] += int(m.group(4))
            s["torn"] += int(m.group(5))
            if int(m.group(4)) or int(m.group(5)):
                bad[ctrl] = True
        elif f and f.group(3) != "ok":
            ctrl = f.group(1)
            s = entry(stats, ctrl, prev_cfg, f.group(2))
            s["fsck"] += 1
            if f.group(3) != "fail":
                s["cuts"] += 1  # no PLCHECK line will follow
            bad[ctrl] = True
    return bad


def table(stats):
    rows = ["configuration                  workload  cuts  checked     lost   torn  fsck-fail"]
    for key in sorted(stats):
        for kind in ("fua", "flush", "ext4", "xfs"):
            s = stats[key].get(kind)
            if s:
                rows.append(f"{key:30} {kind:8} {s['cuts']:5} {s['checked']:8} "
                            f"{s['lost']:8} {s['torn']:6} {s['fsck']:10}")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=8, help="power cuts (boots: N + 1)")
    ap.add_argument("-k", dest="kver", default="6.12")
    ap.add_argument("-o", dest="out", default="")
    ap.add_argument("-M", dest="mods", default="")
    ap.add_argument("--configs", default=",".join(ALL_CONFIGS))
    ap.add_argument("--negative", action="store_true")
    ap.add_argument("--delay", default="2,8")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    args = ap.parse_args()
    configs = args.configs.split(",")
    for c in configs:
        if not re.fullmatch(r"[YN]:(none|mq-deadline):[01]", c):
            sys.exit(f"powerloss.py: bad configuration '{c}' (MQ:SCHED:WCE)")
    args.delay = tuple(float(x) for x in args.delay.split(","))
    args.rng = random.Random(args.seed)
    args.out = os.path.abspath(args.out or os.path.join(
        TREE, "results/powerloss", time.strftime("%Y%m%d-%H%M%S")))
    args.images = os.path.join(args.out, "images")
    os.makedirs(args.images, exist_ok=True)
    print(f"powerloss: {args.n} cuts, seed {args.seed}, configurations {args.configs}"
          f"{', negative control (flushes and FUA dropped)' if args.negative else ''}"
          f", output {args.out}", flush=True)
    stats, failures, cuts_bad = {}, [], {"vs0": 0, "vs1": 0}
    indir, prev = None, None
    for n in range(args.n + 1):
        cfg = configs[n % len(configs)] if n < args.n else prev
        outdir = os.path.join(args.out, f"boot{n:03}")
        rc, cut, lines = boot(args, n, cfg, indir, outdir, n == args.n)
        if prev is not None:
            checks = [ln for ln in lines if ln.startswith(("PLCHECK", "PLFSCK"))]
            if len(set(re.sub(r"^\S+ (\S+).*", r"\1", ln) for ln in checks)) < 8:
                failures.append(f"boot {n}: checked {len(checks)} lines, not all 8 disks")
            for ctrl in tally(stats, prev, lines):
                cuts_bad[ctrl] += 1
        if n < args.n and (rc != 0 or not cut):
            why = f"failed (status {rc})" if rc != 0 else "no power cut"
            failures.append(f"boot {n}: {why}; {outdir}")
            break
        if n == args.n and rc != 0:
            failures.append(f"boot {n}: check boot failed (status {rc}; {outdir})")
        indir = os.path.join(args.out, f"acks{n:03}")
        os.makedirs(indir, exist_ok=True)
        with open(os.path.join(indir, "acks"), "w") as f:
            f.write("\n".join(ln for ln in lines if ln.startswith(("PLRUN", "PLACK", "PLCFG"))))
            f.write("\n")
        prev = cfg
    shutil.rmtree(args.images, ignore_errors=True)
    print(table(stats))
    print(f"cuts with loss or fsck failures: smq {cuts_bad['vs0']}, Linux {cuts_bad['vs1']}"
          f" of {args.n}")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"seed": args.seed, "cuts": args.n, "negative": args.negative,
                   "configs": configs, "stats": stats, "cuts_bad": cuts_bad,
                   "failures": failures}, f, indent=1)
    for msg in failures:
        print(f"FAIL: {msg}")
    if failures:
        return 1
    if args.negative:
        ok = all(cuts_bad[c] * 2 >= args.n for c in cuts_bad)
        print("negative control: " + ("loss seen, as it must be" if ok else
                                      "FAIL: too little loss seen: the harness is blind"))
        return 0 if ok else 1
    return 1 if any(cuts_bad.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
