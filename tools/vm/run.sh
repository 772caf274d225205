#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [options] [--] COMMAND...: boot a QEMU (TCG) guest on a Debian kernel,
# run COMMAND in it (busybox sh, in /smq, which holds tests/guest/, tools/bench/
# and tools/vm/guest/ of this tree, and bin/smq-helper, compiled here from
# tests/guest/helpers/smq-helper.c; smq's modules are installed under
# /lib/modules/<release>/updates/smq/), and exit with COMMAND's status.
#
#   -k SPEC     guest kernel: 6.1, 6.12 (default) or a full release
#   -c N        vCPUs (default 2)            -m MIB   memory (default 2048)
#   -t SECS     wall-clock limit for the whole guest (default 900); a guest
#               still running then is killed and reported (exit status 124)
#   -o DIR      output directory (default results/vm/<time>-<release>):
#               console.log, ctl.log, output.txt (SMQ-OUT lines, e.g. test
#               verdicts) and results/ (the guest's /results)
#   -s FILE     run FILE (a sh script, copied into the guest) instead of COMMAND
#   -e VAR=VAL  export VAR into the guest (repeatable)
#   -M DIR      directory of smq modules (default build/<release>, from its
#               modules.order); -M none ships none
#   -a ARGS     extra kernel command line
#   -g PORT     QEMU's gdbstub on 127.0.0.1:PORT (the bench's --profile)
#   -q          do not stream the console here (it is still logged)
#   -V SPEC     virtio-scsi controllers and disks (tools/vm/vscsi.py: CTRLS,
#               VQUEUES, VLUNS, VSIZE_MB, NBD, NBD_FUA, KEEP) and a QMP socket; the
#               guest's "SMQ-HOST ..." control lines are carried out by
#               vscsi.py (log: host.log in the output directory)
#   -I DIR      copy DIR's files into the guest's /smq/in/
#
# Exit status: COMMAND's; 124 if the guest hit the time limit; 125 if it
# stopped without reporting a status (panic, crash); 2 for usage errors;
# 0 when the guest asked for a power cut (SMQ-HOST power-cut) and got it
# ("power cut" is logged; the acknowledgements are in output.txt).
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

SHIP_DIRS=(tests/guest tools/vm/guest tools/bench)
# Compiled on the host (cc -static) into /smq/bin/, on the guest's PATH: the
# tests' helper and the passthrough tool (tools/ptio).
HELPER_SRC=tests/guest/helpers/smq-helper.c
PTIO_SRC=tools/ptio/smq-ptio.c
PLW_SRC=tools/powerloss/smq-plw.c
BASE_APPEND="console=ttyS0 quiet panic=-1 log_buf_len=8M"

usage() { sed -n '4,33s/^# \{0,1\}//p' "$0" >&2; exit 2; }

spec="$SMQ_DEFAULT_KVER" cpus=2 mem=2048 limit=900 out="" script="" mods=""
append="" quiet=0 gdb=() vspec="" indir=""
envs=()
while getopts ":k:c:m:t:o:s:e:M:a:g:V:I:qh" opt; do
	case "$opt" in
	k) spec="$OPTARG" ;;
	c) cpus="$OPTARG" ;;
	m) mem="$OPTARG" ;;
	t) limit="$OPTARG" ;;
	o) out="$OPTARG" ;;
	s) script="$OPTARG" ;;
	e) envs+=("$OPTARG") ;;
	M) mods="$OPTARG" ;;
	a) append="$OPTARG" ;;
	g) gdb=(-gdb "tcp:127.0.0.1:$OPTARG") ;;
	q) quiet=1 ;;
	V) vspec="$OPTARG" ;;
	I) indir="$OPTARG" ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ -n "$script" || $# -gt 0 ]] || usage

rel="$(smq_guest_release "$spec")" ||
	smq_die "no guest kernel for '$spec' in $SMQ_CACHE/kernels; run tools/vm/setup-host.sh"
kroot="$(smq_kernel_dir "$rel")"
out="${out:-$SMQ_RESULTS/vm/$(smq_timestamp)-$rel}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
[[ -n "$mods" ]] || mods="$SMQ_TREE/build/$rel"

base="$("$SMQ_TOOLS/vm/mkimage.sh" "$rel")"
work="$(mktemp -d)"
qpid="" spid=""
# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
	[[ -z "$qpid" ]] || kill "$qpid" 2>/dev/null || true
	[[ -z "$spid" ]] || kill "$spid" 2>/dev/null || true
	[[ -z "$vspec" ]] || "$SMQ_TOOLS/vm/vscsi.py" teardown "$work" || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'smq_log "interrupted"; exit 130' INT TERM

sq() { printf "'%s'" "${1//\'/\'\\\'\'}"; } # quote for sh

# guest_program SRC ROOT [CFLAGS...]: compile SRC (cc -static) into ROOT/smq/bin/.
# The binary is kept in $SMQ_CACHE/guest-bin/, keyed by the source, the flags
# and the compiler, so a boot compiles only what changed.
guest_program() {
	local src="$1" root="$2" name key bin
	shift 2
	name="$(basename "$src" .c)"
	key="$({ cat "$SMQ_TREE/$src"; echo "$*"; cc --version; } | sha256sum | cut -c1-16)"
	bin="$SMQ_CACHE/guest-bin/$name-$key"
	if [[ ! -x "$bin" ]]; then
		mkdir -p "$SMQ_CACHE/guest-bin"
		cc -static -O2 "$@" -Wall -Wextra -Werror -o "$work/$name" "$SMQ_TREE/$src" ||
			smq_die "cannot compile $src (needs a static libc: libc6-dev)"
		install -m 755 "$work/$name" "$bin.tmp.$$" && mv -f "$bin.tmp.$$" "$bin"
	fi
	install -m 755 "$bin" "$root/smq/bin/$name"
}

# The per-boot archive: /init, /smq (command, env, guest-side tree) and smq's
# modules. The kernel unpacks it over the base image.
make_overlay() {
	local root="$work/root" d m e n=0
	mkdir -p "$root/smq"
	install -m 755 "$SMQ_TOOLS/vm/guest/init.sh" "$root/init"
	for d in "${SHIP_DIRS[@]}"; do
		[[ -d "$SMQ_TREE/$d" ]] || continue
		mkdir -p "$root/smq/$d"
		cp -r "$SMQ_TREE/$d/." "$root/smq/$d/"
	done
	# The guest's static programs, built for this boot.
	mkdir -p "$root/smq/bin"
	guest_program "$HELPER_SRC" "$root"
	guest_program "$PTIO_SRC" "$root" -pthread
	guest_program "$PLW_SRC" "$root" -pthread
	if [[ -n "$indir" ]]; then
		mkdir -p "$root/smq/in"
		cp -r "$indir/." "$root/smq/in/"
	fi
	if [[ -n "$script" ]]; then
		cp "$script" "$root/smq/cmd"
	else
		printf '%s\n' "$*" >"$root/smq/cmd"
	fi
	for e in "${envs[@]}"; do
		[[ "$e" == [A-Za-z_]*=* ]] || smq_die "bad -e '$e' (want VAR=VALUE)"
		printf 'export %s=%s\n' "${e%%=*}" "$(sq "${e#*=}")"
	done >"$root/smq/env"
	if [[ "$mods" != none && -d "$mods" ]]; then
		while IFS= read -r m; do
			mkdir -p "$root/lib/modules/$rel/updates/smq/$(dirname "$m")"
			cp "$mods/$m" "$root/lib/modules/$rel/updates/smq/$m"
			n=$((n + 1))
		done < <(smq_built_modules "$mods")
	fi
	smq_log "guest $rel: $n smq module(s), ${cpus} vCPUs, ${mem} MiB, limit ${limit}s, output $out"
	(cd "$root" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner 0:0 --quiet) | zstd -q -1 >"$work/overlay.cpio.zst"
	cat "$base" "$work/overlay.cpio.zst" >"$work/initrd"
}

# Seconds a guest may take, after its command ended, to ship its results and
# power off (a kernel with a stuck CPU may never manage).
SHIP_GRACE="${SMQ_SHIP_GRACE:-120}"

# Boot the guest under a wall-clock limit; sets $qrc.
boot() {
	local con
	local -a vdev=()
	local vargs
	if [[ -n "$vspec" ]]; then
		vargs="$("$SMQ_TOOLS/vm/vscsi.py" setup "$work" "$vspec" "$cpus")" ||
			smq_die "cannot set up the virtio-scsi disks ($vspec)"
		mapfile -t vdev <<<"$vargs"
		: >"$out/host.log"
		"$SMQ_TOOLS/vm/vscsi.py" serve "$work" "$out/ctl.log" "$out/host.log" &
		spid=$!
	fi
	if ((quiet)); then
		con="file,id=con,path=$out/console.log"
	else
		con="stdio,id=con,signal=off,logfile=$out/console.log"
	fi
	: >"$out/ctl.log"
	timeout -k 10 "$limit" qemu-system-x86_64 \
		-accel tcg,thread=multi -cpu max -smp "$cpus" -m "$mem" \
		-kernel "$kroot/boot/vmlinuz-$rel" -initrd "$work/initrd" \
		-append "$BASE_APPEND $append" \
		-nographic -no-reboot -nodefaults -bios qboot.rom \
		-chardev "$con" -serial chardev:con \
		-chardev "file,id=ctl,path=$out/ctl.log" -serial chardev:ctl \
		-pidfile "$work/qemu.pid" "${vdev[@]}" "${gdb[@]}" </dev/null &
	qpid=$!
	# Wait; once the command has ended, give the guest SHIP_GRACE seconds.
	local ended=""
	while kill -0 "$qpid" 2>/dev/null; do
		if [[ -z "$ended" ]] && grep -q '^SMQ-STATUS ' "$out/ctl.log" 2>/dev/null; then
			ended=$SECONDS
		fi
		if [[ -n "$ended" ]] && ((SECONDS - ended > SHIP_GRACE)); then
			kill "$qpid" 2>/dev/null || true
			break
		fi
		sleep 1
	done
	qrc=0
	wait "$qpid" || qrc=$?
	qpid=""
}

# Decode the control channel: results archive and exit status.
collect() {
	local ctl="$work/ctl"
	tr -d '\r' <"$out/ctl.log" >"$ctl"
	if grep -qx SMQ-RESULTS-END "$ctl"; then
		mkdir -p "$out/results"
		sed -n '/^SMQ-RESULTS-BEGIN$/,/^SMQ-RESULTS-END$/{/^SMQ-RESULTS-/d;p}' "$ctl" |
			base64 -d | tar -xzf - -C "$out/results" ||
			smq_log "warning: could not unpack the guest's results"
	fi
	grep -q '^SMQ-BOOTED ' "$ctl" && booted=1 || booted=0
	sed -n 's/^SMQ-OUT //p' "$ctl" >"$out/output.txt"
	status="$(sed -n 's/^SMQ-EXIT \([0-9]*\)$/\1/p' "$ctl" | tail -n 1)"
	cmd_status="$(sed -n 's/^SMQ-STATUS \([0-9]*\)$/\1/p' "$ctl" | tail -n 1)"
}

make_overlay "$@"
start=$SECONDS
boot
elapsed=$((SECONDS - start))
booted=0 status="" cmd_status=""
collect
if [[ -e "$work/power-cut" ]]; then
	smq_log "power cut, as the guest asked (${elapsed}s; acknowledgements in $out/output.txt)"
	exit 0
fi
if [[ -n "$status" ]]; then
	smq_log "guest exit status $status (${elapsed}s)"
	exit "$status"
fi
if [[ -n "$cmd_status" ]]; then
	smq_log "guest command status $cmd_status, but the guest then hung (killed after ${SHIP_GRACE}s; results may be missing; console: $out/console.log)"
	exit "$cmd_status"
fi
if ((qrc == 124 || qrc == 137)); then
	if ((booted)); then
		smq_log "FAIL: TIMEOUT: the guest did not finish within ${limit}s and was killed (console: $out/console.log)"
	else
		smq_log "FAIL: TIMEOUT: the guest did not boot within ${limit}s and was killed (console: $out/console.log)"
	fi
	exit 124
fi
smq_log "FAIL: the guest stopped without reporting a status (qemu status $qrc, ${elapsed}s; kernel panic?); console tail:"
tail -n 25 "$out/console.log" >&2 || true
exit 125
