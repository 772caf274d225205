# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers shared by the host-side scripts under tools/ (bash only).
# Source it; it defines functions and a few variables and runs nothing.

SMQ_TOOLS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SMQ_TREE="${SMQ_TREE:-$(dirname "$SMQ_TOOLS")}"
SMQ_CACHE="${SMQ_CACHE:-/var/cache/smq}"
SMQ_RESULTS="${SMQ_RESULTS:-$SMQ_TREE/results}"

# The two Debian kernel lines the project supports, and the apt meta package
# that names the current release of each (used by the scripts that source this).
# shellcheck disable=SC2034
declare -A SMQ_META_PKG=([6.1]=linux-image-amd64 [6.12]=linux-image-6.12-amd64)
SMQ_DEFAULT_KVER=6.12
# shellcheck disable=SC2034
SMQ_KERNEL_LINES="6.1 6.12"

smq_log() { printf '%s: %s\n' "${SMQ_PROG:-${0##*/}}" "$*" >&2; }
smq_die() { smq_log "error: $*"; exit 1; }

# smq_pick_release SPEC RELEASE...: print the release that SPEC names.
# SPEC is a full release (exact match) or a kernel line such as 6.1 or 6.12,
# which picks the newest release of that line (6.1 does not match 6.12.x).
# Only the generic amd64 flavour is considered for line shorthands.
smq_pick_release() {
	local spec="$1" rel best=""
	shift
	for rel in "$@"; do
		if [[ "$rel" == "$spec" ]]; then
			printf '%s\n' "$rel"
			return 0
		fi
	done
	for rel in "$@"; do
		[[ "$rel" == "$spec".* || "$rel" == "$spec"-* ]] || continue
		[[ "$rel" == *-amd64 && "$rel" != *-rt-amd64 && "$rel" != *-cloud-amd64 ]] || continue
		best+="$rel"$'\n'
	done
	[[ -n "$best" ]] || return 1
	printf '%s' "$best" | sort -V | tail -n 1
}

# Releases whose kernel headers are installed.
smq_header_releases() {
	local d
	for d in /usr/src/linux-headers-*; do
		[[ -f "$d/Makefile" && -f "$d/.config" ]] || continue
		printf '%s\n' "${d#/usr/src/linux-headers-}"
	done
}

# Releases whose guest kernel is unpacked in the cache (see setup-host.sh).
smq_cached_releases() {
	local d
	for d in "$SMQ_CACHE"/kernels/*/; do
		[[ -f "$d/.smq-complete" ]] || continue
		d="${d%/}"
		printf '%s\n' "${d##*/}"
	done
}

# smq_headers_release SPEC: release with installed headers named by SPEC.
smq_headers_release() {
	local -a rels
	mapfile -t rels < <(smq_header_releases)
	smq_pick_release "${1:-$SMQ_DEFAULT_KVER}" "${rels[@]}"
}

# smq_guest_release SPEC: release with an unpacked guest kernel named by SPEC.
smq_guest_release() {
	local -a rels
	mapfile -t rels < <(smq_cached_releases)
	smq_pick_release "${1:-$SMQ_DEFAULT_KVER}" "${rels[@]}"
}

# smq_kdir_release KDIR: the release of the kernel tree KDIR, the one its
# modules are built for: UTS_RELEASE from include/generated/utsrelease.h
# (what the modules' vermagic carries and uname -r shows), else
# include/config/kernel.release. Debian's 6.1 headers need the former:
# their kernel.release holds the upstream version (6.1.192), not the
# release (6.1.0-57-amd64). Fails when the tree has neither.
smq_kdir_release() {
	local h="$1/include/generated/utsrelease.h" rel=""
	if [[ -f "$h" ]]; then
		rel="$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$h")"
	fi
	if [[ -z "$rel" && -f "$1/include/config/kernel.release" ]]; then
		rel="$(cat "$1/include/config/kernel.release")"
	fi
	[[ -n "$rel" ]] || return 1
	printf '%s\n' "$rel"
}

# smq_kernel_dir RELEASE: root of the unpacked guest kernel package.
smq_kernel_dir() { printf '%s/kernels/%s\n' "$SMQ_CACHE" "$1"; }

smq_timestamp() { date -u +%Y%m%d-%H%M%S; }

# smq_built_modules BUILDDIR: the modules of the last build in BUILDDIR, as
# paths relative to it (from Kbuild's modules.order, so stale .ko files of
# renamed sources are not listed).  Kbuild writes absolute paths: a build
# directory copied elsewhere (a baseline kept for a bench) still lists its
# modules, each the shortest tail of its path found under BUILDDIR.
smq_built_modules() {
	local out="$1" m
	[[ -f "$out/modules.order" ]] || return 0
	while IFS= read -r m; do
		m="${m#"$out"/}"
		m="${m%.o}"
		m="${m%.ko}.ko"
		while [[ ! -f "$out/$m" && "$m" == */* ]]; do
			m="${m#*/}"
		done
		[[ -f "$out/$m" ]] && printf '%s\n' "$m"
	done <"$out/modules.order"
}
