# Build skeleton for scorer. Every target is safe to re-run.
SHELL := /bin/bash

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PKGS := chromium fonts-dejavu-core poppler-utils nginx-light libnginx-mod-nchan caddy

.PHONY: venv run front chromium test test-fast lint format bench translations extract test-deals

venv: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Re-installs only when pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

# Compiles the catalogues (the .mo files are build products, not committed).
translations: $(STAMP)
	$(BIN)/pybabel compile --statistics -d scorer/translations

# Gathers every message of the templates and the code, then merges them into each catalogue.
extract: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k N_ -k lazy_gettext -k lazy_ngettext:1,2 -k N_plural:1,2 \
		--sort-by-file --no-wrap -o scorer/translations/messages.pot .
	$(BIN)/pybabel update -i scorer/translations/messages.pot -d scorer/translations \
		--ignore-obsolete --no-wrap

# gunicorn on every interface, port 5000, so phones on the same Wi-Fi can join; it prints the
# address and its QR code. `HOST=127.0.0.1 make run` keeps it private, `PORT=5001` moves it.
run: $(STAMP) translations front
	$(BIN)/python -m scorer.serve

# make run's front (scorer/front.py): nginx with Nchan, installed from Debian when missing.
front:
	@missing=""; \
	for p in nginx-light libnginx-mod-nchan; do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

# Debian's Chromium (Playwright must never download its own browser),
# DejaVu fonts for WeasyPrint, poppler-utils for pdftoppm, and nginx for the test of the
# shards' router (tests/production/test_shards_served.py starts its own, on loopback) and
# Caddy to read the front's Caddyfile (tests/production/test_deploy.py); neither package's
# service is needed.
chromium:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="chromium"; \
	for p in fonts-dejavu-core poppler-utils nginx-light libnginx-mod-nchan caddy; do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $(APT_PKGS); \
	fi

test: $(STAMP) chromium translations
	$(BIN)/python -m pytest

# The inner loop: every test but the browser, served (subprocess), PDF and slow ones, spread
# over the cores (pytest-xdist). browser/served/pdf are given by tests/conftest.py, slow by
# hand (hypothesis, fuzzing, dealt packs, page walks); `make test` still runs everything.
FAST := not browser and not served and not pdf and not slow
# Cached assertion rewrites (__pycache__, ignored by git) save each worker seconds.
test-fast: $(STAMP) translations
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -p no:cacheprovider -n auto -m "$(FAST)"

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The benchmarks: wrk (apt) for the HTTP load and Lighthouse (npm, bench/package-lock.json)
# on Debian's Chromium. Everything runs on loopback; about 7 minutes on 2 cores.
bench: $(STAMP) chromium translations
	@missing=""; command -v wrk >/dev/null || missing="wrk"; \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; fi
	@[ -d bench/node_modules ] || npm ci --prefix bench --no-audit --no-fund
	CHROME_PATH=/usr/bin/chromium $(BIN)/python -m bench

# The proof that no real hand is refused, at length: thousands of hands dealt from shuffled
# packs (tests/deal.py), each accepted and scored from its cards, each broken rule refused.
# SCORER_DEALS sets how many hands (a quarter as many for each broken rule).
SCORER_DEALS ?= 3000
test-deals: $(STAMP)
	SCORER_DEALS=$(SCORER_DEALS) $(BIN)/python -m pytest -q -p no:cacheprovider tests/core/test_dealt_hands.py
