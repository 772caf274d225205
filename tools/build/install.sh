#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# install.sh install|uninstall [KVER]: install the smq modules built for a
# kernel (by build.sh, in build/<release>/) into
# /lib/modules/<release>/updates/smq/, keeping their block/, scsi/ and
# drivers/sas/ paths, and run depmod -a <release>; or remove them again.
# The release is chosen as build.sh chooses it: KDIR=<dir> names a kernel
# tree (its own release, smq_kdir_release), else KVER (a kernel line such
# as 6.12 or a full release; default 6.12).
#
# INSTALL_MOD_PATH=<dir> installs under <dir>/lib/modules/ as the kernel's
# modules_install does; depmod -b <dir> then runs when <dir> holds that
# kernel's modules (modules.order), else it is left to the target system.
# DESTDIR=<dir> prefixes the path as well, for packaging: no depmod (the
# package's scripts run it where it is installed).
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

usage() { smq_die "usage: install.sh install|uninstall [KVER]"; }

action="${1:-}"
[[ "$action" == install || "$action" == uninstall ]] || usage
spec="${2:-$SMQ_DEFAULT_KVER}"

if [[ -n "${KDIR:-}" ]]; then
	rel="$(smq_kdir_release "$KDIR")" ||
		smq_die "KDIR=$KDIR: not a configured kernel tree (no include/config/kernel.release)"
elif ! rel="$("$SMQ_TOOLS/build/kver.sh" "$spec" 2>/dev/null)"; then
	# A full release whose headers are gone can still be uninstalled.
	if [[ "$action" == uninstall && -d "/lib/modules/$spec" ]]; then
		rel="$spec"
	else
		"$SMQ_TOOLS/build/kver.sh" "$spec" >/dev/null
		exit 1
	fi
fi

modroot="${DESTDIR:-}${INSTALL_MOD_PATH:-}/lib/modules/$rel"
dest="$modroot/updates/smq"

run_depmod() {
	local base="${INSTALL_MOD_PATH:-}"
	local -a args=(-a "$rel")

	if [[ -n "${DESTDIR:-}" ]]; then
		smq_log "DESTDIR is set: not running depmod (run depmod -a $rel where the modules end up)"
		return 0
	fi
	if [[ -n "$base" ]]; then
		if [[ ! -f "$modroot/modules.order" ]]; then
			smq_log "$modroot holds no kernel modules.order: not running depmod (run depmod -a $rel on the target)"
			return 0
		fi
		args=(-b "$base" "${args[@]}")
	fi
	PATH="$PATH:/sbin:/usr/sbin"
	command -v depmod >/dev/null || smq_die "depmod not found (apt-get install kmod)"
	smq_log "depmod ${args[*]}"
	depmod "${args[@]}"
}

# Remove what an earlier install put in $dest (only modules, then the
# directories left empty).
remove_installed() {
	[[ -d "$dest" ]] || return 1
	find "$dest" -type f \( -name '*.ko' -o -name '*.ko.*' \) -print -delete |
		sed 's/^/removed /' >&2
	find "$dest" -depth -type d -empty -delete
	return 0
}

if [[ "$action" == uninstall ]]; then
	if remove_installed; then
		run_depmod
	else
		smq_log "nothing installed in $dest"
	fi
	exit 0
fi

src="$SMQ_TREE/build/$rel"
mapfile -t kos < <(smq_built_modules "$src")
((${#kos[@]})) ||
	smq_die "no modules built for $rel in ${src#"$SMQ_TREE"/}: build them first (make${KDIR:+ KDIR=$KDIR}${2:+ KVER=$2})"
remove_installed || true
for ko in "${kos[@]}"; do
	install -D -m 0644 "$src/$ko" "$dest/$ko"
	smq_log "installed $dest/$ko"
done
run_depmod
