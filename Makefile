# SPDX-License-Identifier: GPL-2.0
# iov_iter for C and Rust on Debian 12's Linux 6.12: build the patched
# kernel, boot it in QEMU, run every test. "make help" lists the targets.

LLVM ?= 1
ifneq ($(LLVM),1)
$(error this project builds the kernel with LLVM=1 (clang + Rust); got LLVM=$(LLVM))
endif

# Kernel variants, each built and booted in directories of its own
# (build/obj-VARIANT, build/qemu-VARIANT), so the normal build stays
# incremental: qemu/VARIANT.config on top of qemu/guest.config, plus the
# user programs of qemu/user-tests-VARIANT and the suites of
# qemu/expected-suites-VARIANT.
#   DEBUG=1  the hardened kernel: KASAN, UBSAN, lockdep, usercopy faults
#   RACE=1   the data-race detector KCSAN (not with KASAN: one or the other)
DEBUG ?=
RACE  ?=
ifeq ($(filter 1,$(DEBUG))$(filter 1,$(RACE)),11)
$(error DEBUG=1 and RACE=1 are two kernels (KASAN and KCSAN exclude each other): one at a time)
endif
VARIANT := $(if $(filter 1,$(DEBUG)),debug,$(if $(filter 1,$(RACE)),race))
DBG     := $(if $(VARIANT),-$(VARIANT))

B       := $(CURDIR)/build
KSRC    := $(B)/linux
KWORK   := $(B)/linux-work
# The series as a git branch to edit ("make edit", "make export").
KEDIT   := $(B)/linux-edit
KOBJ    := $(B)/obj$(DBG)
TOOLS   := $(B)/tools
QOUT    := $(B)/qemu$(DBG)
TARBALL := /usr/src/linux-source-6.12.tar.xz
JOBS    ?= $(shell echo $$(($$(nproc) + 1)))
# Guest CPUs for check and qemu: the concurrency tests need two really
# running at once (results.py fails the run if fewer come up).
CPUS    ?= 2
BOOT_TIMEOUT ?= $(if $(VARIANT),3000,900)
# Patch files (globs) to leave out of the build, e.g. EXCLUDE='*-filemap-*'.
EXCLUDE ?=
# Requests in the iov_ramfile random run (a soak test; raise BOOT_TIMEOUT).
SOAK ?=
GUEST_ARGS = $(if $(SOAK),IOV_SOAK=$(SOAK) TEST_TIMEOUT=$(BOOT_TIMEOUT))
# Not the default 4 MiB, and not a whole number of pages: the capacity
# test checks that the module parameter took effect.
RAMFILE_CAPACITY = 4195304
GUEST_ARGS += c_iov_ramfile.capacity=$(RAMFILE_CAPACITY) rust_iov_ramfile.capacity=$(RAMFILE_CAPACITY)
# Negative: the mainline sample's tag test checks the i8 parameter parser.
GUEST_ARGS += rust_misc_mainline.tag=-7
# One suite, for the edit loop (make check SUITE=iov_iter_api_copy, or a
# user program: SUITE=hostile): kunit.filter_glob and /init run only what
# the glob matches, only that is expected, lint does not run, and nothing
# is recorded in results/.
SUITE ?=
GUEST_ARGS += $(if $(SUITE),kunit.filter_glob=$(SUITE) IOV_SUITE=$(SUITE))
# Parameters of the model-based random test, e.g. MODEL='replay=0x1234'
# to run one world again as a failure printed it, or 'seed=0 ops=5000000'.
MODEL ?=
GUEST_ARGS += $(addprefix iov_iter_model_kunit.,$(MODEL))
# The debug boot also injects usercopy faults (at least FAULTS in each of
# two workloads) and repeats the concurrency test SOAK_ROUNDS times.
FAULTS      ?= 10000
# What each variant is for: its config is refused without any of these
# (a line dropped from its .config, or one Kconfig could not take).
REQUIRED_debug := KASAN KASAN_GENERIC UBSAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP \
	DEBUG_KMAP_LOCAL_FORCE_MAP FAULT_INJECTION_USERCOPY
REQUIRED_race  := KCSAN KCSAN_SELFTEST
# Kernel log lines each boot must show (regexes for results.py): the
# model-based test's closing line with no divergence; for the race
# variant, KCSAN on and its boot selftest passed (it panics otherwise).
LOG_ALL  := \#\siov_iter\smodel:\s[0-9]+\soperations,\s0\sdivergences$$
LOG_race := kcsan:\senabled\searly kcsan:\sselftest:\s([0-9]+)/\1\stests\spassed
SOAK_ROUNDS ?= 10
# Both variants repeat the concurrency test; the debug one injects faults.
GUEST_ARGS_debug = IOV_FAULTS=$(FAULTS) IOV_CW_ROUNDS=$(SOAK_ROUNDS)
GUEST_ARGS_race = IOV_CW_ROUNDS=$(SOAK_ROUNDS)
GUEST_ARGS += $(GUEST_ARGS_$(VARIANT)) $(if $(VARIANT),TEST_TIMEOUT=$(BOOT_TIMEOUT))

# Start time for the "[mm:ss]" progress lines, fixed once per top-level make,
# and the file that collects them (for the phase times in results/).
ifndef IOV_T0
IOV_T0 := $(shell date +%s)
IOV_STEPS := $(B)/steps$(DBG).log
$(shell mkdir -p $(B) && : >$(IOV_STEPS))
endif
export IOV_T0 IOV_STEPS
export PATH := $(TOOLS)/bin:/usr/lib/llvm-19/bin:$(PATH)
# kunit.py (run by qemu/results.py from the tree) must not leave
# __pycache__ in build/linux, which has to stay pristine + patches/.
export PYTHONDONTWRITEBYTECODE := 1
# The compiler for the guest's user-space programs: static, warnings are
# errors (qemu/mktests.sh, the benchmarks).
export USER_CC := clang -static -O2 -g -Wall -Wextra -Werror
# build/linux-work and build/linux are shared by the series check and the
# apply step: one at a time, also across make invocations.
TREE_LOCK = flock $(B)/.tree.lock

# Debian's Rust, named explicitly: a rustup toolchain may come first in PATH.
# CLIPPY=1 always: clippy-driver compiles like rustc and adds its lints,
# which CONFIG_WERROR turns into errors. KBUILD_BUILD_VERSION=1, as "make
# deb" (bindeb-pkg) builds with it: otherwise the "#N" in the version
# string changes between the two, and each relinks the kernel.
KMAKE = $(MAKE) -C $(KSRC) ARCH=x86_64 LLVM=1 CLIPPY=1 KBUILD_BUILD_VERSION=1 \
	RUSTC=/usr/bin/rustc HOSTRUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
	RUSTFMT=/usr/bin/rustfmt CLIPPY_DRIVER=/usr/bin/clippy-driver \
	BINDGEN=$(TOOLS)/bin/bindgen

STAMP_TREE   := $(KSRC)/.git/debian-version
STAMP_SERIES := $(B)/series.applied
STAMP_PATCHES := $(B)/patches.checked
STAMP_CONFIG := $(B)/config$(DBG).done
BZIMAGE      := $(KOBJ)/arch/x86/boot/bzImage
INITRAMFS    := $(B)/initramfs$(DBG).cpio.gz
KLOG         := $(B)/kernel$(DBG).log
# The debug build's config fragment, user programs and expected suites are
# the normal ones plus qemu/*-debug* (concatenated under build/).
FRAGMENT     := $(if $(DBG),$(B)/guest$(DBG).config,qemu/guest.config)
USER_TESTS   := $(if $(DBG),$(B)/user-tests$(DBG),qemu/user-tests)
EXPECTED     := $(if $(DBG),$(B)/expected-suites$(DBG),qemu/expected-suites)
# The patch files EXCLUDE leaves out: the Kconfig options and KUnit suites
# they add are not asked of a kernel built without them.
EXCLUDED     := $(foreach g,$(EXCLUDE),$(wildcard patches/$(g)))
LEFT_OUT     := $(if $(EXCLUDED),$(shell sed -n 's/^+.*\.name = "\([a-z0-9_]*\)",$$/\1/p' $(EXCLUDED)))

.PHONY: help deps tools tree patches-check edit export apply config kernel \
	lint-cached rustavailable tests initramfs lint qemu check clean distclean FORCE \
	deb extmod

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
	@echo '  patches-check fail unless patches/ and the views (c-core/, rust-bindings/,'
	@echo '                samples/) are what exporting the series gives'
	@echo '  edit          the series as branch "edit" of a git worktree, build/linux-edit'
	@echo '                (git am of patches/ on pristine)'
	@echo '  export        git format-patch of that branch into patches/, and the views'
	@echo '  apply         git am patches/ onto pristine (EXCLUDE=glob leaves some out)'
	@echo '  config        guest .config: tinyconfig + qemu/guest.config, verified'
	@echo '  rustavailable ask the kernel whether the Rust toolchain is usable'
	@echo '  kernel        build the kernel in build/obj (incremental)'
	@echo '  tests         build the user-space test programs in qemu/user-tests'
	@echo '  deb           Debian packages of the kernel (bindeb-pkg) in build/deb:'
	@echo '                linux-image-*, linux-headers-* (builds Rust modules);'
	@echo '                KCONFIG=FILE: configured from FILE instead (README'
	@echo '                "Use it on your own machine")'
	@echo '  extmod        the out-of-tree module template built against the'
	@echo '                headers package alone; check boots the image package'
	@echo '  series-debian13  the series applied to Debian 13'"'"'s linux-source-6.12'
	@echo '  initramfs     busybox + qemu/init + test programs'
	@echo '  lint          checkpatch --strict, rustfmtcheck, rustdoc, kernel-doc,'
	@echo '                Rust compile-fail cases, sample modules'
	@echo '  check-without-filemap  check on a kernel without the mm/filemap patch'
	@echo '  bench-filemap small-write benchmark, kernels with/without the mm/filemap'
	@echo '                patch booted alternately (not in check)'
	@echo '  bench         Rust kernel::iov and Rust sample vs C, one boot: table, CSV,'
	@echo '                plot in build/bench/iov/ (not in check)'
	@echo '  clean         remove kernel objects and boot output (keeps the tree)'
	@echo '  distclean     remove build/ entirely (refused while build/linux-edit'
	@echo '                holds work that is not exported)'
	@echo
	@echo 'Kernel variants (each in its own build/obj-*, build/qemu-*):'
	@echo '  check DEBUG=1 the hardened kernel: KASAN, UBSAN, lockdep, usercopy fault'
	@echo '                injection, concurrency soak'
	@echo '  check RACE=1  the data-race detector KCSAN, concurrency soak'
	@echo
	@echo 'Knobs (value now):'
	@echo '  JOBS ($(JOBS))  parallel kernel build jobs'
	@echo '  CPUS ($(CPUS))  guest CPUs of check and qemu (fewer brought up: failure)'
	@echo '  BOOT_TIMEOUT ($(BOOT_TIMEOUT))  seconds before the guest is killed'
	@echo '  EXCLUDE ($(EXCLUDE))  patch files (globs) to leave out, e.g. "*-mm-filemap-*"'
	@echo '  SOAK ($(SOAK))  requests in the sample devices random run'
	@echo '  SUITE ($(SUITE))  check, qemu: run only the suites or programs this'
	@echo '      glob matches (as kunit.filter_glob); no lint, nothing recorded'
	@echo '  KCONFIG ($(KCONFIG))  deb: base config, e.g. /boot/config-$$(uname -r)'
	@echo '  DEBUG ($(DEBUG))  1: the hardened kernel'
	@echo '  RACE ($(RACE))  1: the KCSAN kernel'
	@echo '  FAULTS ($(FAULTS))  DEBUG=1: usercopy faults per workload'
	@echo '  SOAK_ROUNDS ($(SOAK_ROUNDS))  DEBUG=1, RACE=1: concurrency test rounds'
	@echo '  BENCH_BOOTS ($(BENCH_BOOTS))  bench-filemap: boots per kernel'
	@echo '  BENCH_SAMPLES ($(BENCH_SAMPLES))  bench: batches per cell'
	@echo '  BENCH_CPU ($(BENCH_CPU))  bench: QEMU -cpu model'
	@echo '  BENCH_CPUS ($(BENCH_CPUS))  bench, bench-filemap: guest CPUs'
	@echo '  BENCH_QEMU ($(BENCH_QEMU))  bench: extra QEMU options, e.g. "-icount shift=0"'
	@echo '  BENCH_BUF_PAGES ($(BENCH_BUF_PAGES))  bench: pages to move the driver'
	@echo '      benchmark user buffer by'

deps:
	@mkdir -p $(B)
	@scripts/deps.sh $(B)/deps.log

$(TARBALL): | deps ;

$(TOOLS)/bin/bindgen: | deps
	@scripts/bindgen.sh $(TOOLS)

tools: $(TOOLS)/bin/bindgen

$(STAMP_TREE): $(TARBALL) | deps
	@scripts/series.sh pending $(KEDIT)
	@scripts/tree.sh $(TARBALL) $(KSRC) $(KWORK) $(KEDIT)

tree: $(STAMP_TREE)

patches-check: $(STAMP_TREE)
	@$(TREE_LOCK) scripts/series.sh check $(KWORK) patches $(STAMP_PATCHES)

edit: $(STAMP_TREE)
	@scripts/series.sh edit $(KSRC) $(KEDIT) patches

export:
	@scripts/series.sh export $(KEDIT) patches

# Rewritten only when the applied series changes, so what depends on it is
# rebuilt only then. After the series check: a stale patches/ is not built.
$(STAMP_SERIES): $(STAMP_TREE) FORCE | patches-check
	@$(TREE_LOCK) scripts/apply.sh $(KSRC) $(KWORK) patches $@ $(EXCLUDE)

apply: $(STAMP_SERIES)

# $(KOBJ)/.config too: a make there with other variables can rewrite it.
$(STAMP_CONFIG): $(FRAGMENT) $(STAMP_SERIES) scripts/kconfig.sh $(wildcard $(KOBJ)/.config) | tools
	@EXCLUDED='$(EXCLUDED)' scripts/kconfig.sh $(KSRC) $(FRAGMENT) $(KOBJ) $(KMAKE)
	@for o in $(REQUIRED_$(VARIANT)); do \
		grep -qx "CONFIG_$$o=y" $(KOBJ)/.config || \
		{ echo "error: the $(VARIANT) kernel config lacks CONFIG_$$o=y" >&2; exit 1; }; done
	@touch $@

# A variant's config, programs and suites: the normal ones plus its own.
$(B)/guest-%.config: qemu/guest.config qemu/%.config
	@mkdir -p $(B) && cat $^ >$@

$(B)/user-tests-%: qemu/user-tests qemu/user-tests-%
	@mkdir -p $(B) && cat $^ >$@

$(B)/expected-suites-%: qemu/expected-suites qemu/expected-suites-%
	@mkdir -p $(B) && cat $^ >$@

# The uniprocessor kernel lint builds the Rust crates of (qemu/up.config).
UP_FRAGMENT := $(B)/guest-up.config
$(UP_FRAGMENT): qemu/guest.config qemu/up.config
	@mkdir -p $(B) && grep -v '^CONFIG_SMP=' qemu/guest.config | cat - qemu/up.config >$@

config: $(STAMP_CONFIG)

rustavailable: $(STAMP_TREE) | tools
	@$(KMAKE) O=$(KOBJ) rustavailable

kernel: $(STAMP_CONFIG)
	@. scripts/lib.sh; step kernel "make LLVM=1 -j$(JOBS) (log: $(KLOG))"
	@$(KMAKE) O=$(KOBJ) -j$(JOBS) all headers >$(KLOG) 2>&1 || \
		{ grep -E -B2 -A8 'error|Error' $(KLOG) | tail -n 60; \
		  echo 'error: kernel build failed (log: $(KLOG))'; exit 1; }
	@. scripts/lib.sh; step kernel "$$(grep -c . $(KLOG)) lines of output, bzImage ready"

# Test programs are built from the patched tree, against its uapi headers;
# the test modules (qemu/hostile/) against the kernel they are loaded into.
tests: kernel $(USER_TESTS)
	@qemu/mktests.sh $(KSRC) $(KOBJ) $(USER_TESTS) $(B)/tests$(DBG)
	@qemu/mkmodules.sh $(B)/modules$(DBG) $(B)/tests$(DBG)/modules qemu/hostile/*.rs -- \
		$(KMAKE) O=$(KOBJ)

# Debian packages (make deb): of the kernel check builds (build/obj, the
# guest config), or with KCONFIG=FILE of a kernel configured from FILE and
# what the series needs on top (scripts/deb.config) in build/obj-deb.
# LOCALVERSION= (set, empty): no "+" for a tree in git, the release is the
# config's (scripts/deb.config: 6.12.y-iov).
KCONFIG ?=
ifneq ($(KCONFIG),)
ifneq ($(VARIANT),)
$(error KCONFIG= configures a kernel of its own: not with DEBUG=1 or RACE=1)
endif
ifneq ($(filter-out deb deb-config,$(or $(MAKECMDGOALS),help)),)
$(error KCONFIG= is for "make deb" (and deb-config) only: the other targets build the guest kernel)
endif
endif
DEB_OBJ  := $(if $(KCONFIG),$(B)/obj-deb,$(KOBJ))
DEB_OUT  := $(if $(KCONFIG),$(B)/deb-kconfig,$(B)/deb$(DBG))

.PHONY: deb-config
deb-config: $(STAMP_SERIES) | tools
	@scripts/deb-config.sh '$(KCONFIG)' scripts/deb.config $(KSRC) $(DEB_OBJ) $(KMAKE)

deb: $(if $(KCONFIG),deb-config,kernel)
	@scripts/deb.sh $(DEB_OBJ) $(DEB_OUT) $(KMAKE) $(if $(KCONFIG),LOCALVERSION=) -j$(JOBS)

# The normal check boots the kernel of the image package and runs the
# out-of-tree template, built against the headers package alone; not for a
# SUITE= that does not include the template (the edit loop).
EXTMOD := $(B)/extmod
extmod: deb
	@qemu/mkextmod.sh $(DEB_OUT) $(KSRC)/samples/rust/out_of_tree $(EXTMOD)

close_paren := )
WITH_EXTMOD := $(if $(VARIANT),,$(if $(SUITE),$(shell case out_of_tree in $(SUITE)$(close_paren) \
	echo 1;; esac),1))
BOOT_KERNEL := $(if $(WITH_EXTMOD),$(EXTMOD)/vmlinuz,$(BZIMAGE))

# Debian 13 ships the same linux-source-6.12: the series must apply to it
# too (fetched, not installed; .ci/run runs this).
.PHONY: series-debian13
series-debian13: $(STAMP_SERIES)
	@scripts/series-debian.sh 13 $(B)/series-debian13 patches $(KSRC)

initramfs: tests $(if $(WITH_EXTMOD),extmod)
	@qemu/mkinitramfs.sh $(INITRAMFS) $(B)/tests$(DBG) $(if $(WITH_EXTMOD),$(EXTMOD)/guest)

# The lint suite checks sources, not the build: the debug run skips it.
LINT = $(if $(DBG),true,scripts/lint.sh $(B)/lint.tap patches $(KSRC) $(UP_FRAGMENT) \
	$(KMAKE) O=$(KOBJ))

lint: kernel $(UP_FRAGMENT)
	@$(LINT)

# check and qemu reuse the last lint results while nothing they cover has
# changed (a no-op re-run must be quick); "make lint" always runs it.
LINT_INPUTS = $(STAMP_SERIES) $(BZIMAGE) $(wildcard patches/*) scripts/lint.sh \
	scripts/rust-compile-fail.sh $(wildcard scripts/rust-compile-fail/*.rs \
	scripts/rust-compile-fail/up/*.rs) $(UP_FRAGMENT) scripts/rust-examples.sh README.md

# A lint.tap is only ever the result of this run: if lint.sh itself fails
# to write one, the results report it missing.
$(B)/lint.tap: $(LINT_INPUTS)
	@rm -f $@; $(LINT) || true

# The debug build has no lint of its own: it is the same series.
LINT_STEP = $(if $(DBG)$(SUITE),,lint-cached)

LINT_SUMMARY = . scripts/lib.sh; step lint "$$(grep -c '^ok' $(B)/lint.tap) passed, \
	$$(grep -c '^not ok' $(B)/lint.tap) failed"

lint-cached: kernel $(B)/lint.tap
	@$(LINT_SUMMARY)

RESULTS = scripts/versions.sh $(KSRC) $(KOBJ) $(TOOLS)/bin/bindgen >$(QOUT)/versions.txt && \
	qemu/results.py --out $(QOUT) --ksrc $(KSRC) --expected $(EXPECTED) \
		--versions $(QOUT)/versions.txt --cpus $(CPUS) $(if $(LINT_STEP),--lint $(B)/lint.tap) \
		$(if $(SUITE),--suite '$(SUITE)',$(foreach l,$(LOG_ALL) $(LOG_$(VARIANT)),--require '$(l)')) \
		$(foreach s,$(LEFT_OUT) $(if $(VARIANT),out_of_tree),--left-out $(s))

# A passing check records its summary in results/, unless a knob changed
# what it measures (README "Results").
KNOBS   = EXCLUDE SOAK FAULTS SOAK_ROUNDS CPUS MODEL SUITE
CHANGED = $(strip $(foreach v,$(KNOBS),$(if $(filter command% environment%,$(origin $(v))),$(v))))
RECORD  = $(if $(CHANGED),,--record results/check$(DBG).txt --steps $(IOV_STEPS))

BOOT = QEMU_CPUS=$(CPUS) qemu/run.sh $(BOOT_KERNEL) $(INITRAMFS) $(QOUT) $(BOOT_TIMEOUT) $(GUEST_ARGS)

# qemu: lint first (a failure does not stop the boot: the results table
# reports it), then the guest, interactive when stdin is a terminal.
qemu: patches-check kernel initramfs $(EXPECTED) $(LINT_STEP)
	@$(BOOT)
	@$(RESULTS)

# check: the guest boots while lint runs; they need nothing of each other.
check: patches-check kernel initramfs $(EXPECTED)
	@$(if $(LINT_STEP),$(MAKE) --no-print-directory $(B)/lint.tap & lint=$$!;) \
		$(BOOT) </dev/null; rc=$$?; $(if $(LINT_STEP),wait $$lint; $(LINT_SUMMARY);) exit $$rc
	@$(RESULTS) $(RECORD)

# The mm/filemap patch (by file name), for EXCLUDE: the benchmark compares
# the kernel with and without it; the selftests must pass with and without
# it and its KUnit test, which checks the new loop's calls.
FILEMAP_PATCH := *-mm-filemap-fault-in-*
FILEMAP_PATCHES := *-mm-filemap-*
BENCH       := $(B)/bench
# Boots per kernel: by instruction count (BENCH_QEMU's default) a boot
# repeats the last one's counts, so a few show that; timed, use more.
BENCH_BOOTS ?= 3

.PHONY: check-without-filemap bench-filemap

check-without-filemap:
	@$(MAKE) --no-print-directory check EXCLUDE='$(FILEMAP_PATCHES)'

# Switching EXCLUDE rebuilds only mm/filemap.o and relinks; each kernel is
# saved, then qemu/bench-filemap.sh boots them alternately.
bench-filemap: patches-check
	@$(MAKE) --no-print-directory kernel EXCLUDE='$(FILEMAP_PATCH)'
	@mkdir -p $(BENCH)/prog && cp $(BZIMAGE) $(BENCH)/bzImage.without
	@$(MAKE) --no-print-directory kernel EXCLUDE=
	@cp $(BZIMAGE) $(BENCH)/bzImage.with
	@$(USER_CC) -o $(BENCH)/prog/bench-filemap \
		qemu/bench-filemap.c
	@qemu/mkinitramfs.sh $(BENCH)/initramfs.cpio.gz $(BENCH)/prog
	@QEMU_CPUS=$(BENCH_CPUS) QEMU_EXTRA='$(BENCH_QEMU)' \
		qemu/bench-filemap.sh $(BENCH) $(BENCH_BOOTS) $(BOOT_TIMEOUT) </dev/null
	@$(if $(BENCH_CHANGED),,cp $(BENCH)/summary.txt results/bench-filemap.txt)

# "make bench": the cost of the Rust kernel::iov wrapper and of the Rust
# RAM file sample against C, in one boot of the normal kernel with only the
# KUnit case iov_rust_bench.iov_bench_wrapper_cost and only qemu/bench-ramfile.c in
# the initramfs; results, CSV and plot in build/bench/iov/. Not in check.
BENCH_IOV     := $(BENCH)/iov
BENCH_SAMPLES ?= 61
# The guest CPU: "max" as in check; "max,-erms" shows the user copies
# without TCG's slow emulation of "rep movsb" (README "Benchmarks").
BENCH_CPU     ?= max
# Extra QEMU options. "-icount shift=0": the guest clock counts guest
# instructions, so the ratios are ratios of instructions executed, free of
# TCG's placement noise (README "Benchmarks"); BENCH_QEMU= times instead.
BENCH_QEMU    ?= -icount shift=0
# Guest CPUs of the benchmarks: one. They time single-threaded code paths;
# a second vCPU only adds host threads to compete for the two host cores
# (README "Benchmarks").
BENCH_CPUS ?= 1
# Pages to move the driver benchmark's user buffer by (placement effects).
BENCH_BUF_PAGES ?=
# Only a benchmark run with the default knobs is recorded in results/.
BENCH_CHANGED = $(strip $(foreach v,BENCH_BOOTS BENCH_SAMPLES BENCH_CPU BENCH_QEMU BENCH_CPUS \
	BENCH_BUF_PAGES EXCLUDE,$(if $(filter command% environment%,$(origin $(v))),$(v))))
BENCH_ARGS = kunit.filter_glob=iov_rust_bench.iov_bench_wrapper_cost \
	iov_bench_kunit.samples=$(BENCH_SAMPLES) iov_bench_kunit.batch_kib=1024 \
	BENCH_SAMPLES=$(BENCH_SAMPLES) $(if $(BENCH_BUF_PAGES),BENCH_BUF_PAGES=$(BENCH_BUF_PAGES)) \
	$(if $(BENCH_QEMU),,$(BENCH_TSC_ARGS))
# TCG's TSC runs at the host's rate. On a busy host the guest's PIT
# calibration of it can fail, and the guest then times with 4 ms jiffies:
# give it the host's rate instead (not with BENCH_QEMU: -icount changes it).
BENCH_TSC_ARGS = tsc_early_khz=$(shell awk -F': ' '/^cpu MHz/ { printf "%d", $$2 * 1000; exit }' \
	/proc/cpuinfo) tsc=reliable

.PHONY: bench
bench: patches-check kernel
	@scripts/bench-inline.sh $(KSRC) $(KOBJ) $(BENCH_IOV)/inline
	@mkdir -p $(BENCH_IOV)/prog
	@$(USER_CC) -o $(BENCH_IOV)/prog/bench-ramfile \
		qemu/bench-ramfile.c
	@qemu/mkinitramfs.sh $(BENCH_IOV)/initramfs.cpio.gz $(BENCH_IOV)/prog
	@cp $(KOBJ)/.config $(BENCH_IOV)/config
	@{ scripts/versions.sh $(KSRC) $(KOBJ) $(TOOLS)/bin/bindgen; \
	  echo "host        $$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | \
		head -n 1), $$(nproc) cores"; \
	  echo "host flags  $$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"; \
	  echo "qemu -cpu   $(BENCH_CPU) $(BENCH_QEMU)"; \
	  echo "kernel config: $(BENCH_IOV)/config"; } >$(BENCH_IOV)/env.txt
	@QEMU_CPUS=$(BENCH_CPUS) QEMU_CPU='$(BENCH_CPU)' QEMU_EXTRA='$(BENCH_QEMU)' qemu/run.sh $(BZIMAGE) $(BENCH_IOV)/initramfs.cpio.gz \
		$(BENCH_IOV)/boot $(BOOT_TIMEOUT) $(BENCH_ARGS) </dev/null
	@qemu/bench-iov.py --boot $(BENCH_IOV)/boot --out $(BENCH_IOV) --env $(BENCH_IOV)/env.txt \
		$(if $(findstring icount,$(BENCH_QEMU)),--exact)
	@$(if $(BENCH_CHANGED),,cat $(BENCH_IOV)/env.txt $(BENCH_IOV)/summary.txt >results/bench.txt)

clean:
	rm -rf $(KOBJ) $(KOBJ).kconfig $(QOUT) $(B)/tests$(DBG) $(INITRAMFS) $(STAMP_CONFIG) \
		$(B)/lint.tap* $(B)/rust-compile-fail $(B)/lint-cache $(B)/sample-modules

distclean:
	@scripts/series.sh pending $(KEDIT)
	rm -rf $(B)

FORCE:
