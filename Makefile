# Tandem: the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test install lint lock chromium migrate worker clean bench bench-sweep bench-generate bench-outbox bench-pages bench-slot-start bench-imports bench-routes bench-writes

install: $(STAMP)

# Dependencies: ranges in pyproject.toml, exact versions pinned by requirements.lock.
$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Tandem needs Python 3.11 or newer (found $$($(PYTHON) --version))."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c requirements.lock -e ".[dev]"
	@touch $@

## run: migrate, seed the demo organisation and start web + Celery worker + beat.
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	bin/run-demo

## test: the whole suite, browser journeys included (installs Debian's chromium if needed).
test: install chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/pytest -n 2 --dist loadgroup

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

chromium:
	@bin/ensure-chromium

## lock: re-pin every dependency after changing pyproject.toml.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet ".[dev]"
	.lock-venv/bin/pip freeze --exclude tandem > requirements.lock
	rm -rf .lock-venv

## bench: every benchmark below, one after another (about 15 minutes; the page latency
## needs tandem_scale: make seed-scale first).
bench: bench-sweep bench-generate bench-outbox bench-pages

## bench-sweep: time the missed-session sweep over 100,000 due sessions (PostgreSQL).
bench-sweep: install
	$(BIN)/python bench/sweep.py --sessions 100000

## bench-generate: time materialising 6 weeks for 50,000 live plans (PostgreSQL), split in
## two as beat splits it with the default CADENCE_GENERATORS.
bench-generate: install
	$(BIN)/python bench/generate.py --plans 50000 --processes 2

## bench-outbox: time 2 Celery workers draining 20,000 notifications (PostgreSQL, Redis db 9).
bench-outbox: install
	$(BIN)/python bench/outbox.py --notifications 20000 --workers 2 --concurrency 2

## bench-imports: time importing 10,000 people from a CSV file, step by step, then the
## same file again (PostgreSQL; not part of `make bench`: about a minute).
bench-imports: install
	$(BIN)/python bench/imports.py --people 10000

## bench-pages: page latency through gunicorn + PostgreSQL with wrk, against tandem_scale
## (make seed-scale first; Debian's wrk; Redis db 11). About 7 minutes (16 pages).
bench-pages: install
	@command -v wrk >/dev/null || { echo "bench-pages needs wrk: apt-get install -y wrk"; exit 1; }
	$(BIN)/python bench/pages.py --connections 8 --duration 20 --warmup 3

## bench-routes: every page and API read (routes with ids too) as each role of tandem_scale,
## the slowest first (make seed-scale first; Redis db 11; about 4 minutes; not in `make bench`).
bench-routes: install
	$(BIN)/python bench/routes.py --repeat 3 --ids 3 --top 40

## bench-writes: every form of the app's pages submitted as each role of tandem_scale, each in a
## savepoint rolled back, the slowest first (make seed-scale first; Redis db 11; not in `make bench`).
bench-writes: install
	$(BIN)/python bench/writes.py --repeat 3 --ids 2 --top 40

## bench-slot-start: HR's overview read by 8 readers across the start of a slot while beat
## warms it (tandem_scale, Redis db 11); waits up to DASHBOARD_REFRESH_MINUTES for the slot.
bench-slot-start: install
	$(BIN)/python bench/slot_start.py --readers 8 --seconds 15

## seed-scale: recreate the PostgreSQL database tandem_scale on localhost, migrate it and seed
## 10,000 people with two years of history (about 2.5 minutes; password tandem-demo-2026).
SCALE_DATABASE ?= tandem_scale
SCALE_PEOPLE ?= 10000
SCALE_URL := postgres://postgres@127.0.0.1:5432/$(SCALE_DATABASE)
.PHONY: seed-scale
seed-scale: install
	dropdb -h 127.0.0.1 -U postgres --if-exists $(SCALE_DATABASE)
	createdb -h 127.0.0.1 -U postgres $(SCALE_DATABASE)
	DATABASE_URL=$(SCALE_URL) $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=$(SCALE_URL) $(BIN)/python manage.py seed_scale --people $(SCALE_PEOPLE)

clean:
	rm -rf $(VENV) var staticfiles
