# SPDX-License-Identifier: GPL-2.0
#
# amdx: out-of-tree module build, tests and demo.
#
# KDIR defaults to the running kernel's build tree when it has one, else
# to the newest installed generic Debian linux-headers-*-amd64 (not the
# -rt or -cloud flavours, which sort -V would put last).  `make check` and
# `make demo` build their own test kernels (tools/testing/vm).

KVER ?= $(shell uname -r)
HEADERS_DIR ?= /usr/src
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
	  $(lastword $(shell ls -d $(HEADERS_DIR)/linux-headers-*-amd64 2>/dev/null | \
			     grep -Ev -- '-(rt|cloud)-amd64$$' | sort -V)))
AMDX_WERROR ?=
PROBES := generated/amdx_probes.h
VM := tools/testing/vm

export AMDX_WERROR

.PHONY: all modules clean probes check check-loaded demo vm-shell lint tools \
	bench help kdir fuzz docs coverage replay

all: modules

# "+": probe.sh's make shares this one's job slots (make -j).
$(PROBES): scripts/probe.sh $(wildcard scripts/probes/*.c) generated/kdir.stamp
	+scripts/probe.sh $(KDIR) $@

# Re-probe whenever KDIR changes.
generated/kdir.stamp: FORCE
	@mkdir -p generated
	@echo "$(KDIR)" | cmp -s - $@ || echo "$(KDIR)" > $@

probes: $(PROBES)

modules: $(PROBES)
	@test -n "$(KDIR)" || { echo "amdx: no kernel headers found; set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	rm -rf generated

# One program per job in tools/testing/vm, sharing lib.sh
# (Documentation/testing.rst, "What runs where").
check:
	$(VM)/check.sh

# make check with AMDX_LOAD_CPUS (default 2) CPU hogs (stress-ng) beside
# it: the verdict must not change (Documentation/testing.rst, "Under load").
check-loaded:
	$(VM)/loaded.sh $(VM)/check.sh

demo:
	$(VM)/demo.sh

vm-shell:
	$(VM)/shell.sh

bench:
	$(VM)/bench.sh

lint:
	$(VM)/lint.sh

# Line and function coverage of drivers/amdx and drivers/amdx_sim by the
# whole suite on the gcov test kernel; not part of make check
# (Documentation/testing.rst, "Coverage").
coverage:
	KERNELS=$(firstword $(KERNELS) 6.1) $(VM)/coverage.sh

# Documentation/ as HTML in build/docs (Sphinx with the kernel's kernel-doc
# extension from linux-source-6.12); a warning fails.
docs:
	$(VM)/deps.sh
	scripts/docs.sh

kdir:
	@echo "$(KDIR)"

# The ioctl fuzzer alone in the first kernel's test VM for FUZZ_MINUTES
# minutes (or DURATION seconds), then its counts: calls, calls per ioctl
# and per errno; kernel reports fail the run as in make check
# (Documentation/testing.rst, "Outside tools").
FUZZ_MINUTES ?= 30
DURATION ?= $(shell echo $$(($(FUZZ_MINUTES) * 60)))
fuzz:
	SUITE=amdx_fuzz_test \
	AMDX_QEMU_APPEND="amdx.fuzz_seconds=$(DURATION)" \
	KERNELS=$(firstword $(KERNELS) 6.1) $(VM)/check.sh; rc=$$?; \
	k=$(firstword $(KERNELS) 6.1); \
	sed -n '/^### kselftest amdx_fuzz_test/,/^### /{/^# /p}' \
		build/vm/$$k/test/results.log; \
	exit $$rc

# Fault replay (Documentation/replay.rst): the loss per fault kind and
# policy measured in the first kernel's test VM (amdx_replay_test on
# REPLAY_HIVES hives of REPLAY_DEVS simulated MI300X), then the host's
# seeded year at 1k, 16k and 100k GPUs; report and PNGs in build/replay.
REPLAY_HIVES ?= 8
REPLAY_DEVS ?= 8
REPLAY_SEED ?= 35
# Debian's, which python3-matplotlib serves.
REPLAY_PYTHON ?= /usr/bin/python3
replay:
	$(VM)/deps.sh python3-matplotlib
	SUITE=amdx_replay_test \
	AMDX_QEMU_APPEND="amdx.replay_hives=$(REPLAY_HIVES) amdx.replay_devs=$(REPLAY_DEVS)" \
	KERNELS=$(firstword $(KERNELS) 6.12) $(VM)/check.sh
	mkdir -p build/replay
	grep '# REPLAY ' build/vm/$(firstword $(KERNELS) 6.12)/test/results.log \
		> build/replay/loss.log
	$(REPLAY_PYTHON) tools/replay/amdx_replay.py build/replay/loss.log \
		--seed $(REPLAY_SEED) --out build/replay

help:
	@echo "make [KDIR=...]   build amdx.ko and amdx_sim.ko (KDIR=$(KDIR))"
	@echo "make check        all tests in QEMU (installs what it needs)"
	@echo "make check-loaded make check beside two CPU hogs (stress-ng)"
	@echo "make demo         the main job: boot the VM and show amdx"
	@echo "make vm-shell     a shell in the test VM with amdx loaded"
	@echo "make lint         checkpatch, sparse, header and C++ lint"
	@echo "make coverage     line/function coverage of the modules by all tests"
	@echo "make docs         Documentation/ as HTML (build/docs); warnings fail"
	@echo "make replay       fault replay: loss measured in the VM, a year at fleet scale"

FORCE:
