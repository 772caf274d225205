#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mirror.sh OUTDIR: make OUTDIR a symlink farm of the kernel-module sources
# (top-level Kbuild and VERSION; Kbuild, Makefile, *.c, *.h, *.S under
# block/ scsi/ drivers/ include/ and the bench's tools/bench/nullbio/), so
# Kbuild can build there with M=OUTDIR and leave the source tree clean. Run on every build: new files get a link,
# links to deleted files are removed. Build products in OUTDIR are left alone.
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

out="${1:?usage: mirror.sh OUTDIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# Links whose source is gone (renamed or deleted files).
find "$out" -xtype l -delete

link() {
	local src="$SMQ_TREE/$1" dst="$out/$1"
	[[ -L "$dst" && "$(readlink "$dst")" == "$src" ]] && return 0
	mkdir -p "$(dirname "$dst")"
	ln -sfn "$src" "$dst"
}

link Kbuild
if [[ -f "$SMQ_TREE/VERSION" ]]; then
	link VERSION
fi
dirs=()
for d in block scsi drivers include tools/bench/nullbio; do
	[[ -d "$SMQ_TREE/$d" ]] && dirs+=("$d")
done
((${#dirs[@]})) || exit 0
while IFS= read -r -d '' f; do
	link "$f"
done < <(cd "$SMQ_TREE" && find "${dirs[@]}" -type f \
	\( -name Kbuild -o -name Makefile -o -name '*.[chS]' \) \
	! -name '*.mod.c' -print0)
