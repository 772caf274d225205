#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh [--print]: build (or find in the cache) the debug guest
# kernel of `make check-debug` and print its release.
#
# A 6.12 kernel from Debian's linux-source-6.12, configured from
# x86_64_defconfig + kvm_guest.config + debug-kernel.config (beside this
# script: KASAN, lockdep, kmemleak, debug objects, failslab, ...) and the
# modules the guest tests load. The result is laid out like a guest kernel of
# setup-host.sh, so run.sh and mkimage.sh boot it by its release:
#   $SMQ_CACHE/kernels/<release>/boot/vmlinuz-<release>
#   $SMQ_CACHE/kernels/<release>/lib/modules/<release>/...
# and the configured, built tree stays in $SMQ_CACHE/debug-src/tree/ for
# out-of-tree module builds (`make KDIR=<tree>`); release = <version>-smqdebug.
# The build is keyed by the source package version, the config fragment and
# RECIPE below (bump it when the build steps change): a new key rebuilds in
# place (incrementally: make only recompiles what the new config touches).
#
# --print: only print "<release> <tree>" if the kernel is built, else fail.
# Installs linux-source-6.12 and the build dependencies (apt) when missing.
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"
SMQ_PROG=debug-kernel

FRAGMENT="$SMQ_TOOLS/vm/debug-kernel.config"
SRC_PKG=linux-source-6.12
BUILD_DEPS=(bc bison flex libelf-dev libssl-dev cpio kmod rsync xz-utils python3)
RECIPE=1
LOCALVERSION=-smqdebug
TREE="$SMQ_CACHE/debug-src/tree"

pkg_ok() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }

ensure_packages() {
	local p
	local -a need=()
	for p in "$SRC_PKG" "${BUILD_DEPS[@]}"; do
		pkg_ok "$p" || need+=("$p")
	done
	((${#need[@]})) || return 0
	[[ $EUID -eq 0 ]] || smq_die "need packages ${need[*]}: run as root"
	smq_log "installing: ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" ||
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${need[@]}"; }
}

src_version() { dpkg-query -W -f='${Version}' "$SRC_PKG"; }

cache_key() {
	{ src_version; echo "$RECIPE"; cat "$FRAGMENT"; } | sha256sum | cut -c1-16
}

kmake() { make -s -C "$TREE" LOCALVERSION="$LOCALVERSION" "$@"; }

# Print "<release> <tree>" of a complete build with key $1; fail if none.
find_built() {
	local rel
	[[ -f "$TREE/.smq-built" && "$(sed -n 2p "$TREE/.smq-built")" == "$1" ]] || return 1
	rel="$(sed -n 1p "$TREE/.smq-built")"
	[[ -f "$(smq_kernel_dir "$rel")/.smq-complete" ]] || return 1
	printf '%s %s\n' "$rel" "$TREE"
}

build() {
	local key="$1" tree="$TREE" tarball rel kroot start=$SECONDS
	tarball="$(compgen -G "/usr/src/$SRC_PKG.tar.*" | head -n 1)" ||
		smq_die "no /usr/src/$SRC_PKG.tar.* (is $SRC_PKG installed?)"
	if [[ ! -f "$tree/Makefile" ]]; then
		smq_log "unpacking $tarball"
		rm -rf "$tree" "$tree.tmp"
		mkdir -p "$tree.tmp"
		tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
		mv "$tree.tmp" "$tree"
	fi
	rm -f "$tree/.smq-built"
	smq_log "configuring $tree"
	kmake x86_64_defconfig
	(cd "$tree" && scripts/kconfig/merge_config.sh -m .config \
		kernel/configs/kvm_guest.config "$FRAGMENT" >/dev/null)
	kmake olddefconfig
	check_config "$tree"
	smq_log "building (about 25 min on 2 cores from scratch)"
	kmake -j"$(nproc)" bzImage modules
	rel="$(kmake kernelrelease)"
	kroot="$(smq_kernel_dir "$rel")"
	rm -rf "$kroot"
	mkdir -p "$kroot/boot"
	cp "$tree/arch/x86/boot/bzImage" "$kroot/boot/vmlinuz-$rel"
	kmake INSTALL_MOD_PATH="$kroot" INSTALL_MOD_STRIP=1 modules_install
	rm -f "$kroot/lib/modules/$rel/build" "$kroot/lib/modules/$rel/source"
	depmod -b "$kroot" "$rel"
	printf '%s\n' "$(src_version)-debug-$key" >"$kroot/.smq-complete"
	printf '%s\n%s\n' "$rel" "$key" >"$tree/.smq-built"
	smq_log "built $rel in $((SECONDS - start))s"
}

# Every option of the fragment must have survived olddefconfig (a missing
# dependency silently drops one).
check_config() {
	local tree="$1" line opt bad=0
	while IFS= read -r line; do
		[[ "$line" =~ ^(CONFIG_[A-Z0-9_]+)=(.*)$ ]] || continue
		opt="${BASH_REMATCH[1]}"
		if ! grep -qx "$line" "$tree/.config"; then
			smq_log "config: wanted $line, got: $(grep -E "^(# )?${opt}[= ]" "$tree/.config" || echo unset)"
			bad=1
		fi
	done <"$FRAGMENT"
	((bad == 0)) || smq_die "the debug config lost options (see above)"
}

main() {
	local key
	if [[ "${1:-}" == --print ]]; then
		pkg_ok "$SRC_PKG" || exit 1
		find_built "$(cache_key)"
		return
	fi
	ensure_packages
	key="$(cache_key)"
	mkdir -p "$SMQ_CACHE/debug-src"
	exec 9>"$SMQ_CACHE/debug-src/.lock"
	flock 9
	find_built "$key" >/dev/null || build "$key"
	find_built "$key"
}

main "$@"
