# The two set-up commands of the README, `make demo` and `make test`, and the targets between.
#   make demo     installs what the command line needs, builds only it, profiles the bundled trace
#   make check    the quick tier: the release build's unit, end-to-end, browser and Python tests
#   make test     everything CI runs: the release suite, then the sanitizer builds and fuzzing
#   make python   the Python package (build/python; `make test` builds it too)
#   make bench    the benchmarks (bench/run.sh)
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
DEMO_TRACE := examples/nccl_2rank_rank0_a100.json.gz
# The shared sample traces the tests read (beside the clone, as in CI).
SHARED_DATA ?= $(abspath ../shared/data)
CMAKE_CONFIGURE := cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
  $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# One build folder for all targets: the demo's configuration leaves out the tests, the Python
# module and the benchmarks, and compiles the library and the binary exactly as the full one does,
# so `make test` after `make demo` reuses every object.
DEMO_OPTIONS := -DTM_TESTS=OFF -DTM_PYTHON=OFF -DTM_BENCH=OFF
FULL_OPTIONS := -DTM_TESTS=ON -DTM_PYTHON=ON -DTM_BENCH=ON -DTM_SHARED_DATA=$(SHARED_DATA)

.PHONY: setup configure build demo check test check-data install python sanitize fuzz bench \
  clean format tidy

setup:
	@scripts/setup.sh

configure: setup
	@$(CMAKE_CONFIGURE) $(FULL_OPTIONS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo:
	@scripts/setup.sh demo
	@$(CMAKE_CONFIGURE) $(DEMO_OPTIONS) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target tensormorph
	@echo "== tensormorph info $(DEMO_TRACE)"
	@$(BUILD_DIR)/tensormorph info $(DEMO_TRACE)
	@echo
	@echo "== tensormorph kernels --top 15 $(DEMO_TRACE)"
	@$(BUILD_DIR)/tensormorph kernels --top 15 $(DEMO_TRACE)
	@echo
	@echo "== tensormorph ops --top 10 $(DEMO_TRACE)"
	@$(BUILD_DIR)/tensormorph ops --top 10 $(DEMO_TRACE)
	@echo
	@echo "== tensormorph timeline $(DEMO_TRACE)"
	@$(BUILD_DIR)/tensormorph timeline $(DEMO_TRACE)
	@echo
	@echo "== tensormorph report $(DEMO_TRACE) -o tensormorph-report.html"
	@$(BUILD_DIR)/tensormorph report --quiet $(DEMO_TRACE) -o tensormorph-report.html
	@echo "The HTML report is $(CURDIR)/tensormorph-report.html (open it in a browser; it works offline)"

# The tests read the real traces of ../shared/data: without them, stop before building anything.
check-data:
	@if [ ! -d "$(SHARED_DATA)/kineto" ]; then \
	  echo "make: $(SHARED_DATA) is missing (or has no kineto/ folder): the tests read the shared" \
	       "sample traces there. Put the shared/ folder beside this clone, or name it with" \
	       "SHARED_DATA=/path/to/shared/data. (make demo needs no shared data.)" >&2; \
	  exit 1; \
	fi

# The quick tier, for the edit-build-test loop: every test of the release build except the
# install, headers and demo-clone checks (label slow; tiers: ctest -L unit|e2e|browser|python).
check: check-data
	@$(MAKE) --no-print-directory build
	@scripts/setup_browser.sh
	@cd $(BUILD_DIR) && ctest --output-on-failure --no-tests=error -j $(JOBS) -LE slow

test: check-data
	@scripts/timed.sh "release build" $(MAKE) --no-print-directory build
	@scripts/setup_browser.sh
	@scripts/timed.sh "release tests" bash -c 'cd $(BUILD_DIR) && ctest --output-on-failure --no-tests=error -j $(JOBS)'
	@JOBS=$(JOBS) TM_SHARED_DATA=$(SHARED_DATA) scripts/sanitize.sh

# The command line, the library with its headers and CMake/pkg-config files, and the Python
# package (docs/python.md), under CMAKE_INSTALL_PREFIX (/usr/local): make install PREFIX=/opt/tm
install: build
	@cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX))

python: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target tensormorph_python tensormorph

# The hostile-input suite alone (part of `make test`): the tests under ASan + UBSan, every fuzz
# harness on a fixed seed for TM_FUZZ_RUNS inputs (default 2000, at most 20 s) each, ThreadSanitizer on the
# parallel importer.
sanitize: check-data build
	@JOBS=$(JOBS) TM_SHARED_DATA=$(SHARED_DATA) scripts/sanitize.sh

# Exploratory fuzzing of an existing sanitizer build (random seed, corpus kept):
# make fuzz TM_FUZZ_SECONDS=600
fuzz:
	@TM_FUZZ_SECONDS=$${TM_FUZZ_SECONDS:-60} scripts/fuzz.sh build-sanitize

bench: check-data build
	@bench/run.sh

format:
	@git ls-files '*.cc' '*.h' | xargs clang-format -i

tidy: configure
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	@git ls-files 'src/*.cc' | xargs clang-tidy -p $(BUILD_DIR) --quiet

clean:
	@rm -rf $(BUILD_DIR) build-sanitize build-tsan
