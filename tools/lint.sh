#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh [GATE...]: the kernel-style gates of `make lint` (default: all, in
# this order). Each fails on any finding:
#   - shellcheck: every script: host-side bash scripts, and the busybox-sh
#     guest scripts (checked as dash, the closest dialect)
#   - checkpatch: scripts/checkpatch.pl --strict --no-tree -f over every .c
#     and .h of block/ scsi/ drivers/ include/ tools/bench/nullbio/ and
#     tests/guest/helpers/
#   - kernel-doc: scripts/kernel-doc -none -Wall over every .c and .h of
#     block/ scsi/ drivers/ include/ tools/bench/nullbio/, and every function exported with
#     EXPORT_SYMBOL*() has a kernel-doc comment
#   - w1-6.12: the modules build for 6.12 with W=1 without a warning
#   - sparse: make C=2 (sparse) over that build: no warning in smq's files
#   - w1-6.1: the same W=1 build for 6.1
# checkpatch.pl and kernel-doc (and the files checkpatch reads:
# spelling.txt, const_structs.checkpatch) are 6.12's, taken from Debian's
# linux-source-6.12 package into $SMQ_CACHE/lint/<package version>/ (no
# kernel tree needed). Missing packages (shellcheck, sparse, perl,
# linux-source-6.12) are installed with apt-get (as root), like
# tools/vm/setup-host.sh does; when all is there it needs neither root nor
# the network. The W=1 builds go to build/lint/<release>/ (rebuilt from
# scratch every time, so that no warning hides in an up-to-date object) and
# need the kernel headers of tools/vm/setup-host.sh.
#
# Prints "lint: GATE: ok (...)" or "lint: GATE: FAIL (...)" and the findings
# for each gate, then "N passed, N failed" on a line of its own; exit status
# 1 if any gate failed.
set -uo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/lib/smq.sh"
SMQ_PROG=lint
cd "$SMQ_TREE" || exit 1

ALL_GATES=(shellcheck checkpatch kernel-doc w1-6.12 sparse w1-6.1)
PACKAGES=(shellcheck sparse perl linux-source-6.12)
SRC_PKG=linux-source-6.12
# What is taken from the kernel source package, relative to its top.
SRC_FILES=(scripts/checkpatch.pl scripts/spelling.txt
	scripts/const_structs.checkpatch scripts/kernel-doc)
LINT_CACHE="$SMQ_CACHE/lint"
LINT_BUILD="$SMQ_TREE/build/lint"

# checkpatch types that do not apply to an out-of-tree module, each with
# the reason:
CHECKPATCH_IGNORE=(
	# include/smq/compat.h must test the kernel version (in
	# SMQ_KERNEL_AT_LEAST(), and in include/smq/unaligned.h, the part of
	# it the pure-logic files include): smq builds unchanged for 6.1 and
	# 6.12, and compat.h is the one place that bridges their API
	# differences (in tree, code is only ever for the kernel it is merged
	# into).
	LINUX_VERSION_CODE
)
# The tree's own typedefs (checkpatch --typedefsfile). checkpatch reads one
# file at a time, so it cannot know a type defined in a header and then
# misreads the declarations that use it; listing a typedef also accepts its
# definition (NEW_TYPEDEFS). smq_sb_for_each_fn: a callback type
# (include/smq/sbitmap.h). smq_blk_mode_t: include/smq/compat.h's name for
# the kernel's blk_mode_t (6.5), fmode_t before it; a type that differs
# between the kernels smq builds for can only be a typedef; smq_bdops_open_t
# likewise for what block_device_operations ->open is given (compat.h).
CHECKPATCH_TYPEDEFS=(smq_sb_for_each_fn smq_blk_mode_t smq_bdops_open_t)
# tests/unit/ is not checked (c_files lists only block/ scsi/ drivers/
# include/): it is userspace test code, and its shims of kernel headers
# (tests/unit/include/linux/*.h, like the kernel's tools/include) must use
# the kernel's own names and idioms (typedefs such as u8 and spinlock_t,
# volatile bitmap arguments, bare __attribute__s, function-like macros that
# evaluate their arguments twice) on userspace types, so it is deliberately
# not kernel code.  Every file checkpatch sees builds in the kernel.
# tests/guest/helpers/*.c are userspace programs (built with -static for the
# guest), checked with two more checks off: their command-line usage strings
# name each subcommand, which is also the name of the function implementing
# it (EMBEDDED_FUNCTION_NAME); and volatile is how userspace C keeps stores
# the compiler would otherwise drop (smq-helper touches its stack to fault
# it in before mlockall()); the kernel's primitives that make volatile
# wrong in kernel code do not exist there (VOLATILE).
CHECKPATCH_HELPER_IGNORE=(EMBEDDED_FUNCTION_NAME VOLATILE)

passed=0 failed=0 gate_start=$SECONDS
scripts_dir="" lint_rel=""

# gate_ok NAME WHAT / gate_fail NAME WHAT [FINDINGS-FILE]
gate_ok() {
	printf 'lint: %s: ok (%s, %ss)\n' "$1" "$2" "$((SECONDS - gate_start))"
	passed=$((passed + 1))
}
gate_fail() {
	printf 'lint: %s: FAIL (%s, %ss)\n' "$1" "$2" "$((SECONDS - gate_start))"
	[[ -z "${3:-}" ]] || cat "$3"
	failed=$((failed + 1))
}

# join SEP WORD...: the words joined by SEP.
join() {
	local IFS="$1"
	shift
	echo "$*"
}

pkg_ok() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }

# Install the packages the gates need, when missing.
ensure_packages() {
	local p
	local -a need=()
	for p in "${PACKAGES[@]}"; do
		pkg_ok "$p" || need+=("$p")
	done
	((${#need[@]})) || return 0
	[[ $EUID -eq 0 ]] || { smq_log "need packages ${need[*]}: run as root"; return 1; }
	smq_log "installing: ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" ||
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${need[@]}"; }
}

# Extract SRC_FILES from the installed kernel source package into
# $LINT_CACHE/<version>/ once per package version; set scripts_dir.
ensure_scripts() {
	local ver dir tarball top f
	local -a members=()
	ver="$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null)" ||
		{ smq_log "$SRC_PKG is not installed"; return 1; }
	dir="$LINT_CACHE/$ver"
	scripts_dir="$dir/scripts"
	[[ -f "$dir/.complete" ]] && return 0
	tarball="$(compgen -G "/usr/src/$SRC_PKG.tar.*" | head -n 1)" ||
		{ smq_log "no /usr/src/$SRC_PKG.tar.* (is $SRC_PKG installed?)"; return 1; }
	mkdir -p "$LINT_CACHE" || return 1
	exec 9>"$LINT_CACHE/.lock"
	flock 9
	if [[ ! -f "$dir/.complete" ]]; then
		top="$(tar -tf "$tarball" | head -n 1)"
		top="${top%%/*}"
		for f in "${SRC_FILES[@]}"; do
			members+=("$top/$f")
		done
		smq_log "extracting ${SRC_FILES[*]} from $tarball"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xf "$tarball" -C "$dir.tmp" --strip-components=1 "${members[@]}" ||
			{ rm -rf "$dir.tmp"; exec 9>&-; return 1; }
		printf '%s\n' "$ver" >"$dir.tmp/.complete"
		# Older versions' scripts are of no further use.
		find "$LINT_CACHE" -mindepth 1 -maxdepth 1 -type d ! -name "$ver.tmp" \
			-exec rm -rf {} +
		mv "$dir.tmp" "$dir"
	fi
	exec 9>&-
}

# The C sources and headers of the modules (tracked or new, not ignored).
c_files() {
	git ls-files -co --exclude-standard -- block scsi drivers include tools/bench/nullbio |
		grep -E '\.[ch]$' | sort
}

helper_files() {
	git ls-files -co --exclude-standard -- tests/guest/helpers | grep -E '\.c$' | sort
}

gate_shellcheck() {
	local tmp="$1" rc=0
	local -a host guest
	mapfile -t host < <(git ls-files -co --exclude-standard -- tools .ci |
		xargs grep -lE '^#!/usr/bin/env bash|^# shellcheck shell=bash' |
		grep -v '^tools/vm/guest/')
	mapfile -t guest < <(git ls-files -co --exclude-standard -- tests/guest tools/vm/guest tools/bench |
		xargs grep -lE '^# shellcheck shell=dash')
	# The two sets at once (one CPU each).
	shellcheck -x "${host[@]}" >"$tmp.host" 2>&1 &
	local pid=$!
	shellcheck -x -s dash -P tests/guest "${guest[@]}" >"$tmp" 2>&1 || rc=1
	wait "$pid" || rc=1
	cat "$tmp.host" >>"$tmp"
	local what="${#host[@]} host scripts, ${#guest[@]} guest scripts"
	if ((rc)); then
		gate_fail shellcheck "$what" "$tmp"
	else
		gate_ok shellcheck "$what"
	fi
}

gate_checkpatch() {
	local tmp="$1" n
	local -a files=() helpers=() opts
	mapfile -t files < <(c_files)
	mapfile -t helpers < <(helper_files)
	printf '%s\n' "${CHECKPATCH_TYPEDEFS[@]}" >"$tmp.typedefs"
	opts=(--strict --no-tree --terse --show-types --no-summary --color=never
		--typedefsfile "$tmp.typedefs")
	: >"$tmp"
	# A file at a time, as many at once as there are CPUs.
	printf '%s\0' "${files[@]}" |
		xargs -0 -n 8 -P "$(nproc)" perl "$scripts_dir/checkpatch.pl" "${opts[@]}" \
			--ignore "$(join , "${CHECKPATCH_IGNORE[@]}")" -f >>"$tmp" 2>&1
	if ((${#helpers[@]})); then
		perl "$scripts_dir/checkpatch.pl" "${opts[@]}" \
			--ignore "$(join , "${CHECKPATCH_IGNORE[@]}" "${CHECKPATCH_HELPER_IGNORE[@]}")" \
			-f "${helpers[@]}" >>"$tmp" 2>&1
	fi
	n=$((${#files[@]} + ${#helpers[@]}))
	if [[ -s "$tmp" ]]; then
		gate_fail checkpatch "$(grep -c . "$tmp") findings in $n files" "$tmp"
	else
		gate_ok checkpatch "$n files"
	fi
}

# The exported functions of FILE that have no kernel-doc comment in it.
undocumented_exports() {
	local file="$1"
	local -a syms
	mapfile -t syms < <(sed -nE 's/^\s*EXPORT_SYMBOL(_GPL|_NS|_NS_GPL)?\s*\(\s*(\w+).*/\2/p' "$file")
	((${#syms[@]})) || return 0
	comm -23 <(printf '%s\n' "${syms[@]}" | sort -u) \
		<(perl "$scripts_dir/kernel-doc" -rst -export "$file" 2>/dev/null |
			sed -nE 's/^\.\. c:function:: [^(]*[^[:alnum:]_(]([[:alpha:]_][[:alnum:]_]*)\s*\(.*/\1/p' |
			sort -u) |
		sed "s|^|$file: exported without a kernel-doc comment: |"
}

gate_kernel_doc() {
	local tmp="$1" f
	local -a files
	mapfile -t files < <(c_files)
	perl "$scripts_dir/kernel-doc" -none -Wall "${files[@]}" >"$tmp" 2>&1
	for f in "${files[@]}"; do
		[[ "$f" == *.c ]] && undocumented_exports "$f"
	done >>"$tmp"
	if [[ -s "$tmp" ]]; then
		gate_fail kernel-doc "$(grep -c . "$tmp") findings in ${#files[@]} files" "$tmp"
	else
		gate_ok kernel-doc "${#files[@]} files"
	fi
}

# lint_build NAME KVER LOG [kbuild args...]: build for KVER into
# build/lint/<release>/, output to LOG; set lint_rel to the release. Fails
# the gate NAME (and returns 1) if there are no headers or the build fails.
lint_build() {
	local name="$1" kver="$2" log="$3" rc=0
	shift 3
	if ! lint_rel="$("$SMQ_TOOLS/build/kver.sh" "$kver" 2>"$log")"; then
		gate_fail "$name" "no kernel headers for $kver" "$log"
		return 1
	fi
	SMQ_BUILD_DIR="$LINT_BUILD" "$SMQ_TOOLS/build/build.sh" "$lint_rel" "$@" \
		>"$log" 2>&1 || rc=$?
	if ((rc)); then
		gate_fail "$name" "$lint_rel: build failed, status $rc" \
			<(grep -iE 'warning|error' "$log" || tail -n 30 "$log")
		return 1
	fi
}

# gate_w1 LOG NAME KVER: a W=1 build from scratch (so that no warning hides
# in an up-to-date object); any warning (compiler, modpost, W=1's
# kernel-doc) fails.
gate_w1() {
	local log="$1" name="$2" kver="$3" rel
	rel="$("$SMQ_TOOLS/build/kver.sh" "$kver" 2>/dev/null)" && rm -rf "${LINT_BUILD:?}/$rel"
	lint_build "$name" "$kver" "$log" W=1 || return 0
	if grep -qi 'warning' "$log"; then
		gate_fail "$name" "$lint_rel, W=1: $(grep -ci 'warning' "$log") warnings" \
			<(grep -i 'warning' "$log")
	else
		gate_ok "$name" "$lint_rel, W=1"
	fi
}

# gate_sparse LOG: C=2 runs sparse over every file of the W=1 6.12 build
# (already up to date after w1-6.12: nothing is recompiled); only warnings
# in smq's own files count (sparse names them by their path in the build
# mirror).
gate_sparse() {
	local log="$1" out n
	lint_build sparse 6.12 "$log" W=1 C=2 || return 0
	out="$LINT_BUILD/$lint_rel"
	grep -F "$out/" "$log" | grep -E ': (warning|error):' | sed "s|^$out/||" >"$log.smq"
	n="$(grep -c '^  CHECK ' "$log")"
	if [[ -s "$log.smq" ]]; then
		gate_fail sparse "$lint_rel: $(grep -c . "$log.smq") warnings" "$log.smq"
	elif ((n == 0)); then
		gate_fail sparse "$lint_rel: sparse checked no file" <(tail -n 30 "$log")
	else
		gate_ok sparse "$lint_rel, $n files"
	fi
}

main() {
	local gate tmpdir
	local -a gates=("$@")
	((${#gates[@]})) || gates=("${ALL_GATES[@]}")
	for gate in "${gates[@]}"; do
		[[ " ${ALL_GATES[*]} " == *" $gate "* ]] ||
			smq_die "unknown gate '$gate' (gates: ${ALL_GATES[*]})"
	done
	if ! ensure_packages || ! ensure_scripts; then
		gate_fail setup "missing packages or scripts, see above"
		echo "$passed passed, $failed failed"
		return 1
	fi
	tmpdir="$(mktemp -d)"
	# shellcheck disable=SC2064
	trap "rm -rf '$tmpdir'" EXIT
	for gate in "${gates[@]}"; do
		gate_start=$SECONDS
		case "$gate" in
		shellcheck) gate_shellcheck "$tmpdir/$gate" ;;
		checkpatch) gate_checkpatch "$tmpdir/$gate" ;;
		kernel-doc) gate_kernel_doc "$tmpdir/$gate" ;;
		w1-6.12) gate_w1 "$tmpdir/$gate" w1-6.12 6.12 ;;
		w1-6.1) gate_w1 "$tmpdir/$gate" w1-6.1 6.1 ;;
		sparse) gate_sparse "$tmpdir/$gate" ;;
		esac
	done
	echo "$passed passed, $failed failed"
	((failed == 0))
}

main "$@"
