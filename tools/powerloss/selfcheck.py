#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""selfcheck.py DIR: powerloss.py's verdict on a boot, without a guest.

Replaces powerloss.py's run_boot() with boots whose output files are
written here, and checks what boot() makes of them:
  tcg-retry   a console with a stale text-patch int3 and no workload line:
              the boot is run once more and its first output kept in
              DIR.tcg-trap; the second boot's result counts;
  tcg-late    the same trap after the workloads started (PLRUN): no retry,
              the boot fails;
  oops        a guest Oops (not the emulator's): no retry, the boot fails;
  dmesg       a "PLDMESG bad" line (the guest's dmesg gate): the boot fails;
  clean       a power-cut boot with "PLDMESG ok": status 0, cut.
Prints "PASS/FAIL NAME" per case; exit status 1 if any failed.
"""
import os
import random
import sys
import types

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import powerloss  # noqa: E402

INT3 = "[    3.9] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n"
GPF = "[   12.0] Oops: general protection fault, probably for non-canonical address\n"


def fake_boots(boots):
    """A run_boot() that plays BOOTS in turn: (rc, console, output lines, cut)."""
    calls = []

    def run_boot(cmd, outdir):
        rc, console, lines, cut = boots[len(calls)]
        calls.append(outdir)
        os.makedirs(outdir, exist_ok=True)
        with open(os.path.join(outdir, "console.log"), "w") as f:
            f.write(console)
        with open(os.path.join(outdir, "host.log"), "w") as f:
            f.write("power cut: nbdkit and QEMU killed\n" if cut else "guest exited\n")
        return rc, lines
    return run_boot, calls


def case(top, name, boots, want_rc, want_cut, want_calls):
    outdir = os.path.join(top, name)
    run_boot, calls = fake_boots(boots)
    powerloss.run_boot = run_boot
    args = types.SimpleNamespace(rng=random.Random(1), delay=(1.0, 2.0), images=top,
                                 negative=False, kver="6.12", mods="")
    rc, cut, _ = powerloss.boot(args, 0, "Y:none:1", None, outdir, False)
    ok = (rc != 0) == (want_rc != 0) and cut == want_cut and len(calls) == want_calls
    if want_calls == 2:
        ok = ok and os.path.isfile(os.path.join(outdir + ".tcg-trap", "console.log"))
    print(f"{'PASS' if ok else 'FAIL'} {name}: status {rc}, cut {cut}, {len(calls)} boot(s)",
          flush=True)
    return ok


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "selfcheck.out")
    os.makedirs(top, exist_ok=True)
    good = (0, "", ["PLCFG x", "PLRUN vs0-fua raw 1 2", "PLDMESG ok"], True)
    results = [
        case(top, "tcg-retry", [(125, INT3, [], False), good], 0, True, 2),
        case(top, "tcg-late", [(125, INT3, ["PLRUN vs0-fua raw 1 2"], False)], 1, False, 1),
        case(top, "oops", [(125, GPF, [], False)], 1, False, 1),
        case(top, "dmesg", [(0, "", ["PLRUN vs0-fua raw 1 2",
                                     "PLDMESG bad WARNING: CPU: 0 PID: 1 at x"], True)],
             1, True, 1),
        case(top, "clean", [good], 0, True, 1),
    ]
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
