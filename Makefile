# The two set-up commands of the README: `make demo` and `make test`.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
DEMO_TRACE := examples/nccl_2rank_rank0_a100.json.gz

.PHONY: setup configure build demo test install sanitize fuzz bench clean format tidy

setup:
	@scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
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

test: build
	@scripts/setup_browser.sh
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	@JOBS=$(JOBS) scripts/sanitize.sh

# The command line, the library with its headers and CMake/pkg-config files, and the Python
# package (docs/python.md), under CMAKE_INSTALL_PREFIX (/usr/local): make install PREFIX=/opt/tm
install: build
	@cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX))

# The hostile-input suite alone (part of `make test`): the tests under ASan + UBSan, every fuzz
# harness on a fixed seed for TM_FUZZ_RUNS inputs (default 4000) each, ThreadSanitizer on the
# parallel importer.
sanitize: setup
	@JOBS=$(JOBS) scripts/sanitize.sh

# Exploratory fuzzing of an existing sanitizer build (random seed, corpus kept):
# make fuzz TM_FUZZ_SECONDS=600
fuzz:
	@TM_FUZZ_SECONDS=$${TM_FUZZ_SECONDS:-60} scripts/fuzz.sh build-sanitize

bench: build
	@bench/run.sh

format:
	@git ls-files '*.cc' '*.h' | xargs clang-format -i

tidy: configure
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	@git ls-files 'src/*.cc' | xargs clang-tidy -p $(BUILD_DIR) --quiet

clean:
	@rm -rf $(BUILD_DIR) build-sanitize build-tsan
