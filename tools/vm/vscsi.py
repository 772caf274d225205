#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""vscsi.py: the virtio-scsi controllers and disks of a guest (tools/vm/run.sh -V).

  vscsi.py setup WORK SPEC      create the disks (and nbdkit servers), print
                                QEMU's arguments, one per line
  vscsi.py host WORK LINE...    carry out one guest request (an SMQ-HOST line
                                of the control channel, without the prefix)
  vscsi.py serve WORK CTL LOG   follow the control channel's log CTL and carry
                                out each complete SMQ-HOST line (in order, each
                                in its own thread: a pause may wait), answers
                                to LOG; until killed
  vscsi.py teardown WORK        stop the nbdkit servers (kill -9: no flush)

SPEC: comma-separated VAR=VALUE (the target spec's variables):
  CTRLS    controllers vs0, vs1, ... (2: one for the driver under test, one
           for Linux's virtio_scsi beside it), at PCI slots 0x10, 0x11, ...
  VQUEUES  num_queues of each (default: the guest's vCPUs, -c)
  VLUNS    LUNs per controller, target 0, LUN 0..N-1 (1)
  VSIZE_MB size of each disk (256)
  NBD      1: every disk is served by nbdkit over a Unix socket, through the
           error, pause and cache=writeback filters (the cache keeps writes
           until a flush, like a disk's volatile cache)
  NBD_FUA  discard: add nbdkit's fua filter with fuamode=discard (flushes and
           FUA are dropped: the power-loss harness's negative control)
  KEEP     a directory: the disks' images live there and are kept (created
           only when missing), so that a later boot finds what the last one
           left on them (the power-loss harness, tools/powerloss/)
Each disk has serial vsC-lL (VPD page 0x80), so the guest can tell them apart;
its QEMU device id is vsC-lL, its drive vsC-lL-d.  WORK/vsC-spare.raw (same
size) is there for a LUN hot-added through QMP; QMP's "@WORK@" in a request
stands for WORK.

Guest requests (tests/guest/lib/virtio.sh's host_req):
  qmp JSON                      send a QMP command (answer in WORK/host.log)
  error C L on|off              nbdkit's error filter: every request of disk
                                C:L fails with EIO while on
  pause C L / resume C L        nbdkit's pause filter: requests of disk C:L
                                hang until resumed
  kill-nbd                      kill -9 every nbdkit (power loss of the disks)
  power-cut                     kill -9 every nbdkit, then QEMU (WORK/qemu.pid):
                                the power loss of the whole machine; leaves
                                WORK/power-cut for run.sh
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time


def parse_spec(spec):
    cfg = {"CTRLS": "2", "VQUEUES": "", "VLUNS": "1", "VSIZE_MB": "256",
           "NBD": "0", "NBD_FUA": "", "KEEP": ""}
    for kv in filter(None, spec.split(",")):
        if "=" not in kv:
            sys.exit(f"vscsi.py: bad spec item '{kv}'")
        k, v = kv.split("=", 1)
        if k in cfg:
            cfg[k] = v
    return cfg


def disk_name(c, lun):
    return f"vs{c}-l{lun}"


def start_nbd(work, c, lun, img, fua):
    name = disk_name(c, lun)
    sock = os.path.join(work, f"{name}.nbd")
    cmd = ["nbdkit", "-P", os.path.join(work, f"{name}.pid"), "-U", sock,
           "--filter=error", "--filter=pause"]
    if fua:
        cmd.append("--filter=fua")
    cmd += ["--filter=cache", "file", img, "cache=writeback",
            "error=EIO", "error-rate=100%",
            "error-file=" + os.path.join(work, f"{name}.error"),
            "pause-control=" + os.path.join(work, f"{name}.pause")]
    if fua:
        cmd.append("fuamode=" + fua)
    subprocess.run(cmd, check=True)
    for _ in range(100):
        if os.path.exists(sock):
            return sock
        time.sleep(0.05)
    sys.exit(f"vscsi.py: nbdkit for {name} did not start")


def setup(work, spec, cpus):
    cfg = parse_spec(spec)
    queues = cfg["VQUEUES"] or cpus
    args = ["-qmp", f"unix:{work}/qmp.sock,server=on,wait=off"]
    for c in range(int(cfg["CTRLS"])):
        args += ["-device", f"virtio-scsi-pci,id=vs{c},num_queues={queues},"
                 f"addr=0x{0x10 + c:x}"]
        for lun in range(int(cfg["VLUNS"])):
            name = disk_name(c, lun)
            img = os.path.join(cfg["KEEP"] or work, f"{name}.raw")
            if not (cfg["KEEP"] and os.path.exists(img)):
                with open(img, "wb") as f:
                    f.truncate(int(cfg["VSIZE_MB"]) << 20)
            if cfg["NBD"] == "1":
                sock = start_nbd(work, c, lun, img, cfg["NBD_FUA"])
                drive = f"file=nbd:unix:{sock},format=raw"
            else:
                drive = f"file={img},format=raw,aio=threads"
            args += ["-drive", f"{drive},if=none,id={name}-d,cache=none",
                     "-device", f"scsi-hd,id={name},drive={name}-d,"
                     f"bus=vs{c}.0,channel=0,scsi-id=0,lun={lun},"
                     f"serial={name}"]
        # A spare image per controller, for LUNs hot-added through QMP
        # (blockdev-add of WORK/vsC-spare.raw).
        with open(os.path.join(work, f"vs{c}-spare.raw"), "wb") as f:
            f.truncate(int(cfg["VSIZE_MB"]) << 20)
    print("\n".join(args))


def qmp(work, command):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(30)
    s.connect(os.path.join(work, "qmp.sock"))
    f = s.makefile("rw")
    f.readline()  # greeting
    replies = []
    for cmd in ({"execute": "qmp_capabilities"}, json.loads(command)):
        f.write(json.dumps(cmd) + "\n")
        f.flush()
        while True:
            msg = json.loads(f.readline())
            if "event" not in msg:
                replies.append(msg)
                break
    s.close()
    return replies[-1]


def pause(work, name, char):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(60)
    s.connect(os.path.join(work, f"{name}.pause"))
    s.sendall(char.encode())
    ack = s.recv(1)
    s.close()
    return ack.decode()


def kill_nbd(work):
    n = 0
    for f in os.listdir(work):
        if f.endswith(".pid"):
            try:
                with open(os.path.join(work, f)) as p:
                    os.kill(int(p.read()), signal.SIGKILL)
                n += 1
            except (OSError, ValueError):
                pass
    return n


def power_cut(work):
    n = kill_nbd(work)
    open(os.path.join(work, "power-cut"), "w").close()
    try:
        with open(os.path.join(work, "qemu.pid")) as p:
            os.kill(int(p.read()), signal.SIGKILL)
    except (OSError, ValueError) as e:
        return f"killed {n} nbdkit, QEMU: {e}"
    return f"killed {n} nbdkit and QEMU"


def host(work, words):
    verb = words[0] if words else ""
    if verb == "qmp":
        cmd = " ".join(words[1:]).replace("@WORK@", work)
        return json.dumps(qmp(work, cmd))
    if verb == "error" and len(words) == 4:
        path = os.path.join(work, f"{disk_name(words[1], words[2])}.error")
        if words[3] == "on":
            open(path, "w").close()
        elif os.path.exists(path):
            os.unlink(path)
        return f"error file {words[3]}"
    if verb in ("pause", "resume") and len(words) == 3:
        return pause(work, disk_name(words[1], words[2]),
                     "p" if verb == "pause" else "r")
    if verb == "kill-nbd":
        return f"killed {kill_nbd(work)}"
    if verb == "power-cut":
        return power_cut(work)
    return f"unknown request {' '.join(words)!r}"


def run_request(work, words, log):
    try:
        res = host(work, words)
    except (OSError, ValueError) as e:
        res = f"failed: {e}"
    with open(log, "a") as f:
        f.write(f"{time.strftime('%H:%M:%S')} {' '.join(words)}: {res}\n")


def serve(work, ctl, log):
    import threading
    pos, buf = 0, b""
    while True:
        try:
            with open(ctl, "rb") as f:
                f.seek(pos)
                data = f.read()
        except OSError:
            data = b""
        pos += len(data)
        buf += data
        *lines, buf = buf.split(b"\n")
        for raw in lines:
            line = raw.decode(errors="replace").strip("\r")
            if line.startswith("SMQ-HOST "):
                threading.Thread(target=run_request, daemon=True,
                                 args=(work, line.split()[1:], log)).start()
        time.sleep(0.1)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    verb, work = sys.argv[1], sys.argv[2]
    if verb == "setup":
        setup(work, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "2")
    elif verb == "host":
        try:
            print(f"{' '.join(sys.argv[3:])}: {host(work, sys.argv[3:])}",
                  flush=True)
        except (OSError, ValueError) as e:
            print(f"{' '.join(sys.argv[3:])}: failed: {e}", flush=True)
    elif verb == "serve":
        serve(work, sys.argv[3], sys.argv[4])
    elif verb == "teardown":
        kill_nbd(work)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
