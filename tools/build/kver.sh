#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kver.sh [SPEC]: print the kernel release with installed headers that SPEC
# names (default 6.12). SPEC is a full release (6.1.0-57-amd64) or a kernel
# line (6.1, 6.12: the newest installed release of that line).
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

spec="${1:-$SMQ_DEFAULT_KVER}"
if ! smq_headers_release "$spec"; then
	smq_die "no installed kernel headers match '$spec' (installed: $(smq_header_releases | tr '\n' ' ')); run tools/vm/setup-host.sh as root"
fi
