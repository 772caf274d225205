# SPDX-License-Identifier: GPL-2.0
"""A sampling profiler for a QEMU (TCG) guest, through QEMU's gdbstub.

The guest has no perf (TCG has no PMU, and shipping perf would double the
image), so the host samples instead: every PERIOD it stops the guest (the
remote protocol's interrupt), reads every vCPU's instruction pointer and lets
it go on. The guest dumps /proc/kallsyms; Symbols.lookup() turns the
addresses into functions. Under TCG a sample counts where the emulated CPU spends
host time, which follows guest instruction counts closely enough to rank a
data path's functions, not to time them.

Only the gdb remote serial protocol's basics are used (with acks: QEMU 7.2
has no no-ack mode): qfThreadInfo/qsThreadInfo, Hg, g (the registers), c, D
and the interrupt byte."""

import bisect
import socket
import threading
import time

RIP = 16  # rip's place in gdb's x86-64 register file (8-byte registers before it)


class Rsp:
    """A gdb remote protocol connection."""

    def __init__(self, port, host="127.0.0.1", timeout=10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        # many tiny packets: no Nagle (40 ms per exchange with delayed acks)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        # QEMU stops the guest when a debugger connects and says so with a
        # stop reply of its own: take it before the first command.
        self.sock.settimeout(2.0)
        try:
            self._recv_packet()
        except socket.timeout:
            pass
        self.sock.settimeout(timeout)

    def _write(self, data):
        # no SIGPIPE if QEMU is gone (bench runs with SIGPIPE's default)
        self.sock.sendall(data, socket.MSG_NOSIGNAL)

    def _send(self, data):
        body = data.encode()
        self._write(b"$" + body + b"#%02x" % (sum(body) & 0xff))

    def _recv_packet(self):
        while True:
            start = self.buf.find(b"$")
            if start >= 0:
                end = self.buf.find(b"#", start)
                if end >= 0 and len(self.buf) >= end + 3:
                    pkt = self.buf[start + 1:end]
                    self.buf = self.buf[end + 3:]
                    self._write(b"+")  # QEMU 7.2 has no no-ack mode
                    return pkt.decode(errors="replace")
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("gdbstub closed the connection")
            self.buf += data

    def command(self, data):
        self._send(data)
        return self._recv_packet()

    def stop(self):
        """Interrupt the running guest; wait for the stop reply."""
        self._write(b"\x03")
        return self._recv_packet()

    def cont(self):
        self._send("c")

    def threads(self):
        out, reply = [], self.command("qfThreadInfo")
        while reply.startswith("m"):
            out += [t for t in reply[1:].split(",") if t]
            reply = self.command("qsThreadInfo")
        return out

    def pc(self, thread):
        if self.command("Hg" + thread) != "OK":
            return None
        # all registers ('p', one register, needs target XML in QEMU 7.2)
        reply = self.command("g")
        hexpc = reply[RIP * 16:RIP * 16 + 16]
        if len(hexpc) != 16:
            return None
        try:
            return int.from_bytes(bytes.fromhex(hexpc), "little")
        except ValueError:
            return None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Sampler:
    """Samples every vCPU's pc every PERIOD s in a thread; the samples go to
    the current label (set with begin(), cleared with end())."""

    def __init__(self, port, period=0.01):
        self.port = port
        self.period = period
        self.label = None
        self.samples = {}  # label -> [pc, ...]
        self.error = None
        self.lock = threading.Lock()  # protects label and samples
        self.done = threading.Event()
        self.thread = None

    def begin(self, label):
        with self.lock:
            self.label = label
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()

    def end(self):
        with self.lock:
            self.label = None

    def close(self):
        self.done.set()
        if self.thread:
            self.thread.join(timeout=30)

    def _connect(self):
        deadline = time.time() + 30
        while True:
            try:
                return Rsp(self.port)
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)

    def _run(self):
        try:
            rsp = self._connect()
        except (OSError, ConnectionError) as e:
            self.error = "cannot reach the gdbstub on port %d: %s" % (self.port, e)
            return
        try:
            threads = rsp.threads()  # connecting stopped the guest
            rsp.cont()
            while not self.done.is_set():
                time.sleep(self.period)
                with self.lock:
                    label = self.label
                if label is None:
                    continue
                rsp.stop()
                pcs = [rsp.pc(t) for t in threads]
                rsp.cont()
                with self.lock:
                    self.samples.setdefault(label, []).extend(
                        pc for pc in pcs if pc is not None)
            rsp.command("D")  # detach: the guest runs on
        except (OSError, ConnectionError) as e:
            if not self.done.is_set():
                self.error = "gdbstub: %s" % e
        finally:
            rsp.close()


IDLE = ("default_idle", "native_safe_halt", "pv_native_safe_halt", "mwait_idle",
        "acpi_safe_halt", "cpu_idle_poll", "default_idle_call", "acpi_idle_do_entry")


def parse_kallsyms(text):
    """The text symbols of /proc/kallsyms lines ("ADDR t NAME [MODULE]"),
    sorted: [(addr, name, module or "kernel"), ...]."""
    syms = []
    for line in (text or "").splitlines():
        f = line.split()
        if len(f) < 3 or f[1] not in ("t", "T", "w", "W"):
            continue
        try:
            addr = int(f[0], 16)
        except ValueError:
            continue
        if addr:
            syms.append((addr, f[2], f[3].strip("[]") if len(f) > 3 else "kernel"))
    syms.sort()
    return syms


class Symbols:
    """Address lookup over lists of parse_kallsyms() (each sorted)."""

    def __init__(self, *lists):
        # sorted runs: the sort merges them in linear time
        self.syms = sorted(s for lst in lists for s in lst)
        self.addrs = [s[0] for s in self.syms]

    def lookup(self, pc):
        """(function, module) of PC."""
        if pc < 0x8000000000000000:
            return ("[user]", "user")
        i = bisect.bisect_right(self.addrs, pc) - 1
        if i < 0:
            return ("[unknown]", "unknown")
        _, name, mod = self.syms[i]
        if name in IDLE:
            return (name, "idle")
        return (name, mod)


def profile(names, top=None):
    """Profile of NAMES ((function, module) per sample, Symbols.lookup):
    {"samples": n, "modules": {mod: pct}, "functions": [[name, module,
    pct], ...] (the most sampled first; the TOP of them, or all)}."""
    if not names:
        return {"samples": 0, "modules": {}, "functions": []}
    funcs, mods = {}, {}
    for name, mod in names:
        funcs[(name, mod)] = funcs.get((name, mod), 0) + 1
        mods[mod] = mods.get(mod, 0) + 1
    n = float(len(names))
    ranked = sorted(funcs.items(), key=lambda kv: -kv[1])[:top]  # [:None]: all
    return {"samples": len(names),
            "modules": {m: round(100 * c / n, 1)
                        for m, c in sorted(mods.items(), key=lambda kv: -kv[1])},
            "functions": [[name, mod, round(100 * c / n, 1)] for (name, mod), c in ranked]}
