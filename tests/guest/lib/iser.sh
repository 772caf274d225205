# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The iSER wire inside one guest (see Documentation/testing.md, "iSER"):
# soft-RoCE (rdma_rxe) on a dummy netdev, LIO's iSCSI target with iSER
# portals (ib_isert) on RAM or null backstores, and the kernel's initiator
# (ib_iser + open-iscsi) as the peer. Everything stays inside the guest on a
# private address. Source after common.sh.
#
#   iser_wire_up                 d0 (dummy) 10.0.0.1/24 up, rxe0 on it
#   iser_wire_down               rxe0 and d0 gone, RDMA modules unloaded
#   iser_link_del / iser_link_add    delete / re-add rxe0 (connection loss:
#                                every RDMA connection on it is torn down)
#   iser_netdev_down / iser_netdev_up  d0 down / up (rxe0 stays; the port
#                                goes down, packets are lost until it is up)
#   lio_iser_up N M MODE SIZE_MB [CMDSN_DEPTH]
#                                N targets iqn.2026-12.org.smq:tgtK (K=0..N-1),
#                                M LUNs each on rd_mcp backstores of SIZE_MB
#                                (MODE ram keeps data, null is NULLIO), one
#                                iSER portal 10.0.0.1:3260 each, demo mode,
#                                no auth, default_cmdsn_depth (128), enabled
#   lio_down                     disable, unlink, remove all of it, the wire,
#                                and unload the target and RDMA modules
#   lio_tpg_disable K / lio_tpg_enable K     target K's tpgt_1/enable 0 / 1
#                                (disable drops its sessions, refuses logins)
#   lio_portal_del K / lio_portal_add K      remove / re-create K's portal
#   lio_chap_target IQN INITIATOR MB USER PASS [MUSER MPASS]
#                                one more target IQN: one RAM LUN of MB MiB,
#                                the iSER portal, authentication=1, no demo
#                                mode, an ACL for INITIATOR (LUN 0 mapped)
#                                with CHAP USER/PASS (and mutual MUSER/MPASS)
#   lio_chap_auth IQN INITIATOR USER PASS [MUSER MPASS]
#                                change that ACL's CHAP (no MUSER: one-way)
#   iscsi_peer_up                /etc/iscsi, ib_iser, iscsid running
#   iscsi_peer_login QD SESSIONS N  node records (iface iser) for LIO's
#                                targets 0..N-1, set queue_depth, cmds_max
#                                and nr_sessions, log in to every target
#                                (SESSIONS sessions each)
#   iscsi_peer_down              log out (every session left too), forget
#                                nodes, stop iscsid, unload
#   iscsi_target_disks K         target K's disks (iSCSI sessions), LUN order

ISER_IP=10.0.0.1
ISER_PORT=3260
ISER_NETDEV=d0
ISER_RXE=rxe0
ISER_IQN=iqn.2026-12.org.smq:tgt
# Full paths: busybox's ip (an applet) cannot make veth pairs.
ISER_IPCMD=/sbin/ip
ISER_RDMA=/usr/bin/rdma
LIO=/sys/kernel/config/target
ISER_RUN=/run/smq-iser
# Modules of the wire and the target, unloaded in this order by lio_down.
ISER_TARGET_MODS="ib_isert iscsi_target_mod target_core_mod"
ISER_WIRE_MODS="rdma_ucm rdma_rxe ib_uverbs rdma_cm iw_cm ib_cm ib_core udp_tunnel ip6_udp_tunnel dummy veth"

iser_log() { say "iser: $*"; }

# module_exists MODULE: the guest kernel has MODULE (built in or loadable).
module_exists() {
	[ -d "/sys/module/$(say "$1" | tr - _)" ] && return 0
	_me_d=/lib/modules/$(uname -r)
	# File names may have - where module names have _ (nvmet-rdma.ko).
	_me_re=$(say "$1" | sed 's/[-_]/[-_]/g')
	grep -Eq "(^|/)$_me_re\.ko(\.[a-z]+)?:" "$_me_d/modules.dep" ||
		grep -Eq "(^|/)$_me_re\.ko" "$_me_d/modules.builtin" 2>/dev/null
}

# iser_mods_present [MODULE...]: true when this kernel has soft-RoCE and LIO's iSER
# target (the debug kernel has neither).
iser_mods_present() {
	for _im in rdma_rxe ib_isert "$@"; do
		module_exists "$_im" || return 1
	done
	[ -x "$ISER_RDMA" ] && [ -x "$ISER_IPCMD" ]
}

# iser_rxe_active: rxe0's port is ACTIVE.
iser_rxe_active() {
	"$ISER_RDMA" link show "$ISER_RXE/1" 2>/dev/null | grep -q 'state ACTIVE'
}

iser_link_add() {
	"$ISER_RDMA" link add "$ISER_RXE" type rxe netdev "$ISER_NETDEV" || return 1
	wait_until 20 iser_rxe_active || { iser_log "$ISER_RXE not ACTIVE"; return 1; }
	lio_rearm_portals
}

# lio_rearm_portals: ib_isert drops a portal's listener when its RDMA device
# goes away or its port goes down, and makes no new one (logins then time
# out or are refused): re-arm every iSER portal.
lio_rearm_portals() {
	for _la in "$LIO"/iscsi/*/tpgt_*/np/*/iser; do
		[ -f "$_la" ] || continue
		[ "$(cat "$_la")" = 1 ] || continue
		{ say 0 >"$_la" && say 1 >"$_la"; } || { iser_log "cannot re-arm $_la"; return 1; }
	done
}

iser_link_del() {
	"$ISER_RDMA" link show "$ISER_RXE/1" >/dev/null 2>&1 || return 0
	"$ISER_RDMA" link delete "$ISER_RXE"
}

iser_netdev_down() { "$ISER_IPCMD" link set "$ISER_NETDEV" down; }
iser_netdev_up() {
	"$ISER_IPCMD" link set "$ISER_NETDEV" up || return 1
	wait_until 20 iser_rxe_active || return 1
	lio_rearm_portals
}

iser_wire_up() {
	# rdma_rxe asks for crc32 through the crypto API (request_module).
	for _im in dummy crc32_generic rdma_rxe ib_uverbs rdma_ucm; do
		modprobe "$_im" || { iser_log "modprobe $_im failed"; return 1; }
	done
	if ! "$ISER_IPCMD" link show "$ISER_NETDEV" >/dev/null 2>&1; then
		"$ISER_IPCMD" link add "$ISER_NETDEV" type dummy || return 1
	fi
	"$ISER_IPCMD" addr replace "$ISER_IP/24" dev "$ISER_NETDEV" || return 1
	# TCP to 10.0.0.1 (iscsiadm's SendTargets in 155) goes through lo, which
	# the guest's init leaves down; RDMA over rxe does not need it.
	"$ISER_IPCMD" link set lo up || return 1
	"$ISER_IPCMD" link set "$ISER_NETDEV" up || return 1
	"$ISER_RDMA" link show "$ISER_RXE/1" >/dev/null 2>&1 || iser_link_add || return 1
	iser_log "wire up: $("$ISER_RDMA" link show "$ISER_RXE/1")"
}

# iser_wire_down: rxe0 and d0 gone, the RDMA modules unloaded (unload their
# users, ib_isert, ib_iser, nvme_rdma..., first).
iser_wire_down() {
	_wd_rc=0
	iser_link_del || _wd_rc=1
	if "$ISER_IPCMD" link show "$ISER_NETDEV" >/dev/null 2>&1; then
		"$ISER_IPCMD" link delete "$ISER_NETDEV" || _wd_rc=1
	fi
	# shellcheck disable=SC2086 # module list
	unload_modules $ISER_WIRE_MODS || _wd_rc=1
	return "$_wd_rc"
}

lio_tpg() { say "$LIO/iscsi/$ISER_IQN$1/tpgt_1"; }

lio_portal_add() {
	_lp=$(lio_tpg "$1")/np/$ISER_IP:$ISER_PORT
	mkdir -p "$_lp" || return 1
	say 1 >"$_lp/iser" || { iser_log "cannot make $_lp an iSER portal"; return 1; }
}

lio_portal_del() { rmdir "$(lio_tpg "$1")/np/$ISER_IP:$ISER_PORT"; }
lio_tpg_disable() { say 0 >"$(lio_tpg "$1")/enable"; }
lio_tpg_enable() { say 1 >"$(lio_tpg "$1")/enable"; }

lio_iser_up() { # N M MODE SIZE_MB [CMDSN_DEPTH]
	_lu_n=$1 _lu_m=$2 _lu_mode=$3 _lu_mb=$4 _lu_depth=${5:-128}
	for _im in configfs target_core_mod iscsi_target_mod ib_isert; do
		modprobe "$_im" || { iser_log "modprobe $_im failed"; return 1; }
	done
	[ -d "$LIO" ] || mount -t configfs configfs /sys/kernel/config 2>/dev/null
	mkdir -p /etc/target "$LIO/iscsi" || return 1
	_lu_ctl="rd_pages=$((_lu_mb * 256))"
	[ "$_lu_mode" = null ] && _lu_ctl="$_lu_ctl,rd_nullio=1"
	_lu_k=0
	while [ "$_lu_k" -lt "$_lu_n" ]; do
		_lu_tpg=$(lio_tpg "$_lu_k")
		mkdir -p "$_lu_tpg" || { iser_log "cannot make $_lu_tpg"; return 1; }
		_lu_l=0
		while [ "$_lu_l" -lt "$_lu_m" ]; do
			_lu_bs=$LIO/core/rd_mcp_0/t${_lu_k}l$_lu_l
			{ mkdir -p "$_lu_bs" && say "$_lu_ctl" >"$_lu_bs/control" &&
				say 1 >"$_lu_bs/enable"; } ||
				{ iser_log "cannot make backstore $_lu_bs"; return 1; }
			{ mkdir -p "$_lu_tpg/lun/lun_$_lu_l" &&
				ln -s "$_lu_bs" "$_lu_tpg/lun/lun_$_lu_l/smq"; } ||
				{ iser_log "cannot make LUN $_lu_l of $_lu_tpg"; return 1; }
			_lu_l=$((_lu_l + 1))
		done
		lio_portal_add "$_lu_k" || return 1
		for _lu_a in generate_node_acls=1 cache_dynamic_acls=1 \
			demo_mode_write_protect=0 authentication=0 \
			default_cmdsn_depth="$_lu_depth"; do
			say "${_lu_a#*=}" >"$_lu_tpg/attrib/${_lu_a%%=*}" ||
				{ iser_log "cannot set $_lu_a"; return 1; }
		done
		lio_tpg_enable "$_lu_k" || { iser_log "cannot enable $_lu_tpg"; return 1; }
		_lu_k=$((_lu_k + 1))
	done
	iser_log "LIO: $_lu_n target(s) x $_lu_m LUN(s), $_lu_mode, $_lu_mb MiB, cmdsn_depth $_lu_depth"
}

lio_chap_auth() { # IQN INITIATOR USER PASS [MUSER MPASS]
	_ca=$LIO/iscsi/$1/tpgt_1/acls/$2/auth
	# No newline: LIO keeps the whole write as the name or secret.
	{ printf %s "$3" >"$_ca/userid" && printf %s "$4" >"$_ca/password" &&
		printf %s "${5:-NULL}" >"$_ca/userid_mutual" &&
		printf %s "${6:-NULL}" >"$_ca/password_mutual"; } ||
		{ iser_log "cannot set CHAP in $_ca"; return 1; }
}

lio_chap_target() { # IQN INITIATOR MB USER PASS [MUSER MPASS]
	_ct_tpg=$LIO/iscsi/$1/tpgt_1
	_ct_bs=$LIO/core/rd_mcp_0/chap-${1##*:}
	{ mkdir -p "$_ct_tpg/lun/lun_0" "$_ct_bs" &&
		say "rd_pages=$(($3 * 256))" >"$_ct_bs/control" &&
		say 1 >"$_ct_bs/enable" &&
		ln -s "$_ct_bs" "$_ct_tpg/lun/lun_0/smq"; } ||
		{ iser_log "cannot make $_ct_tpg"; return 1; }
	_ct_p=$_ct_tpg/np/$ISER_IP:$ISER_PORT
	{ mkdir -p "$_ct_p" && say 1 >"$_ct_p/iser"; } ||
		{ iser_log "cannot make the portal of $1"; return 1; }
	for _ct_a in generate_node_acls=0 demo_mode_write_protect=0 authentication=1; do
		say "${_ct_a#*=}" >"$_ct_tpg/attrib/${_ct_a%%=*}" ||
			{ iser_log "cannot set $_ct_a"; return 1; }
	done
	_ct_acl=$_ct_tpg/acls/$2
	{ mkdir -p "$_ct_acl/lun_0" &&
		ln -s "$_ct_tpg/lun/lun_0" "$_ct_acl/lun_0/map"; } ||
		{ iser_log "cannot make the ACL $_ct_acl"; return 1; }
	_ct_iqn=$1 _ct_ini=$2
	shift 3
	lio_chap_auth "$_ct_iqn" "$_ct_ini" "$@" || return 1
	say 1 >"$_ct_tpg/enable" || { iser_log "cannot enable $_ct_tpg"; return 1; }
	iser_log "LIO: CHAP target $_ct_iqn for $_ct_ini"
}

# lio_down: tolerates any half-made state; unloads the modules.
lio_down() {
	_ld_rc=0
	for _ld_t in "$LIO"/iscsi/iqn.*; do
		[ -d "$_ld_t" ] || continue
		for _ld_tpg in "$_ld_t"/tpgt_*; do
			[ -d "$_ld_tpg" ] || continue
			say 0 >"$_ld_tpg/enable" 2>/dev/null
			# ACLs first: their mapped LUNs hold the LUNs
			for _ld_a in "$_ld_tpg"/acls/*; do
				[ -d "$_ld_a" ] || continue
				for _ld_m in "$_ld_a"/lun_*; do
					[ -d "$_ld_m" ] || continue
					find "$_ld_m" -maxdepth 1 -type l -exec rm -f {} +
					rmdir "$_ld_m" || _ld_rc=1
				done
				rmdir "$_ld_a" || _ld_rc=1
			done
			for _ld_l in "$_ld_tpg"/lun/lun_*; do
				[ -d "$_ld_l" ] || continue
				find "$_ld_l" -maxdepth 1 -type l -exec rm -f {} +
				rmdir "$_ld_l" || _ld_rc=1
			done
			for _ld_np in "$_ld_tpg"/np/*; do
				[ -d "$_ld_np" ] && { rmdir "$_ld_np" || _ld_rc=1; }
			done
			rmdir "$_ld_tpg" || _ld_rc=1
		done
		rmdir "$_ld_t" || _ld_rc=1
	done
	[ -d "$LIO/iscsi" ] && { rmdir "$LIO/iscsi" || _ld_rc=1; }
	for _ld_h in "$LIO"/core/rd_mcp_*; do
		[ -d "$_ld_h" ] || continue
		for _ld_b in "$_ld_h"/*; do
			[ -d "$_ld_b" ] && { rmdir "$_ld_b" || _ld_rc=1; }
		done
		rmdir "$_ld_h" || _ld_rc=1
	done
	# shellcheck disable=SC2086 # module list
	unload_modules $ISER_TARGET_MODS || _ld_rc=1
	iser_wire_down || _ld_rc=1
	return "$_ld_rc"
}

# --- the kernel's initiator (open-iscsi over ib_iser) ---

# pid_gone PID: no such process, or only a zombie left.
pid_gone() {
	[ -r "/proc/$1/stat" ] || return 0
	[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]
}

iscsid_ready() { grep -q ISCSIADM_ABSTRACT_NAMESPACE /proc/net/unix; }

iscsi_peer_up() {
	for _im in sd_mod scsi_transport_iscsi libiscsi ib_iser; do
		modprobe "$_im" || { iser_log "modprobe $_im failed"; return 1; }
	done
	mkdir -p /etc/iscsi /run/lock/iscsi "$ISER_RUN"
	[ -s /etc/iscsi/initiatorname.iscsi ] ||
		say "InitiatorName=$(iscsi-iname -p iqn.2026-12.org.smq)" >/etc/iscsi/initiatorname.iscsi
	cat >/etc/iscsi/iscsid.conf <<EOC
iscsid.startup = /bin/false
node.startup = manual
node.leading_login = No
node.session.timeo.replacement_timeout = 120
node.conn[0].timeo.login_timeout = 15
node.conn[0].timeo.logout_timeout = 15
node.conn[0].timeo.noop_out_interval = 5
node.conn[0].timeo.noop_out_timeout = 5
node.session.err_timeo.abort_timeout = 15
node.session.err_timeo.lu_reset_timeout = 30
node.session.initial_login_retry_max = 4
node.session.auth.authmethod = None
discovery.sendtargets.auth.authmethod = None
EOC
	if ! iscsid_ready; then
		# A session of its own: on SIGTERM iscsid signals its whole process
		# group, which would be the caller's.
		setsid iscsid -f >"$ISER_RUN/iscsid.log" 2>&1 &
		say $! >"$ISER_RUN/iscsid.pid"
		wait_until 20 iscsid_ready || { cat "$ISER_RUN/iscsid.log"; return 1; }
	fi
}

# pow2_ceil N: the smallest power of 2 >= N (open-iscsi's cmds_max rule).
pow2_ceil() {
	_p2=2
	while [ "$_p2" -lt "$1" ]; do _p2=$((_p2 * 2)); done
	say "$_p2"
}

iscsi_peer_login() { # QD SESSIONS N
	# Static node records, not SendTargets over iSER: that discovery runs
	# in iscsiadm's own kernel session, and when it timed out right after
	# an earlier teardown (seen in make check, twice) iscsiadm crashed and
	# left that session behind, which pins ib_iser until the guest
	# powers off. 155-iser-discovery compares the SendTargets list.
	_pl_k=0
	while [ "$_pl_k" -lt "$3" ]; do
		iscsiadm -m node -o new -T "$ISER_IQN$_pl_k" -p "$ISER_IP:$ISER_PORT,1" \
			-I iser >/dev/null || return 1
		_pl_k=$((_pl_k + 1))
	done
	iscsiadm -m node -o update -n node.session.nr_sessions -v "$2" || return 1
	iscsiadm -m node -o update -n node.session.queue_depth -v "$1" || return 1
	iscsiadm -m node -o update -n node.session.cmds_max -v "$(pow2_ceil "$1")" || return 1
	iscsiadm -m node -L all
}

# iscsi_sessions: the numbers of the iSCSI sessions the kernel has.
iscsi_sessions() {
	for _is in /sys/class/iscsi_session/session*; do
		[ -e "$_is" ] && say "${_is##*/session}"
	done
}

# iscsi_peer_logout: log out of every node, then of any session left (one
# no node record names); say which ones would not go.
iscsi_peer_logout() {
	iscsiadm -m node -U all >/dev/null 2>&1
	for _lo in $(iscsi_sessions); do
		iscsiadm -m session -r "$_lo" -u >/dev/null 2>&1
	done
	[ -z "$(iscsi_sessions)" ] && return 0
	iser_log "iSCSI sessions left after logout: $(iscsiadm -m session 2>&1 | tr '\n' ';')"
	return 1
}

iscsi_peer_down() {
	_pd_rc=0
	if iscsid_ready; then
		iscsi_peer_logout || _pd_rc=1
		iscsiadm -m node -o delete >/dev/null 2>&1
		iscsiadm -m discoverydb -t st -p "$ISER_IP:$ISER_PORT" -o delete >/dev/null 2>&1
	fi
	if [ -s "$ISER_RUN/iscsid.pid" ]; then
		_pd_pid=$(cat "$ISER_RUN/iscsid.pid")
		kill "$_pd_pid" 2>/dev/null
		# Reaped here when this shell started it (target_up), else by init.
		wait "$_pd_pid" 2>/dev/null
		wait_until 10 pid_gone "$_pd_pid" || kill -KILL "$_pd_pid" 2>/dev/null
		rm -f "$ISER_RUN/iscsid.pid"
	fi
	unload_modules ib_iser iscsi_tcp libiscsi_tcp libiscsi scsi_transport_iscsi || _pd_rc=1
	return "$_pd_rc"
}

# iscsi_target_disks K: the disks of target K's session, in LUN order.
iscsi_target_disks() {
	for _td_s in /sys/class/iscsi_session/session*; do
		[ "$(cat "$_td_s/targetname" 2>/dev/null)" = "$ISER_IQN$1" ] || continue
		for _td_b in "$_td_s"/device/target*/*:*:*:*/block/*; do
			[ -e "$_td_b" ] || continue
			_td_l=${_td_b%/block/*}
			say "${_td_l##*:} ${_td_b##*/}"
		done
	done | sort -n | cut -d' ' -f2
}

# --- smq_iser (smq's initiator; tests/guest/targets/smq_iser.sh) ---
# Its control files: SMQ_ISER_CTL/add_target takes
#   dst=IP:PORT,target=IQN,queues=Q,queue_depth=D,cmd_per_lun=C
# and makes one smq host logged in to IQN; SMQ_ISER_CTL/remove_target takes
# that host's number N (/sys/class/smq_host/hostN, whose iser_target file
# reads the IQN).
SMQ_ISER_CTL=/sys/class/smq_iser/ctl

# smq_iser_add_string K [Q D C]: the add_target string of LIO target K.
smq_iser_add_string() {
	say "dst=$ISER_IP:$ISER_PORT,target=$ISER_IQN$1,queues=${2:-1},queue_depth=${3:-128},cmd_per_lun=${4:-32}"
}

# smq_iser_hosts: the numbers of the smq hosts smq_iser made, ascending.
smq_iser_hosts() {
	for _sh in /sys/class/smq_host/host*; do
		[ -e "$_sh/iser_target" ] && say "${_sh##*/host}"
	done | sort -n
}

# smq_iser_host_of K: the number of the smq host logged in to target K.
smq_iser_host_of() {
	for _so in $(smq_iser_hosts); do
		[ "$(cat "/sys/class/smq_host/host$_so/iser_target")" = "$ISER_IQN$1" ] &&
			{ say "$_so"; return 0; }
	done
	return 1
}

# smq_host_disks N: host N's disks, in LUN order.
smq_host_disks() {
	for _hd in /sys/block/*; do
		[ -e "$_hd/device" ] || continue
		_hd_l=$(readlink -f "$_hd/device") || continue
		_hd_l=${_hd_l##*/}
		case "$_hd_l" in "$1":*) say "${_hd_l##*:} ${_hd##*/}" ;; esac
	done | sort -n | cut -d' ' -f2
}

# smq_iser_target_disks K: the disks of the smq host logged in to target K.
smq_iser_target_disks() {
	_stk_h=$(smq_iser_host_of "$1") || return 1
	smq_host_disks "$_stk_h"
}

# iser_target_devs N LISTFN: DEVS = the disks "LISTFN K" lists for the
# targets K = 0..N-1, target by target, as /dev paths, and DEV the first;
# false while a listed disk has no /dev node yet or LISTFN fails.
iser_target_devs() {
	DEVS=
	_td_k=0
	while [ "$_td_k" -lt "$1" ]; do
		_td_l=$("$2" "$_td_k") || return 1
		for _td_d in $_td_l; do
			[ -b "/dev/$_td_d" ] || return 1
			DEVS="$DEVS /dev/$_td_d"
		done
		_td_k=$((_td_k + 1))
	done
	DEVS=${DEVS# }
	# shellcheck disable=SC2034 # the callers' DEV (target scripts)
	DEV=${DEVS%% *}
}

# smq_iser_remove_all: remove every smq_iser host (remove_target).
smq_iser_remove_all() {
	_ra_rc=0
	for _ra in $(smq_iser_hosts); do
		say "$_ra" >"$SMQ_ISER_CTL/remove_target" || _ra_rc=1
	done
	return "$_ra_rc"
}

# iser_test_setup: what the smq_iser tests under fio need first: fio, the
# disk under test and its smq_iser host (skip on another target). Sets h
# (the host number), hd (its class directory) and sd (the disk's device
# directory).
iser_test_setup() {
	need_cmd fio
	need_dev
	h=$(smq_iser_host_of 0) || skip "not an smq_iser target"
	# shellcheck disable=SC2034 # hd and sd are read by the tests
	hd=/sys/class/smq_host/host$h
	# shellcheck disable=SC2034
	sd=/sys/block/${DEV##*/}/device
}

# iser_session_field HOSTDIR NAME: the value after NAME on each session's
# line of HOSTDIR/iser_sessions, one per line.
iser_session_field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' \
		"$1/iser_sessions"
}
