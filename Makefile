# One venv in .venv; `make run` starts the app, `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench demo clean FORCE

# pygame and pygame-ce both install the package `pygame`: a .venv made while the app used pygame
# has pygame removed first, and pygame-ce installed afresh over the files they shared
OLD_PYGAME := $(wildcard $(VENV)/lib/python*/site-packages/pygame-[0-9]*.dist-info)

$(BIN)/cloud-companion: pyproject.toml $(if $(OLD_PYGAME),FORCE)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(if $(OLD_PYGAME),$(BIN)/pip uninstall -q -y pygame pygame-ce)
	$(BIN)/pip install -q -e '.[test]'
	touch $@

FORCE:

# on a desktop session the app opens in a window; on the Pi's console it fills the screen
RUN_ARGS ?= $(if $(DISPLAY)$(WAYLAND_DISPLAY),--windowed,)

run: $(BIN)/cloud-companion
	$(BIN)/cloud-companion run $(RUN_ARGS) $(ARGS)

test: $(BIN)/cloud-companion
	$(BIN)/python -m pytest $(ARGS)

bench: $(BIN)/cloud-companion
	$(BIN)/cloud-companion bench

demo: $(BIN)/cloud-companion
	$(BIN)/cloud-companion demo --out demo-screens

clean:
	rm -rf $(VENV) demo-screens
