# The two commands of the README's quick start. Both install what is missing first.
#   make run   build the release preset and run the main job
#   make test  build the asan preset (every warning an error) and run every test under ASan and
#              UBSan (what CI runs)
#   make release-check  the release build with every warning an error (GCC warns more at -O2):
#              run it before a commit that changes C++ (the GPU machine's binary is built so)
#   make check build the dev preset and run every test without sanitizers (a quicker loop)
#   make fuzz  build the libFuzzer target of the JSON readers and run it for FUZZ_SECONDS
.PHONY: run test check setup release release-check dev asan clean fuzz

JOBS ?= $(shell nproc)
RESULTS_DIR ?= out

setup:
	bash scripts/setup.sh

release: setup
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

dev: setup
	cmake --preset dev >/dev/null
	cmake --build --preset dev -j $(JOBS)

run: release
	build/release/refract info
	mkdir -p $(RESULTS_DIR)
	build/release/refract ceilings --preset quick --json $(RESULTS_DIR)/ceilings.json
	build/release/refract kernels --preset quick --ceilings $(RESULTS_DIR)/ceilings.json \
	  --json $(RESULTS_DIR)/kernels.json --html $(RESULTS_DIR)/report.html
	rm -f $(RESULTS_DIR)/sweeps.journal  # a journal an earlier make run left: start afresh
	build/release/refract sweep --sweep all --quick --seed 1 \
	  --journal $(RESULTS_DIR)/sweeps.journal --json $(RESULTS_DIR)/sweeps.json \
	  --html $(RESULTS_DIR)/sweeps.html --profile $(RESULTS_DIR)/profile.json
	build/release/refract decode --model qwen2.5-0.5b --layers 2 --context 1024 --tokens 8 \
	  --seed 1 --json $(RESULTS_DIR)/decode.json --html $(RESULTS_DIR)/decode.html

asan: setup
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

# The release build as `make run` makes it, every warning an error (-Werror; GCC warns more at
# -O2 than the asan build's -O0), without the tests. Not part of `make test`: a second clean
# build of the product took a fifth of CI's 30-minute budget on a 2-core machine.
release-check: setup
	cmake --preset release-check >/dev/null
	cmake --build --preset release-check -j $(JOBS)

# Every test, once, under AddressSanitizer and UBSan (the asan preset; its test preset sets the
# sanitizers' options: docs/TESTING.md, "Sanitizers"). The tests run on the sanitized build only:
# a clean build is half of CI's time.
test: asan
	ctest --preset asan -j $(JOBS)

check: dev
	ctest --preset dev -j $(JOBS)

FUZZ_SECONDS ?= 120
fuzz:
	bash scripts/setup.sh --fuzz
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz -j $(JOBS)
	mkdir -p out/fuzz-corpus
	build/fuzz/tests/fuzz/refract_fuzz_results -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -artifact_prefix=out/ out/fuzz-corpus tests/data

clean:
	rm -rf build
