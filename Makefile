# SPDX-License-Identifier: GPL-2.0
#
# smq top-level Makefile. Kernel modules are built by Kbuild (see Kbuild)
# against a chosen kernel's headers, out of tree, in build/<release>/.
#
#   make                    build all modules for the newest installed 6.12 headers
#   make KVER=6.1           ... for the newest 6.1 headers (or KVER=<full release>)
#   make all-kernels        build for 6.1 and 6.12
#   make unit               userspace unit tests (tests/unit)
#   make install            install the built modules (KVER or KDIR as for make) in
#                           /lib/modules/<release>/updates/smq/ and run depmod;
#                           INSTALL_MOD_PATH=<dir> / DESTDIR=<dir> for packaging
#   make uninstall          remove them again
#   make check              build, unit tests, lint, guest suite (6.12), guest smoke (6.1)
#   make check-long         the long lane: the long versions of cases make check
#                           runs short, more power cuts, the 6.1 suite (<= 90 min)
#   make check-debug        the guest suite on a KASAN/lockdep/kmemleak/failslab
#                           6.12 kernel built from linux-source-6.12 (cached)
#   make bench              the main job: an experiment (BENCH=..., default seed 000's
#                           grid, quick) on smq and the kernel's stack in one guest
#   make powerloss          the power-loss harness's longer lane: CUTS=50 power cuts
#                           over smq's 8 configurations beside Linux (tools/powerloss/)
#   make guest-test         only the guest suite (SUITE=check|smoke, KVER=...)
#   make harness-check      prove the guest bench (status, timeout, panic, gate)
#   make lint               kernel-style gates (tools/lint.sh): checkpatch, kernel-doc,
#                           sparse, W=1 builds (6.1, 6.12), shellcheck; GATES=... some
#   make clean              remove build/ (results/ is kept; make distclean)
#
# KDIR=<dir> builds against that kernel tree (headers package or a built
# source tree; the release is the tree's own); V=1 is passed to Kbuild.

KVER ?= 6.12
SUITE ?= check
GATES ?=
CUTS ?= 50
BENCH ?= seed000-grid --quick
TOOLS := tools

# Not exported to Kbuild: it has its own meaning of these.
unexport KVER SUITE BENCH GATES CUTS

.PHONY: all modules all-kernels unit install uninstall check check-long check-debug bench powerloss guest-test \
	harness-check lint clean distclean help

all: modules

modules:
	+@$(TOOLS)/build/build.sh $(KVER) $(if $(V),V=$(V))

all-kernels:
	+@$(TOOLS)/build/build.sh 6.1 $(if $(V),V=$(V))
	+@$(TOOLS)/build/build.sh 6.12 $(if $(V),V=$(V))

unit:
	+$(MAKE) -C tests/unit

install:
	@$(TOOLS)/build/install.sh install $(KVER)

uninstall:
	@$(TOOLS)/build/install.sh uninstall $(KVER)

check:
	+@$(TOOLS)/check.sh

check-debug:
	+@$(TOOLS)/check.sh --debug

check-long:
	+@$(TOOLS)/check.sh --long

bench:
	+@$(TOOLS)/bench/bench $(BENCH) -k $(KVER)

powerloss: modules
	+@$(TOOLS)/powerloss/powerloss.py -n $(CUTS) -k $(KVER)

guest-test: modules
	@$(TOOLS)/vm/run-suite.sh -k $(KVER) $(SUITE)

harness-check:
	@$(TOOLS)/vm/harness-check.sh $(KVER)

lint:
	+@$(TOOLS)/lint.sh $(GATES)

clean:
	rm -rf build

distclean: clean
	rm -rf results

help:
	@sed -n '3,30s/^# \{0,1\}//p' Makefile
