# SPDX-License-Identifier: GPL-2.0
# iov_iter for C and Rust on Debian 12's Linux 6.12: build the patched
# kernel, boot it in QEMU, run every test. "make help" lists the targets.

LLVM ?= 1
ifneq ($(LLVM),1)
$(error this project builds the kernel with LLVM=1 (clang + Rust); got LLVM=$(LLVM))
endif

B       := $(CURDIR)/build
KSRC    := $(B)/linux
KWORK   := $(B)/linux-work
KOBJ    := $(B)/obj
TOOLS   := $(B)/tools
QOUT    := $(B)/qemu
TARBALL := /usr/src/linux-source-6.12.tar.xz
JOBS    ?= $(shell echo $$(($$(nproc) + 1)))
BOOT_TIMEOUT ?= 900
# Patch files (globs) to leave out of the build, e.g. EXCLUDE='*-filemap-*'.
EXCLUDE ?=
# Requests in the iov_ramfile random run (a soak test; raise BOOT_TIMEOUT).
SOAK ?=
GUEST_ARGS = $(if $(SOAK),IOV_SOAK=$(SOAK) TEST_TIMEOUT=$(BOOT_TIMEOUT))
# Not the default 4 MiB, and not a whole number of pages: the capacity
# test checks that the module parameter took effect.
RAMFILE_CAPACITY = 4195304
GUEST_ARGS += c_iov_ramfile.capacity=$(RAMFILE_CAPACITY) rust_iov_ramfile.capacity=$(RAMFILE_CAPACITY)

# Start time for the "[mm:ss]" progress lines, fixed once per top-level make.
ifndef IOV_T0
IOV_T0 := $(shell date +%s)
endif
export IOV_T0
export PATH := $(TOOLS)/bin:/usr/lib/llvm-19/bin:$(PATH)

# Debian's Rust, named explicitly: a rustup toolchain may come first in PATH.
# CLIPPY=1 always: clippy-driver compiles like rustc and adds its lints,
# which CONFIG_WERROR turns into errors.
KMAKE = $(MAKE) -C $(KSRC) ARCH=x86_64 LLVM=1 CLIPPY=1 \
	RUSTC=/usr/bin/rustc HOSTRUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
	RUSTFMT=/usr/bin/rustfmt CLIPPY_DRIVER=/usr/bin/clippy-driver \
	BINDGEN=$(TOOLS)/bin/bindgen

STAMP_TREE   := $(KSRC)/.git/debian-version
STAMP_SERIES := $(B)/series.applied
STAMP_CONFIG := $(B)/config.done
BZIMAGE      := $(KOBJ)/arch/x86/boot/bzImage
INITRAMFS    := $(B)/initramfs.cpio.gz

.PHONY: help deps tools tree patches patches-check apply config kernel lint-cached \
	rustavailable tests initramfs lint qemu check clean distclean FORCE

help:
	@echo 'Quick start (Debian 12, root or passwordless sudo for apt):'
	@echo '  make LLVM=1 qemu      build, boot, run the demo and every test; interactive'
	@echo '                        shell afterwards when stdin is a terminal'
	@echo '  make LLVM=1 check     the same, non-interactive; summary table; exit code'
	@echo
	@echo 'Steps (each runs what it needs first):'
	@echo '  deps          install missing Debian packages'
	@echo '  tools         bindgen >= 0.65.1 in build/tools (Debian 13 package if needed)'
	@echo '  tree          extract linux-source-6.12 into build/linux, commit "pristine"'
	@echo '  patches       regenerate patches/ from c-core/, rust-bindings/, samples/'
	@echo '  patches-check fail if patches/ is stale'
	@echo '  apply         git am patches/ onto pristine (EXCLUDE=glob leaves some out)'
	@echo '  config        guest .config: tinyconfig + qemu/guest.config, verified'
	@echo '  rustavailable ask the kernel whether the Rust toolchain is usable'
	@echo '  kernel        build the kernel in build/obj (incremental)'
	@echo '  tests         build the user-space test programs in qemu/user-tests'
	@echo '  initramfs     busybox + qemu/init + test programs'
	@echo '  lint          checkpatch --strict on patches/, rustfmtcheck'
	@echo '  check-without-filemap  check on a kernel without the mm/filemap patch'
	@echo '  bench-filemap small-write benchmark, kernels with/without the mm/filemap'
	@echo '                patch booted alternately (BENCH_BOOTS each; not in check)'
	@echo '  clean         remove kernel objects and boot output (keeps the tree)'
	@echo '  distclean     remove build/ entirely'
	@echo
	@echo 'Knobs: JOBS=$(JOBS) BOOT_TIMEOUT=$(BOOT_TIMEOUT) EXCLUDE=$(EXCLUDE) SOAK=$(SOAK)'

deps:
	@mkdir -p $(B)
	@scripts/deps.sh $(B)/deps.log

$(TARBALL): | deps ;

$(TOOLS)/bin/bindgen: | deps
	@scripts/bindgen.sh $(TOOLS)

tools: $(TOOLS)/bin/bindgen

$(STAMP_TREE): $(TARBALL) | deps
	@scripts/tree.sh $(TARBALL) $(KSRC) $(KWORK)

tree: $(STAMP_TREE)

patches: $(STAMP_TREE)
	@scripts/mkpatches.sh $(KWORK) patches

patches-check: $(STAMP_TREE)
	@scripts/mkpatches.sh --check $(KWORK) patches

# Rewritten only when the applied series changes, so what depends on it is
# rebuilt only then.
$(STAMP_SERIES): $(STAMP_TREE) FORCE
	@scripts/apply.sh $(KSRC) $(KWORK) patches $@ $(EXCLUDE)

apply: $(STAMP_SERIES)

$(STAMP_CONFIG): qemu/guest.config $(STAMP_SERIES) scripts/kconfig.sh | tools
	@scripts/kconfig.sh $(KSRC) qemu/guest.config $(KOBJ) $(KMAKE)
	@touch $@

config: $(STAMP_CONFIG)

rustavailable: $(STAMP_TREE) | tools
	@$(KMAKE) O=$(KOBJ) rustavailable

kernel: $(STAMP_CONFIG)
	@. scripts/lib.sh; step kernel "make LLVM=1 -j$(JOBS) (log: $(B)/kernel.log)"
	@$(KMAKE) O=$(KOBJ) -j$(JOBS) all headers >$(B)/kernel.log 2>&1 || \
		{ grep -E -B2 -A8 'error|Error' $(B)/kernel.log | tail -n 60; \
		  echo 'error: kernel build failed (log: $(B)/kernel.log)'; exit 1; }
	@. scripts/lib.sh; step kernel "$$(grep -c . $(B)/kernel.log) lines of output, bzImage ready"

# Test programs are built from the patched tree, against its uapi headers.
tests: kernel
	@qemu/mktests.sh $(KSRC) $(KOBJ) qemu/user-tests $(B)/tests

initramfs: tests
	@qemu/mkinitramfs.sh $(INITRAMFS) $(B)/tests

LINT = scripts/lint.sh $(B)/lint.tap patches $(KSRC) $(KMAKE) O=$(KOBJ)

lint: kernel
	@$(LINT)

# check and qemu reuse the last lint results while nothing they cover has
# changed (a no-op re-run must be quick); "make lint" always runs it.
LINT_INPUTS = $(STAMP_SERIES) $(BZIMAGE) $(wildcard patches/*) scripts/lint.sh \
	scripts/rust-compile-fail.sh $(wildcard scripts/rust-compile-fail/*.rs)

$(B)/lint.tap: $(LINT_INPUTS)
	@$(LINT) || true

lint-cached: kernel $(B)/lint.tap
	@. scripts/lib.sh; step lint "$$(grep -c '^ok' $(B)/lint.tap) passed, $$(grep -c '^not ok' $(B)/lint.tap) failed"

RESULTS = scripts/versions.sh $(KSRC) $(KOBJ) $(TOOLS)/bin/bindgen >$(QOUT)/versions.txt && \
	qemu/results.py --out $(QOUT) --ksrc $(KSRC) --expected qemu/expected-suites \
		--versions $(QOUT)/versions.txt --lint $(B)/lint.tap

# Lint failures do not stop the boot: the results table reports them.
qemu: patches-check kernel initramfs lint-cached
	@qemu/run.sh $(BZIMAGE) $(INITRAMFS) $(QOUT) $(BOOT_TIMEOUT) $(GUEST_ARGS)
	@$(RESULTS)

check: patches-check kernel initramfs lint-cached
	@qemu/run.sh $(BZIMAGE) $(INITRAMFS) $(QOUT) $(BOOT_TIMEOUT) $(GUEST_ARGS) </dev/null
	@$(RESULTS)

# The mm/filemap patch (by file name), for EXCLUDE: the selftests must pass
# with and without it.
FILEMAP_PATCH := *-mm-filemap-*
BENCH       := $(B)/bench
BENCH_BOOTS ?= 10

.PHONY: check-without-filemap bench-filemap

check-without-filemap:
	@$(MAKE) --no-print-directory check EXCLUDE='$(FILEMAP_PATCH)'

# Switching EXCLUDE rebuilds only mm/filemap.o and relinks; each kernel is
# saved, then qemu/bench-filemap.sh boots them alternately.
bench-filemap: patches-check
	@$(MAKE) --no-print-directory kernel EXCLUDE='$(FILEMAP_PATCH)'
	@mkdir -p $(BENCH)/prog && cp $(BZIMAGE) $(BENCH)/bzImage.without
	@$(MAKE) --no-print-directory kernel EXCLUDE=
	@cp $(BZIMAGE) $(BENCH)/bzImage.with
	@clang -static -O2 -Wall -Wextra -Werror -o $(BENCH)/prog/bench-filemap \
		qemu/bench-filemap.c
	@qemu/mkinitramfs.sh $(BENCH)/initramfs.cpio.gz $(BENCH)/prog
	@qemu/bench-filemap.sh $(BENCH) $(BENCH_BOOTS) $(BOOT_TIMEOUT) </dev/null

clean:
	rm -rf $(KOBJ) $(KOBJ).kconfig $(QOUT) $(B)/tests $(INITRAMFS) $(STAMP_CONFIG) \
		$(B)/lint.tap* $(B)/rust-compile-fail

distclean:
	rm -rf $(B)

FORCE:
