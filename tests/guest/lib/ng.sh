# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# smq's SCSI generic character devices (/dev/smq-ng/H:C:T:L) and the
# passthrough tool smq-ptio (tools/ptio), for tests 170-173.

# ng_setup: NG, the generic device of DEV's LUN; skips disks of other
# stacks (Linux has no SCSI uring_cmd).
ng_setup() {
	need_cmd smq-ptio
	need_dev
	[ -d /sys/class/smq_ng ] || skip "not an smq disk: no SCSI passthrough over io_uring"
	NG_HCTL=$(basename "$(readlink -f "/sys/block/${DEV##*/}/device")")
	NG=/dev/smq-ng/$NG_HCTL
	[ -c "$NG" ] || fail "no generic device $NG for $DEV"
	NG_LBS=${DEV_LBS:-512}
	export NG NG_HCTL NG_LBS
}

# ng_cmd ARGS...: smq-ptio --mode cmd on NG; prints its one-line outcome.
ng_cmd() {
	smq-ptio --mode cmd --lbs "$NG_LBS" "$@" "$NG"
}

# ng_expect_errno ERRNO DESC ARGS...: the command must be refused with ERRNO.
ng_expect_errno() {
	_ne_want=$1
	_ne_what=$2
	shift 2
	_ne_out=$(ng_cmd "$@")
	say "$_ne_what: $_ne_out"
	case "$_ne_out" in
	"errno=$_ne_want "*) ;;
	*) fail "$_ne_what: expected errno $_ne_want, got: $_ne_out" ;;
	esac
}

# ng_field OUT NAME: the value of NAME=... in a ng_cmd line.
ng_field() {
	say "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# ng_sense_key HEX: the sense key of sense bytes in hex (fixed or
# descriptor format).
ng_sense_key() {
	case "$1" in
	7[23]*) printf '%s\n' "$1" | cut -c4 ;;
	*) printf '%s\n' "$1" | cut -c6 ;;
	esac
}
