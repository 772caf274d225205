# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target ib_iser: the kernel's own iSER initiator (ib_iser + open-iscsi's
# iscsid/iscsiadm, sd_mod) logged in over soft-RoCE (rxe0 on d0, 10.0.0.1)
# to LIO's iSER target (ib_isert) in the same guest: the peer of smq_iser
# (tests/guest/lib/iser.sh). Parameters (spec ib_iser:VAR=VALUE,...):
#   TARGETS  LIO targets iqn.2026-12.org.smq:tgtK = iSCSI sessions (1)
#   LUNS     LUNs per target (1)               SIZE_MB  each LUN's size (256)
#   SESSIONS sessions to each target (1; node.session.nr_sessions): every
#            LUN appears once per session
#   QD       node.session.queue_depth (128); cmds_max is QD rounded up to a
#            power of 2
#   CMDSN    the targets' default_cmdsn_depth (128)
# DEV is target 0's LUN 0; DEVS lists every disk, target by target, LUN by
# LUN. RAM backstores (rd_mcp) keep data; TARGET_BENCH=1: NULLIO backstores
# (no data kept). SKIP (77) where the kernel has no rdma_rxe or ib_isert, or
# the guest no open-iscsi.

. "$SMQ_GUEST_DIR/lib/iser.sh"

target_up() {
	_ii_n=${TARGET_TARGETS:-1}
	_ii_m=${TARGET_LUNS:-1}
	_ii_mb=${TARGET_SIZE_MB:-256}
	_ii_mode=ram
	[ "${TARGET_BENCH:-0}" = 1 ] && _ii_mode=null
	iser_mods_present ib_iser && command -v iscsiadm >/dev/null || return 77
	iser_wire_up || return 1
	lio_iser_up "$_ii_n" "$_ii_m" "$_ii_mode" "$_ii_mb" "${TARGET_CMDSN:-128}" || return 1
	iscsi_peer_up || return 1
	iscsi_peer_login "${TARGET_QD:-128}" "${TARGET_SESSIONS:-1}" "$_ii_n" || return 1
	_ii_want=$((_ii_n * _ii_m * ${TARGET_SESSIONS:-1}))
	_ii_t=300
	until iser_target_devs "$_ii_n" iscsi_target_disks &&
		[ "$(say "$DEVS" | wc -w)" -ge "$_ii_want" ]; do
		_ii_t=$((_ii_t - 1))
		[ "$_ii_t" -gt 0 ] || { say "only $DEVS of $_ii_want iSER disks appeared"; return 1; }
		sleep 0.1
	done
	say "ib_iser: sessions $(iscsiadm -m session 2>&1 | tr '\n' ';'), disks $DEVS"
	DEV_SIZE_BYTES=$((_ii_mb * 1048576))
	DEV_LBS=512
	DEV_SCSI=1
	export DEV DEVS DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	_ii_rc=0
	iscsi_peer_down || _ii_rc=1
	lio_down || _ii_rc=1
	return "$_ii_rc"
}
