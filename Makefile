# SPDX-License-Identifier: GPL-2.0
#
# amdx: out-of-tree module build, tests and demo.
#
# KDIR defaults to the running kernel's build tree when it has one, else
# to the newest installed Debian linux-headers-*-amd64.  `make check` and
# `make demo` build their own test kernel (tools/testing/vm).

KVER ?= $(shell uname -r)
KDIR ?= $(firstword $(wildcard /lib/modules/$(KVER)/build) \
	  $(lastword $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V)))
AMDX_WERROR ?=
PROBES := generated/amdx_probes.h
VM := tools/testing/vm

export AMDX_WERROR

.PHONY: all modules clean probes check demo vm-shell lint tools bench help \
	fuzz coverage

all: modules

$(PROBES): scripts/probe.sh $(wildcard scripts/probes/*.c) generated/kdir.stamp
	scripts/probe.sh $(KDIR) $@

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

check:
	$(VM)/check.sh

demo:
	$(VM)/demo.sh

vm-shell:
	$(VM)/check.sh --shell

bench:
	$(VM)/check.sh --bench

lint:
	$(VM)/lint.sh

# The ioctl fuzzer alone in the test VM for DURATION seconds, with
# rmmod/insmod of amdx_sim (Documentation/testing.rst).
DURATION ?= 1800
fuzz:
	DURATION=$(DURATION) $(VM)/check.sh --fuzz

# Every suite on a gcov kernel; line and function coverage per file.
coverage:
	$(VM)/check.sh --coverage

help:
	@echo "make [KDIR=...]   build amdx.ko and amdx_sim.ko (KDIR=$(KDIR))"
	@echo "make check        all tests in QEMU (installs what it needs)"
	@echo "make demo         the main job: boot the VM and show amdx"
	@echo "make vm-shell     a shell in the test VM with amdx loaded"
	@echo "make lint         checkpatch, sparse, header and C++ lint"
	@echo "make fuzz         the ioctl fuzzer for DURATION s (default 1800)"
	@echo "make coverage     all suites on a gcov kernel, coverage per file"

FORCE:
