#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# setup-host.sh [--update]: prepare a Debian 12 host for building smq and
# running the QEMU guest bench, from Debian's apt repositories only.
#
#  - installs the build tools, QEMU, and the user-space tools the guest image
#    is made of (fio, busybox-static, sg3-utils, e2fsprogs, dmsetup, kmod...);
#  - resolves the current release of both kernel lines from the apt meta
#    packages (linux-image-amd64 for 6.1, linux-image-6.12-amd64 for 6.12),
#    installs exactly that release's headers, and unpacks the matching
#    linux-image-<release>-unsigned package into $SMQ_CACHE/kernels/<release>
#    (default /var/cache/smq), with decompressed modules and a modules.dep;
#  - unpacks (apt-get download + dpkg -x, never installed, so no service is
#    enabled or started on the host) the guest-only packages of GUEST_DEBS
#    into $SMQ_CACHE/guest-pkgs/root: open-iscsi and nvme-cli for the iSER and
#    NVMe/RDMA peers; mkimage.sh takes a program of guest-binaries.list from
#    there when the host has none.
#
# Idempotent: when everything is already in place it changes nothing and
# needs neither root nor the network. --update (or SMQ_APT_UPDATE=1) forces
# `apt-get update` to pick up newer kernel releases.
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

# Host packages; add here what a new tool or test needs.
PACKAGES=(
	make gcc libc6-dev
	qemu-system-x86
	fio busybox-static kmod cpio gzip xz-utils zstd
	sg3-utils e2fsprogs util-linux dmsetup
	python3 gnuplot-nox
	# virtio-scsi disks of the guests: nbdkit (a disk with a volatile cache, fault
	# filters), xfsprogs (the guest's mkfs.xfs / xfs_repair)
	nbdkit xfsprogs
	# the guest's iproute2 (ip, rdma), and libraries of the GUEST_DEBS programs
	iproute2 libkmod2 libmount1 libssl3 libsystemd0 libjson-c5 libdbus-1-3 zlib1g
)

# Guest-only packages: unpacked into $SMQ_CACHE/guest-pkgs/root, not installed
# (open-iscsi would pull udev and enable iscsid on the host).
GUEST_DEBS=(open-iscsi libopeniscsiusr libisns0 nvme-cli libnvme1)
GUEST_PKGS="$SMQ_CACHE/guest-pkgs"

declare -A REL VER  # kernel line -> release / package version
GUEST_DEB_VERS=""   # "pkg=version" of GUEST_DEBS' candidates, one a line

pkg_installed() { # PKG [VERSION]
	local st
	st="$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$1" 2>/dev/null)" || return 1
	[[ "$st" == "installed ${2:-${st#installed }}" ]]
}

# Fill REL and VER from the apt lists; fails when they do not know the meta
# packages (e.g. no lists yet).
resolve_kernels() {
	local line meta rel pkg ver
	local -A dep=() cand=()
	local -a metas=() images=()
	for line in $SMQ_KERNEL_LINES; do
		metas+=("${SMQ_META_PKG[$line]}")
	done
	# "META\tlinux-image-RELEASE" for each meta package.
	while IFS=$'\t' read -r meta pkg; do
		dep[$meta]="$pkg"
	done < <(apt-cache depends "${metas[@]}" 2>/dev/null | awk '
		/^[^ ]/ { meta = $1; next }
		$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ && !seen[meta]++ {
			print meta "\t" $2 }')
	for meta in "${metas[@]}"; do
		[[ -n "${dep[$meta]:-}" ]] || return 1
		images+=("${dep[$meta]}-unsigned")
	done
	# Candidate versions of the unsigned images.
	while IFS=$'\t' read -r pkg ver; do
		cand[$pkg]="$ver"
	done < <(apt-cache show --no-all-versions "${images[@]}" 2>/dev/null | awk '
		$1 == "Package:" { pkg = $2 }
		$1 == "Version:" { print pkg "\t" $2 }')
	for line in $SMQ_KERNEL_LINES; do
		rel="${dep[${SMQ_META_PKG[$line]}]#linux-image-}"
		ver="${cand[linux-image-$rel-unsigned]:-}"
		[[ -n "$ver" ]] || return 1
		REL[$line]="$rel"
		VER[$line]="$ver"
	done
}

# Fill GUEST_DEB_VERS from the apt lists.
resolve_guest_debs() {
	GUEST_DEB_VERS="$(apt-cache show --no-all-versions "${GUEST_DEBS[@]}" 2>/dev/null |
		awk '$1 == "Package:" { pkg = $2 } $1 == "Version:" { print pkg "=" $2 }' | sort)"
	[[ "$(grep -c = <<<"$GUEST_DEB_VERS")" == "${#GUEST_DEBS[@]}" ]]
}

guest_debs_cached() {
	[[ -f "$GUEST_PKGS/root/.smq-complete" &&
		"$(cat "$GUEST_PKGS/root/.smq-complete")" == "$GUEST_DEB_VERS" ]]
}

# fetch_guest_debs: download GUEST_DEBS (the candidates) and unpack them into
# $GUEST_PKGS/root.
fetch_guest_debs() {
	local tmp="$GUEST_PKGS/.tmp" deb
	local -a want=()
	guest_debs_cached && return 0
	mapfile -t want <<<"$GUEST_DEB_VERS"
	rm -rf "$tmp" "$tmp.dl"
	mkdir -p "$tmp" "$tmp.dl"
	smq_log "downloading guest packages: ${want[*]}"
	(cd "$tmp.dl" && apt-get download -q -o APT::Sandbox::User=root "${want[@]}")
	for deb in "$tmp.dl"/*.deb; do
		dpkg -x "$deb" "$tmp"
	done
	rm -rf "$tmp.dl"
	printf '%s\n' "$GUEST_DEB_VERS" >"$tmp/.smq-complete"
	rm -rf "$GUEST_PKGS/root"
	mv "$tmp" "$GUEST_PKGS/root"
}

kernel_cached() { # RELEASE VERSION
	local stamp
	stamp="$(smq_kernel_dir "$1")/.smq-complete"
	[[ -f "$stamp" && "$(cat "$stamp")" == "$2" ]]
}

everything_present() {
	local p line
	for p in "${PACKAGES[@]}"; do
		pkg_installed "$p" || return 1
	done
	for line in $SMQ_KERNEL_LINES; do
		pkg_installed "linux-headers-${REL[$line]}" "${VER[$line]}" || return 1
		kernel_cached "${REL[$line]}" "${VER[$line]}" || return 1
	done
	guest_debs_cached
}

# Install what is missing (only that, so apt's auto/manual marks of packages
# already there stay as they are).
apt_install() {
	local p line
	local -a pkgs=()
	for p in "${PACKAGES[@]}"; do
		pkg_installed "$p" || pkgs+=("$p")
	done
	for line in $SMQ_KERNEL_LINES; do
		p="linux-headers-${REL[$line]}"
		pkg_installed "$p" "${VER[$line]}" || pkgs+=("$p=${VER[$line]}")
	done
	((${#pkgs[@]})) || return 0
	smq_log "installing: ${pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${pkgs[@]}"
}

# fetch_kernel RELEASE VERSION: unpack linux-image-RELEASE-unsigned=VERSION
# into the cache, decompress its modules and generate modules.dep.
fetch_kernel() {
	local rel="$1" ver="$2" dir tmp deb
	kernel_cached "$rel" "$ver" && return 0
	dir="$(smq_kernel_dir "$rel")"
	tmp="$SMQ_CACHE/kernels/.tmp-$rel"
	rm -rf "$tmp" "$tmp.dl"
	mkdir -p "$tmp.dl"
	smq_log "downloading linux-image-$rel-unsigned=$ver"
	(cd "$tmp.dl" && apt-get download -q -o APT::Sandbox::User=root \
		"linux-image-$rel-unsigned=$ver")
	deb="$(find "$tmp.dl" -type f -name '*.deb' -print -quit)"
	[[ -n "$deb" ]] || smq_die "apt-get download produced no .deb for $rel"
	dpkg -x "$deb" "$tmp"
	rm -rf "$tmp.dl"
	if [[ ! -d "$tmp/lib/modules/$rel" && -d "$tmp/usr/lib/modules/$rel" ]]; then
		ln -s usr/lib "$tmp/lib"
	fi
	[[ -f "$tmp/boot/vmlinuz-$rel" ]] || smq_die "no boot/vmlinuz-$rel in the package"
	smq_log "decompressing modules of $rel"
	find "$tmp/lib/modules/$rel" -name '*.ko.xz' -print0 |
		xargs -0 -r -P "$(nproc)" -n 64 xz -d
	find "$tmp/lib/modules/$rel" -name '*.ko.zst' -print0 |
		xargs -0 -r -P "$(nproc)" -n 64 zstd -q -d --rm
	depmod -b "$tmp" "$rel"
	printf '%s\n' "$ver" >"$tmp/.smq-complete"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

main() {
	local update="${SMQ_APT_UPDATE:-0}" line
	case "${1:-}" in
	--update) update=1 ;;
	"") ;;
	*) smq_die "usage: ${0##*/} [--update]" ;;
	esac

	if [[ "$update" != 1 ]] && resolve_kernels && resolve_guest_debs && everything_present; then
		smq_log "host ready (nothing to do)"
	else
		[[ $EUID -eq 0 ]] || smq_die "the host needs packages or kernels: run as root"
		mkdir -p "$SMQ_CACHE/kernels"
		exec 9>"$SMQ_CACHE/.setup.lock"
		flock 9
		smq_log "apt-get update"
		apt-get update -q
		resolve_kernels || smq_die "apt does not know ${SMQ_META_PKG[*]} (sources.list?)"
		resolve_guest_debs || smq_die "apt does not know all of ${GUEST_DEBS[*]}"
		apt_install
		for line in $SMQ_KERNEL_LINES; do
			fetch_kernel "${REL[$line]}" "${VER[$line]}"
		done
		mkdir -p "$GUEST_PKGS"
		fetch_guest_debs
		everything_present || smq_die "setup incomplete"
	fi
	for line in $SMQ_KERNEL_LINES; do
		smq_log "kernel $line: ${REL[$line]} (${VER[$line]}), $(smq_kernel_dir "${REL[$line]}")"
	done
}

main "$@"
