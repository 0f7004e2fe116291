# axio: `make run` serves the game, `make test` runs every test (normal and
# sanitizer builds). Both install missing Debian packages first.
JOBS ?= 2
# Tests at once. The sanitizer build's (servers, clusters, PostgreSQL; no browsers)
# wait on timers and sockets more than they compute: at 2 at once the cores were 57%
# busy, at 4 its tests took 301 s instead of 548. The normal build's, browsers among
# them, at 3: 753 to 832 s in clean clones instead of 928 at 2 (61% of the cores busy).
TEST_JOBS ?= 3
SAN_TEST_JOBS ?= 4
BUILD := build
SAN := build-san

.PHONY: all deps build build-san run test test-fast format bench clean python

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-san: deps
	@cmake -S . -B $(SAN) -DCMAKE_BUILD_TYPE=Debug -DAXIO_SANITIZE=ON >/dev/null
	@cmake --build $(SAN) -j $(JOBS)

# Serves the game on port 8080 of every address of this computer (friends on the
# network can join; the addresses are printed) with the SQLite database axio.db.
run: build
	./$(BUILD)/axio serve --port 8080 --bind 0.0.0.0 --db axio.db --web web

test: build build-san
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)
	cd $(SAN) && ctest --output-on-failure -j $(SAN_TEST_JOBS)

# The normal build only, for a quick check while working.
test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The Python package for use in the source tree (docs/python.md):
#   PYTHONPATH=python /usr/bin/python3 -c 'import axio'
python: build
	@cp $(BUILD)/libaxio.so python/axio/libaxio.so
	@echo "python/axio is ready: PYTHONPATH=python /usr/bin/python3 (docs/python.md)"

bench: build
	./$(BUILD)/axio bench

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(SAN)
