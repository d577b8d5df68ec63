# SPDX-License-Identifier: GPL-2.0
#
# perf affinity: build perf 6.12 with the perf affinity patch series.
#
#   make              install build deps, unpack the kernel source, overlay,
#                     patch and build build/perf
#   make demo         build, record the bundled false sharing workloads and
#                     print perf affinity's report and layout advice
#   make kernel-demo  build, fetch a vmlinux with DWARF once (Debian's
#                     linux-image-6.12-amd64-dbg, ~1 GB download, 350 MB kept
#                     in build/kernel) and lay out struct rq and four other
#                     kernel structs, checked against pahole
#   make kernel-record
#                     build, fetch Debian's 6.12 kernel image and its vmlinux
#                     once (build/kernel), boot it in QEMU with perf and two
#                     workloads, record struct rq (watchpoints and sampling)
#                     and tcp_sock there, report on the host and compare with
#                     the upstream ground truth (bench/kernel_truth.py)
#   make kernel-fetch fetch and install what kernel-record and its test need
#   make test         build, then run the perf affinity test suites
#   make stress       build, then run the suites RUNS times (default 20) and
#                     list every test that failed at least once
#   make series       write the work as a git format-patch series (build/series)
#   make series-check also build every patch of the series on its own
#   make fuzz         mutate small recordings and run perf affinity report on
#                     each (mk/fuzz.sh, FUZZING.md); FUZZ_ARGS='-n 1000'
#   make clean        drop perf's objects (keeps the unpacked source)
#   make distclean    drop build/ entirely
#
# LINUX_SRC=/path/to/linux  take the pristine tree from an existing kernel
#                           checkout instead of Debian's linux-source-6.12.
# V=1                       verbose perf build.
# SANITIZE=1                build and test perf with AddressSanitizer and
#                           UndefinedBehaviorSanitizer instead
#                           (build/obj-asan, build/perf-asan).

KVER		:= 6.12
TARBALL		?= /usr/src/linux-source-$(KVER).tar.xz
TOP		:= $(abspath .)
BUILD		:= $(TOP)/build
PRISTINE	:= $(BUILD)/pristine
TREE		:= $(BUILD)/linux
OBJ		:= $(BUILD)/obj
PREFIX		:= $(BUILD)/install
PERF		:= $(BUILD)/perf
JOBS		?= $(shell nproc)

# The sanitizer build, in the way perf's own Makefile.config expects it:
# DEBUG=1 and the -fsanitize flags in EXTRA_CFLAGS.  -O1 keeps it fast
# enough to fuzz; UB aborts instead of printing and going on.  GCC's
# maybe-uninitialized analysis gives false positives on sanitized code (it
# warns about perf's own builtin-kvm.c and parse-events.c), so that one
# warning is not an error here.  perf 6.12 reads events in place, and
# PERF_RECORD_COMPRESSED records are not padded to 8 bytes, so events after
# one are misaligned in good files too: x86 does not mind, UBSan's
# alignment check would stop at the first of them.
ifeq ($(SANITIZE),1)
OBJ		:= $(BUILD)/obj-asan
PREFIX		:= $(BUILD)/install-asan
PERF		:= $(BUILD)/perf-asan
SAN_CFLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		   -fno-sanitize=alignment \
		   -fno-omit-frame-pointer -O1 -Wno-maybe-uninitialized
SAN_MAKEFLAGS	:= DEBUG=1 EXTRA_CFLAGS='$(SAN_CFLAGS)'
endif

# perf's build features: dwarf, libtraceevent, slang, zlib, capstone and llvm
# come from the packages below; BPF skeletons, perl and python scripting are
# not needed by perf affinity and only slow the build down.
PERF_MAKEFLAGS	?= BUILD_BPF_SKEL=0 NO_LIBPERL=1 NO_LIBPYTHON=1 WERROR=1

DEB_PACKAGES	:= build-essential flex bison pkg-config bc xz-utils rsync git \
		   libelf-dev libdw-dev libtraceevent-dev libbpf-dev zlib1g-dev \
		   libslang2-dev libzstd-dev liblzma-dev libnuma-dev libcap-dev \
		   libunwind-dev libcapstone-dev libssl-dev libbabeltrace-dev \
		   libiberty-dev llvm-dev asciidoctor man-db tmux python3 dwarves \
		   python3-jsonschema python3-cairosvg \
		   linux-source-$(KVER)

export TOP BUILD PRISTINE TREE OBJ PREFIX PERF TARBALL LINUX_SRC JOBS PERF_MAKEFLAGS SANITIZE

.PHONY: FORCE all deps perf demo kernel-demo kernel-fetch kernel-record test stress fuzz series series-check clean distclean help

all: perf
	@echo "perf is at $(PERF)"

help:
	@sed -n '3,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

deps: $(BUILD)/.deps

$(BUILD)/.deps: Makefile
	@mkdir -p $(BUILD)
	@DEB_PACKAGES="$(DEB_PACKAGES)" sh mk/deps.sh
	@touch $@

# Unpack again only when the source of the pristine tree changes.
SOURCE_ID	:= $(if $(LINUX_SRC),$(abspath $(LINUX_SRC)),$(TARBALL))

$(BUILD)/.source: FORCE
	@mkdir -p $(BUILD)
	@echo '$(SOURCE_ID)' | cmp -s - $@ || echo '$(SOURCE_ID)' > $@

$(PRISTINE)/.stamp: $(BUILD)/.source mk/unpack.sh | $(BUILD)/.deps
	@sh mk/unpack.sh

perf: $(PRISTINE)/.stamp
	@sh mk/overlay.sh
	@mkdir -p $(OBJ)
	@$(MAKE) -s -C $(TREE)/tools/perf O=$(OBJ) prefix=$(PREFIX) \
		$(PERF_MAKEFLAGS) $(SAN_MAKEFLAGS) -j$(JOBS) $(if $(V),V=1) all \
		>$(BUILD)/perf-build.log 2>&1 || \
		{ grep -E 'error|Error|warning:' $(BUILD)/perf-build.log | head -40; \
		  echo "perf build failed, see $(BUILD)/perf-build.log"; exit 1; }
	@ln -sf $(notdir $(OBJ))/perf $(PERF)
	@sh mk/man.sh
	@sh mk/schemas.sh

demo: perf
	@sh mk/demo.sh

kernel-demo: perf
	@sh mk/kernel-demo.sh

kernel-fetch:
	@sh mk/kernel-fetch.sh

kernel-record: perf kernel-fetch
	@sh mk/kernel-record.sh

test: perf
	@sh mk/run-tests.sh

RUNS		?= 20
stress: perf
	@sh mk/stress-tests.sh $(RUNS)

fuzz: perf
	@sh mk/fuzz.sh $(FUZZ_ARGS)

series: $(PRISTINE)/.stamp
	@sh mk/series.sh

series-check: $(PRISTINE)/.stamp
	@sh mk/series.sh --build

clean:
	rm -rf $(OBJ) $(PERF)

distclean:
	rm -rf $(BUILD)
