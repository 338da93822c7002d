# The two commands of the README's quick start. Both install what is missing first.
#   make run   build the release preset and run the main job
#   make test  build the dev preset and run every test
.PHONY: run test setup release dev clean

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

test: dev
	ctest --preset dev -j $(JOBS)

clean:
	rm -rf build
