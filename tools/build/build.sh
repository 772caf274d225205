#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh [KVER] [kbuild args...]: build all smq modules against the headers
# of the kernel KVER names (see kver.sh; default 6.12) into
# build/<release>/. KDIR=<dir> builds against that kernel tree instead (an
# installed headers package or any configured and built kernel source tree,
# e.g. the debug kernel's); the release is then the tree's own (its
# UTS_RELEASE, see smq_kdir_release) and KVER is ignored. SMQ_BUILD_DIR=<dir>
# builds into <dir>/<release>/ instead (tools/lint.sh's W=1 builds). Extra
# arguments go to the kernel's make (e.g. V=1, W=1, C=2).
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

spec="${1:-$SMQ_DEFAULT_KVER}"
shift || true
kdir="${KDIR:-}"
if [[ -n "$kdir" ]]; then
	[[ -f "$kdir/Makefile" && -f "$kdir/include/config/kernel.release" ]] ||
		smq_die "KDIR=$kdir: not a configured kernel tree (no Makefile or include/config/kernel.release; run make modules_prepare there)"
	rel="$(smq_kdir_release "$kdir")"
else
	rel="$("$SMQ_TOOLS/build/kver.sh" "$spec")"
	kdir="/usr/src/linux-headers-$rel"
	[[ -f "$kdir/Makefile" ]] || kdir="/lib/modules/$rel/build"
fi
[[ -f "$kdir/Makefile" ]] || smq_die "no kernel build tree for $rel at $kdir"

out="${SMQ_BUILD_DIR:-$SMQ_TREE/build}/$rel"
"$SMQ_TOOLS/build/mirror.sh" "$out"

# Inherit the jobserver of a parallel top-level make; otherwise use all CPUs.
jobs=()
[[ "${MAKEFLAGS:-}" == *jobserver* ]] || jobs=("-j$(nproc)")

smq_log "building for $rel in ${out#"$SMQ_TREE"/}"
"${MAKE:-make}" "${jobs[@]}" -C "$kdir" M="$out" "$@" modules
mapfile -t kos < <(smq_built_modules "$out")
smq_log "$rel: ${#kos[@]} module(s): ${kos[*]:-none}"
