# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Kernel knobs a test changes and must put back (fault-injection settings
# in debugfs, ...). Source after common.sh; SMQ_TEST_TMP holds the record.
#   knob FILE VALUE   remember FILE's value, then write VALUE to it
#   restore_knobs     put every remembered value back, last changed first
#                     (so e.g. a probability set last is the first undone)
# A test sets `trap restore_knobs EXIT` itself.

_knobs=$SMQ_TEST_TMP/knobs
: >"$_knobs"

knob() { # FILE VALUE
	[ -e "$1" ] || return 0
	_k_old=$(cat "$1") || fail "cannot read $1"
	say "$1 $_k_old" >>"$_knobs"
	say "$2" >"$1" || fail "cannot write $2 to $1"
}

restore_knobs() {
	[ -s "$_knobs" ] || return 0
	awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' "$_knobs" |
		while read -r _rk_f _rk_v; do
			say "$_rk_v" >"$_rk_f" || say "cannot restore $_rk_f to $_rk_v" >&2
		done
	: >"$_knobs"
}
