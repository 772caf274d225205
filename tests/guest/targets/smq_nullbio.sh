# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target smq_nullbio: the bench's ceiling, a bio-based disk that ends every
# bio in ->submit_bio (tools/bench/nullbio/smq_nullbio.c: no request, no
# tag, no data). Parameters: SIZE_MB capacity in MiB (1024). Reads return
# whatever the page held: for benchmarks only. Not a SCSI disk. SKIP (77)
# when smq_nullbio.ko was not shipped to this guest.

target_up() {
	_nbio_mb=${TARGET_SIZE_MB:-1024}
	grep -q 'smq_nullbio\.ko' "/lib/modules/$(uname -r)/modules.dep" ||
		{ say "smq_nullbio.ko missing"; return 77; }
	_nbio_before=$(list_disks)
	say "modprobe smq_nullbio size_mb=$_nbio_mb"
	modprobe smq_nullbio size_mb="$_nbio_mb" || return 1
	wait_for_new_disk "$_nbio_before" 30 || { say "no smq_nullbio disk appeared"; return 1; }
	DEV_SIZE_BYTES=$((_nbio_mb * 1048576))
	DEV_LBS=512
	DEV_SCSI=0
	export DEV DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	unload_modules smq_nullbio
}
