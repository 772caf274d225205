#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: sg3-utils
# timeout: 120
#
# The sg3_utils commands users run against a SCSI disk each succeed and
# decode what they ask for: identity and VPD (sg_inq, sg_vpd, port
# designators), capacity, LUNs, sense, mode pages (sg_modes, all pages,
# 0x01, 0x08, 0x0a, 0x1c, changeable values), MODE SELECT of WCE
# (sg_wr_mode, back and forth), log pages (sg_logs: list, -a, -p 0x2f,
# -t), sg_opcodes (all, with timeouts, one command), sg_rtpg, sg_prevent,
# sg_get_lba_status, sg_sync, sg_verify, sg_unmap, sg_write_same, sg_start.
# Prints "scoreboard: <target> N/M ...".  On smq_sas every item must work,
# and the CDB checks are probed with sg_raw (ILLEGAL REQUEST for bad
# fields, allocation lengths honoured); on another target (scsi_debug) an
# item it does not emulate is listed as lacking, anything else must work.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/sg3.sh"
need_cmd sg_inq sg_vpd sg_readcap sg_turs sg_luns sg_requests sg_modes \
	sg_wr_mode sg_logs sg_opcodes sg_rtpg sg_prevent sg_get_lba_status \
	sg_sync sg_verify sg_unmap sg_write_same sg_start sg_raw
need_scsi

smq=0
[ "$(sg_vendor "$DEV")" = SMQ ] && smq=1
target=smq_sas
[ "$smq" = 1 ] || target=$(sg_vendor "$DEV")
lbs=${DEV_LBS:?}
# Items another target (scsi_debug) may not emulate.
LACKS_OTHER=" "

ok=0 total=0 failed='' lacking=''

# item NAME PATTERN CMD...: run CMD; it must exit 0 and, unless PATTERN is
# empty, print a line matching the extended regular expression PATTERN
# (case ignored).
item() {
	_it_name=$1 _it_pat=$2
	shift 2
	total=$((total + 1))
	if "$@" >"$_it_name.out" 2>&1 &&
		{ [ -z "$_it_pat" ] || grep -Eiq "$_it_pat" "$_it_name.out"; }; then
		ok=$((ok + 1))
		say "ok:   $_it_name ($*)"
		return 0
	fi
	if [ "$smq" = 0 ]; then
		case $LACKS_OTHER in *" $_it_name "*)
			lacking="$lacking $_it_name"
			say "lack: $_it_name ($*): not emulated by $target"
			return 1 ;;
		esac
	fi
	failed="$failed $_it_name"
	say "FAIL: $_it_name ($*):"
	sed 's/^/    /' "$_it_name.out" | head -20
	return 1
}

item inq 'Peripheral device type: disk' sg_inq "$DEV"
item vpd-pages 'Supported VPD pages' sg_vpd "$DEV"
item vpd-di 'designator' sg_inq -p 0x83 "$DEV"
item vpd-bl 'Maximum' sg_vpd -p bl "$DEV"
item readcap 'Logical block length' sg_readcap "$DEV"
item readcap16 'Logical block length' sg_readcap --16 "$DEV"
item turs '' sg_turs "$DEV"
item luns 'Lun list length' sg_luns "$DEV"
item requests '' sg_requests "$DEV"
item modes 'Caching' sg_modes "$DEV"
item modes-all '' sg_modes -a "$DEV"
item modes-01 '' sg_modes -p 0x01 "$DEV"
item modes-08 '' sg_modes -p 0x08 "$DEV"
item modes-0a '' sg_modes -p 0x0a "$DEV"
item modes-1c '' sg_modes -p 0x1c "$DEV"
item modes-chg '' sg_modes -c 1 -p 0x08 "$DEV"
item logs 'Supported log pages' sg_logs "$DEV"
item logs-a '' sg_logs -a "$DEV"
item logs-2f 'Informational [Ee]xceptions' sg_logs -p 0x2f "$DEV"
item logs-t '[Tt]emperature' sg_logs -t "$DEV"
item opcodes 'READ\(10\)' sg_opcodes "$DEV"
item opcodes-rctd 'READ\(10\)' sg_opcodes --rctd "$DEV"
item opcodes-28 'READ\(10\)' sg_opcodes -o 0x28 "$DEV"
item rtpg 'target port group' sg_rtpg "$DEV"
item prevent '' sg_prevent --allow "$DEV"
item get-lba-status 'LBA' sg_get_lba_status "$DEV"
item sync '' sg_sync "$DEV"
item verify '' sg_verify --lba=0 --count=8 "$DEV"
item write-same '' sg_write_same --lba=64 --num=8 "$DEV"
item unmap '' sg_unmap --lba=64 --num=8 "$DEV"
item start '' sg_start --start "$DEV"

# MODE SELECT: WCE off and on again with sg_wr_mode, MODE SENSE following.
wce0=$(sg_wce "$DEV") || fail "MODE SENSE of the caching page failed"
wr_wce() {
	sg_wr_mode -v -p 8 -c "8,12,$(($1 * 4))" -m 0,0,4 "$DEV" || return 1
	_ww=$(sg_wce "$DEV")
	say "WCE now $_ww"
	[ "$_ww" = "$1" ]
}
item wr-mode-off '' wr_wce 0
item wr-mode-on '' wr_wce 1
[ "$(sg_wce "$DEV")" = "$wce0" ] || wr_wce "$wce0" || fail "WCE not restored"

say "scoreboard: $target $ok/$total sg3_utils commands work${lacking:+ (not emulated:$lacking)}"
[ -z "$failed" ] || fail "failed on $target:$failed"
[ "$smq" = 1 ] || exit 0

# ---- smq_sas: what the commands answer --------------------------------------

# ill NAME SG_RAW-ARGS...: the command must end in ILLEGAL REQUEST.
ill() {
	_il_name=$1
	shift
	if sg_raw "$@" >"$_il_name.out" 2>&1; then
		cat "$_il_name.out"
		fail "$_il_name: sg_raw $* succeeded"
	fi
	grep -qi 'illegal request' "$_il_name.out" ||
		{ cat "$_il_name.out"; fail "$_il_name: not ILLEGAL REQUEST"; }
	grep -qi "${IL_ASC:-invalid field in cdb}" "$_il_name.out" ||
		{ cat "$_il_name.out"; fail "$_il_name: not ${IL_ASC:-invalid field in cdb}"; }
	say "refused: $_il_name"
}
# got NAME BYTES SG_RAW-ARGS...: the command returns exactly BYTES bytes.
got() {
	_gt_name=$1 _gt_n=$2
	shift 2
	sg_raw "$@" >"$_gt_name.out" 2>&1 || { cat "$_gt_name.out"; fail "$_gt_name failed"; }
	grep -q "Received $_gt_n bytes" "$_gt_name.out" ||
		{ cat "$_gt_name.out"; fail "$_gt_name: not $_gt_n bytes"; }
	say "$_gt_name: $_gt_n bytes"
}

ill log-sense-sp -r 64 "$DEV" 4d 01 40 00 00 00 00 00 40 00
ill log-sense-page -r 64 "$DEV" 4d 00 58 00 00 00 00 00 40 00
ill log-sense-subpage -r 64 "$DEV" 4d 00 42 01 00 00 00 00 40 00
ill log-sense-ppc -r 64 "$DEV" 4d 00 42 00 00 00 09 00 40 00
got log-sense-trunc 4 -r 4 "$DEV" 4d 00 40 00 00 00 00 00 04 00
got log-sense-ppc 40 -r 200 "$DEV" 4d 00 42 00 00 00 04 00 c8 00
ill rsoc-ro -r 512 "$DEV" a3 0c 04 00 00 00 00 00 02 00 00 00
ill rsoc-ro1-sa -r 64 "$DEV" a3 0c 01 9e 00 00 00 00 00 40 00 00
ill rsoc-ro2-nosa -r 64 "$DEV" a3 0c 02 28 00 00 00 00 00 40 00 00
got rsoc-trunc 12 -r 12 "$DEV" a3 0c 00 00 00 00 00 00 00 0c 00 00
got rsoc-one 14 -r 64 "$DEV" a3 0c 01 28 00 00 00 00 00 40 00 00
got rsoc-one-rctd 26 -r 64 "$DEV" a3 0c 81 28 00 00 00 00 00 40 00 00
got rsoc-sa 20 -r 64 "$DEV" a3 0c 02 9e 00 12 00 00 00 40 00 00
got rsoc-unsupported 4 -r 64 "$DEV" a3 0c 03 a5 00 00 00 00 00 40 00 00
ill rtpg-pdf -r 64 "$DEV" a3 4a 00 00 00 00 00 00 00 40 00 00
got rtpg-ext 20 -r 64 "$DEV" a3 2a 00 00 00 00 00 00 00 40 00 00
got lba-status 24 -r 24 "$DEV" 9e 12 00 00 00 00 00 00 00 00 00 00 00 18 00 00
IL_ASC='logical block address out of range' \
	ill lba-status-range -r 24 "$DEV" 9e 12 7f 00 00 00 00 00 00 00 00 00 00 18 00 00
ill prevent-reserved "$DEV" 1e 00 00 00 04 00
ill mode-select-sp -s 24 -i /dev/zero "$DEV" 15 11 00 00 18 00
ill mode-select-nopf -s 24 -i /dev/zero "$DEV" 15 00 00 00 18 00
IL_ASC='parameter list length' \
	ill mode-select-short -s 2 -i /dev/zero "$DEV" 15 10 00 00 02 00
ill mode-sense-page -r 64 "$DEV" 1a 08 19 00 40 00
ill read-rdprotect -r "$lbs" "$DEV" 28 20 00 00 00 00 00 00 01 00
IL_ASC='invalid command operation code' ill opcode "$DEV" 02 00 00 00 00 00

# ALUA: the port designators of VPD 0x83, one active/optimized group.
for d in 'relative target port' 'target port group'; do
	grep -qi "$d" vpd-di.out || { cat vpd-di.out; fail "VPD 0x83: no $d designator"; }
done
grep -Eqi 'access state *: *0x00|active/optimized' rtpg.out ||
	{ cat rtpg.out; fail "sg_rtpg: not active/optimized"; }
say "ALUA: port designators, target port group active/optimized"

# A MODE SELECT changing a bit that is not changeable (RCD) is refused and
# changes nothing.
if sg_wr_mode -p 8 -c 8,12,1 -m 0,0,1 "$DEV" >wr-rcd.out 2>&1; then
	cat wr-rcd.out
	fail "MODE SELECT of RCD accepted"
fi
[ "$(sg_wce "$DEV")" = "$wce0" ] || fail "a refused MODE SELECT changed WCE"
# (sg_wr_mode itself may refuse --save for a page without PS; the device's
# refusal of SP is mode-select-sp above)
sg_wr_mode --save -p 8 -c 8,12,0 -m 0,0,4 "$DEV" >wr-sp.out 2>&1
cat wr-sp.out
[ "$(sg_wce "$DEV")" = "$wce0" ] || fail "MODE SELECT with SP changed WCE"
say "MODE SELECT: RCD and SP refused, WCE unchanged"

# GET LBA STATUS follows the store: written blocks mapped, unmapped ones
# deallocated (RAM backing).
dd if=/dev/urandom of="$DEV" bs=1M count=1 oflag=direct 2>/dev/null ||
	fail "write of the first MiB failed"
sg_get_lba_status --lba=0 "$DEV" >gls1.out 2>&1 || { cat gls1.out; fail "sg_get_lba_status"; }
cat gls1.out
grep -qi 'mapped' gls1.out || fail "sg_get_lba_status: no mapped extent"
sg_unmap --lba=0 --num=$((1048576 / lbs)) "$DEV" || fail "sg_unmap of the first MiB"
sg_get_lba_status --lba=0 "$DEV" >gls2.out 2>&1 || { cat gls2.out; fail "sg_get_lba_status"; }
cat gls2.out
grep -qi 'deallocated' gls2.out ||
	fail "sg_get_lba_status: the unmapped MiB is not deallocated"

# The error counter pages count the bytes the LUN read.
rb0=$(sg_logs -p 0x03 "$DEV" | sed -n 's/.*[Tt]otal bytes processed *= *\([0-9]*\).*/\1/p')
dd if="$DEV" of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
rb1=$(sg_logs -p 0x03 "$DEV" | sed -n 's/.*[Tt]otal bytes processed *= *\([0-9]*\).*/\1/p')
if [ -z "$rb0" ] || [ -z "$rb1" ] || [ "$rb1" -lt $((rb0 + 1048576)) ]; then
	fail "read error counter page: bytes processed $rb0 -> $rb1 after 1 MiB read"
fi
say "read error counters: bytes processed $rb0 -> $rb1"
