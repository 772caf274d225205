#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkimage.sh [KVER]: build (or find in the cache) the base initramfs of a
# guest running the kernel KVER names (6.1, 6.12 or a full release; default
# 6.12), and print its path.
#
# The base holds only Debian packages: static busybox, the programs of
# guest-binaries.list with their shared libraries (from the host, or, for the
# guest-only packages setup-host.sh unpacks without installing them, from
# $SMQ_CACHE/guest-pkgs/root, copied to the same path below it), and the guest kernel's
# modules of guest-modules.list with their dependencies (decompressed, with a
# modules.dep). It is cached as $SMQ_CACHE/images/<release>/base-<hash>.cpio.zst,
# where the hash covers every input, so it is rebuilt only when an input
# changes. smq's own modules, tests and the guest /init are NOT in it: run.sh
# appends them per boot as a second, small archive.
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

HERE="$SMQ_TOOLS/vm"
BIN_LIST="$HERE/guest-binaries.list"
MOD_LIST="$HERE/guest-modules.list"
EXTRA_FILES=(/etc/mke2fs.conf)
# Guest-only packages (open-iscsi, nvme-cli), unpacked by setup-host.sh.
PKGROOT="$SMQ_CACHE/guest-pkgs/root"

list_entries() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"; }

# Programs of the list (globs expanded; on the host, else under PKGROOT), then
# the libraries they need (PKGROOT's first). Paths under PKGROOT go to the
# image without that prefix.
host_files() {
	local pat f
	local -a bins=()
	while IFS= read -r pat; do
		local -a hits=()
		mapfile -t hits < <(compgen -G "$pat" || compgen -G "$PKGROOT$pat" || true)
		((${#hits[@]})) || smq_die "$BIN_LIST: nothing matches $pat (run setup-host.sh)"
		bins+=("${hits[@]}")
	done < <(list_entries "$BIN_LIST")
	printf '%s\n' "${bins[@]}" "${EXTRA_FILES[@]}"
	for f in "${bins[@]}"; do
		LD_LIBRARY_PATH="$PKGROOT/usr/lib/x86_64-linux-gnu:$PKGROOT/lib/x86_64-linux-gnu" \
			ldd "$f" 2>/dev/null || true
	done | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u
}

# Module files (paths inside the kernel tree) of the list with dependencies.
module_files() {
	local kroot="$1" rel="$2" m
	while IFS= read -r m; do
		if [[ "$m" == *\? ]]; then
			# Optional: only where this kernel has it.
			modprobe -d "$kroot" -S "$rel" --show-depends "${m%\?}" 2>/dev/null || true
			continue
		fi
		modprobe -d "$kroot" -S "$rel" --show-depends "$m" ||
			smq_die "module $m not found for $rel"
	done < <(list_entries "$MOD_LIST") |
		awk '$1 == "insmod" { print $2 }' | sed "s|^$kroot/||" | sort -u
}

build_image() {
	local stage="$1" kroot="$2" rel="$3" hostlist="$4" modlist="$5" f t a base d
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,mnt,run,root,var/tmp}
	mkdir -p "$stage/lib/modules/$rel"

	cp /bin/busybox "$stage/bin/busybox"
	while IFS= read -r a; do
		[[ "$a" == bin/busybox ]] && continue
		mkdir -p "$stage/$(dirname "$a")"
		ln -sf /bin/busybox "$stage/$a"
	done < <(/bin/busybox --list-full)

	while IFS= read -r f; do
		t="${f#"$PKGROOT"}"
		base="${t##*/}"
		for d in bin sbin usr/bin usr/sbin; do # a real program beats the applet
			[[ -L "$stage/$d/$base" ]] && rm -f "$stage/$d/$base"
		done
		mkdir -p "$stage/$(dirname "$t")"
		cp -L --remove-destination "$f" "$stage/$t"
	done <"$hostlist"

	while IFS= read -r f; do
		mkdir -p "$stage/$(dirname "$f")"
		cp "$kroot/$f" "$stage/$f"
	done <"$modlist"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[[ -f "$kroot/lib/modules/$rel/$f" ]] && cp "$kroot/lib/modules/$rel/$f" "$stage/lib/modules/$rel/"
	done
	depmod -b "$stage" "$rel"

	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
	printf 'root:x:0:\n' >"$stage/etc/group"
	ln -s /proc/mounts "$stage/etc/mtab"
	# Fallback /init; run.sh's per-boot archive replaces it.
	printf '#!/bin/sh\necho "smq base image: no /init overlay given"\npoweroff -f\n' >"$stage/init"
	chmod 755 "$stage/init"
	if [[ $EUID -eq 0 ]]; then
		mknod -m 600 "$stage/dev/console" c 5 1
		mknod -m 666 "$stage/dev/null" c 1 3
	fi
}

TMPDIR_BUILD=""
cleanup() { [[ -z "$TMPDIR_BUILD" ]] || rm -rf "$TMPDIR_BUILD"; }
trap cleanup EXIT

main() {
	local spec="${1:-$SMQ_DEFAULT_KVER}" rel kroot dir hash img tmp
	rel="$(smq_guest_release "$spec")" ||
		smq_die "no guest kernel for '$spec' in $SMQ_CACHE/kernels; run tools/vm/setup-host.sh"
	kroot="$(smq_kernel_dir "$rel")"
	dir="$SMQ_CACHE/images/$rel"
	mkdir -p "$dir"
	tmp="$(mktemp -d "$dir/.build.XXXXXX")"
	TMPDIR_BUILD="$tmp"

	host_files >"$tmp/host.list"
	module_files "$kroot" "$rel" >"$tmp/modules.list"
	hash="$({
		printf '%s\n' "$rel"
		cat "$kroot/.smq-complete" "$0" "$BIN_LIST" "$MOD_LIST" "$tmp/modules.list"
		xargs -d '\n' sha256sum <"$tmp/host.list"
		sha256sum /bin/busybox
	} | sha256sum | cut -c1-16)"
	img="$dir/base-$hash.cpio.zst"
	if [[ -f "$img" ]]; then
		printf '%s\n' "$img"
		return 0
	fi

	smq_log "building base image for $rel ($(wc -l <"$tmp/host.list") files, $(wc -l <"$tmp/modules.list") modules)"
	build_image "$tmp/root" "$kroot" "$rel" "$tmp/host.list" "$tmp/modules.list"
	(cd "$tmp/root" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner 0:0 --quiet) |
		zstd -q -T0 -3 >"$tmp/image"
	find "$dir" -maxdepth 1 -name 'base-*.cpio.zst' -delete
	mv "$tmp/image" "$img"
	smq_log "built $img ($(du -h "$img" | cut -f1))"
	printf '%s\n' "$img"
}

main "$@"
