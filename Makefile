# One venv in .venv; `make run` starts the app, `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test check typecheck bench demo docs man clean install-pi update-pi uninstall-pi FORCE

# pygame and pygame-ce both install the package `pygame`: a .venv made while the app used pygame
# has pygame removed first, and pygame-ce installed afresh over the files they shared
OLD_PYGAME := $(wildcard $(VENV)/lib/python*/site-packages/pygame-[0-9]*.dist-info)

$(BIN)/cloud-companion: pyproject.toml $(if $(OLD_PYGAME),FORCE)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(if $(OLD_PYGAME),$(BIN)/pip uninstall -q -y pygame pygame-ce)
	$(BIN)/pip install -q -e '.[test,dev]'
	touch $@

FORCE:

# on a desktop session the app opens in a window; on the Pi's console it fills the screen
RUN_ARGS ?= $(if $(DISPLAY)$(WAYLAND_DISPLAY),--windowed,)

# the live page for the TV and phones runs beside it on loopback, http://127.0.0.1:8019/ (it
# serves once switched on in Settings, and stops with the app)
run: $(BIN)/cloud-companion
	@$(BIN)/cloud-companion live --host 127.0.0.1 --quiet & live=$$!; trap 'kill $$live 2>/dev/null' EXIT INT TERM; \
	$(BIN)/cloud-companion run $(RUN_ARGS) $(ARGS)

# the tests on every core (pytest-xdist; JOBS=1 runs them on one), then those marked realtime
# (the ship twin's flights, on the wall clock) one after another with the machine to themselves:
# beside another worker they miss their timings. Exit 5 is pytest's "no test selected", which
# ARGS naming a file of only one kind gives the other run. `make check` runs the fast ones,
# those not marked slow, on every core, for a quick answer while working
JOBS ?= auto
test: $(BIN)/cloud-companion
	$(BIN)/python -m pytest -n $(JOBS) -m "not realtime" $(ARGS) || [ $$? = 5 ]
	$(BIN)/python -m pytest -p no:xdist -m realtime $(ARGS) || [ $$? = 5 ]

check: $(BIN)/cloud-companion
	$(BIN)/python -m pytest -n auto -m "not slow" $(ARGS)

# mypy as pyproject.toml's [tool.mypy] sets it (--strict on the rules, the controller, the
# journal and the ship)
typecheck: $(BIN)/cloud-companion
	$(BIN)/python -m mypy

bench: $(BIN)/cloud-companion
	$(BIN)/cloud-companion bench

demo: $(BIN)/cloud-companion
	$(BIN)/cloud-companion demo --out demo-screens

# the manual (Sphinx, MyST, Furo) into build/docs/html, warnings as errors; the man page is built
# from the same parsers and must match the copy in docs/man/ that the wheel installs (`make man`
# refreshes that copy)
SPHINX = $(BIN)/sphinx-build -q -W --keep-going
MAN_PAGE := docs/man/cloud-companion.1
# the lines that name the date and the docutils version are not the page's content
man_body = grep -v -e '^\.TH ' -e '^\.\\" ' $(1)

$(BIN)/sphinx-build: $(BIN)/cloud-companion
	$(BIN)/pip install -q -e '.[docs]'
	touch $@

docs: $(BIN)/sphinx-build
	$(SPHINX) -b html docs build/docs/html
	$(SPHINX) -b man docs build/docs/man
	@$(call man_body,build/docs/man/cloud-companion.1) > build/docs/man/built.body
	@$(call man_body,$(MAN_PAGE)) > build/docs/man/kept.body
	@cmp -s build/docs/man/built.body build/docs/man/kept.body \
		|| { echo "$(MAN_PAGE) differs from the parsers: run make man" >&2; exit 1; }

man: $(BIN)/sphinx-build
	$(SPHINX) -b man docs build/docs/man
	cp build/docs/man/cloud-companion.1 $(MAN_PAGE)

clean:
	rm -rf $(VENV) demo-screens

# --- the Raspberry Pi appliance (run as root: sudo make install-pi) -------------------------
# PI_DISPLAY=official7|touch2|hdmi  PI_ROTATE=0|90|180|270  DRY_RUN=1 prints the plan only;
# PURGE=1 makes uninstall-pi delete the game history too (after a last backup). Uses the system's
# python3 (no venv yet). Yes is 1, yes or true; no is 0, no, false or nothing; anything else stops.
PI_DISPLAY ?= official7
PI_ROTATE ?= 0
YES_WORDS := 1 yes Yes YES true True TRUE
NO_WORDS := 0 no No NO false False FALSE
# $(call yes,NAME): "yes" when the variable NAME says yes, nothing when it says no or is unset
yes = $(if $(filter $(YES_WORDS),$(strip $($(1)))),yes,$(if $(filter-out $(NO_WORDS),$(strip $($(1)))),$(error \
	$(1)=$($(1)) is neither yes nor no: say $(1)=1 (yes) or $(1)=0 (no))))
PI_INSTALL = /usr/bin/env python3 -m companion.appliance.install $(if $(call yes,DRY_RUN),--dry-run)

install-pi:
	$(PI_INSTALL) install --display $(PI_DISPLAY) --rotate $(PI_ROTATE)

update-pi:
	$(PI_INSTALL) update

uninstall-pi:
	$(PI_INSTALL) uninstall $(if $(call yes,PURGE),--purge)

# --- the appliance booted for real (run as root; minutes, so not part of `make test`) ---------
# Debian roots (debootstrap, kept in build/appliance/), the installer from a release bundle,
# then QEMU with real systemd: picture, touch, power cut, watchdog, a late display, an update.
# `make bundle` makes that release bundle for a Pi without network (aarch64, Python 3.11 and 3.13);
# `sudo make bundle ARCH=armhf` adds 32-bit Pi OS's wheels (pygame-ce built once in an armhf root).
# ARCH=arm64 (64-bit Pi OS) or ARCH=armhf (32-bit) boots those roots; a suite names both, as in
# APPLIANCE_SUITES=trixie-arm64
ARCH ?= amd64
APPLIANCE_SUITES ?= $(if $(filter amd64,$(ARCH)),bookworm trixie,bookworm-$(ARCH) trixie-$(ARCH))
.PHONY: appliance-test bundle

appliance-test: $(BIN)/cloud-companion
	$(BIN)/python tests/appliance/run.py $(APPLIANCE_SUITES)

BUNDLE_PLATFORMS = manylinux2014_aarch64 $(if $(filter armhf,$(ARCH)),linux_armv7l)

bundle: $(BIN)/cloud-companion
	$(BIN)/python -m companion.appliance.bundle build/bundle --platform $(BUNDLE_PLATFORMS)
