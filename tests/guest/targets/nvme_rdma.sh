# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target nvme_rdma: the ceiling of the iSER figures. The kernel's NVMe over
# RDMA host (nvme_rdma, `nvme connect`) to nvmet's RDMA port 10.0.0.1:4420
# over the same soft-RoCE wire as the iSER targets (tests/guest/lib/iser.sh),
# one subsystem nqn.2026-12.org.smq:nvme0 with a null_blk namespace.
# Parameters (spec nvme_rdma:VAR=VALUE,...):
#   QUEUES   nvme connect --nr-io-queues (the guest's CPU count)
#   QD       nvme connect --queue-size (128; nvme_rdma's maximum)
#   SIZE_GB  the null_blk namespace's size (1)
# DEV=/dev/nvme0n1 (the new NVMe disk); not SCSI. null_blk keeps data
# (memory_backed=1) unless TARGET_BENCH=1.

. "$SMQ_GUEST_DIR/lib/iser.sh"

NVMET=/sys/kernel/config/nvmet
NVME_NQN=nqn.2026-12.org.smq:nvme0
NVME_PORT=4420

# nvme_new_ns BEFORE: print a new NVMe namespace disk (with its /dev node).
nvme_new_ns() {
	for _nn in /sys/block/nvme*n*; do
		_nn=${_nn##*/}
		case "$_nn" in nvme*c*) continue ;; esac
		case " $1 " in *" $_nn "*) continue ;; esac
		[ -b "/dev/$_nn" ] && { say "$_nn"; return 0; }
	done
	return 1
}

target_up() {
	_nr_gb=${TARGET_SIZE_GB:-1}
	_nr_mem=1
	[ "${TARGET_BENCH:-0}" = 1 ] && _nr_mem=0
	iser_mods_present nvmet_rdma nvme_rdma null_blk && command -v nvme >/dev/null ||
		return 77
	[ -d "/sys/module/null_blk" ] && { say "null_blk is already loaded"; return 1; }
	iser_wire_up || return 1
	modprobe null_blk nr_devices=1 queue_mode=2 "gb=$_nr_gb" "memory_backed=$_nr_mem" ||
		return 1
	wait_until 10 test -b /dev/nullb0 || { say "no /dev/nullb0"; return 1; }
	for _nr_m in nvmet nvmet_rdma nvme_rdma; do
		modprobe "$_nr_m" || { say "modprobe $_nr_m failed"; return 1; }
	done
	_nr_s=$NVMET/subsystems/$NVME_NQN
	_nr_p=$NVMET/ports/1
	{
		mkdir -p "$_nr_s/namespaces/1" &&
			say 1 >"$_nr_s/attr_allow_any_host" &&
			say /dev/nullb0 >"$_nr_s/namespaces/1/device_path" &&
			say 1 >"$_nr_s/namespaces/1/enable" &&
			mkdir -p "$_nr_p" &&
			say rdma >"$_nr_p/addr_trtype" &&
			say ipv4 >"$_nr_p/addr_adrfam" &&
			say "$ISER_IP" >"$_nr_p/addr_traddr" &&
			say "$NVME_PORT" >"$_nr_p/addr_trsvcid" &&
			ln -s "$_nr_s" "$_nr_p/subsystems/$NVME_NQN"
	} || { say "cannot configure nvmet"; return 1; }
	mkdir -p /etc/nvme
	[ -s /etc/nvme/hostid ] || cat /proc/sys/kernel/random/uuid >/etc/nvme/hostid
	[ -s /etc/nvme/hostnqn ] ||
		say "nqn.2014-08.org.nvmexpress:uuid:$(cat /etc/nvme/hostid)" >/etc/nvme/hostnqn
	_nr_before=$(list_disks)
	say "nvme connect -t rdma -a $ISER_IP -s $NVME_PORT -n $NVME_NQN" \
		"--nr-io-queues=${TARGET_QUEUES:-$(nproc)} --queue-size=${TARGET_QD:-128}"
	nvme connect -t rdma -a "$ISER_IP" -s "$NVME_PORT" -n "$NVME_NQN" \
		--hostnqn="$(cat /etc/nvme/hostnqn)" --hostid="$(cat /etc/nvme/hostid)" \
		--nr-io-queues="${TARGET_QUEUES:-$(nproc)}" --queue-size="${TARGET_QD:-128}" ||
		return 1
	# The namespace's disk; its path device nvmeXcYnZ (native multipath)
	# is hidden, with no /dev node.
	wait_until 30 nvme_new_ns "$_nr_before" || { say "no NVMe disk appeared"; return 1; }
	DEV=/dev/$(nvme_new_ns "$_nr_before")
	DEV_SIZE_BYTES=$((_nr_gb * 1073741824))
	DEV_LBS=$(cat "/sys/block/${DEV##*/}/queue/logical_block_size")
	DEV_SCSI=0
	export DEV DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	_nr_rc=0
	if command -v nvme >/dev/null; then
		nvme disconnect -n "$NVME_NQN" >/dev/null 2>&1
	fi
	_nr_p=$NVMET/ports/1
	_nr_s=$NVMET/subsystems/$NVME_NQN
	[ -L "$_nr_p/subsystems/$NVME_NQN" ] && rm -f "$_nr_p/subsystems/$NVME_NQN"
	[ -d "$_nr_p" ] && { rmdir "$_nr_p" || _nr_rc=1; }
	if [ -d "$_nr_s/namespaces/1" ]; then
		say 0 >"$_nr_s/namespaces/1/enable"
		rmdir "$_nr_s/namespaces/1" || _nr_rc=1
	fi
	[ -d "$_nr_s" ] && { rmdir "$_nr_s" || _nr_rc=1; }
	unload_modules nvme_rdma nvme_fabrics nvmet_rdma nvmet null_blk || _nr_rc=1
	iser_wire_down || _nr_rc=1
	return "$_nr_rc"
}
