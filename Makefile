# Build and test the book. On a fresh machine:
#   make book   build the book into _build/html, with the whole-book PDF
#               (creates .venv on first use)
#   make check  the inner loop, under two minutes: lint, the unit tests and
#               doctests, the book's data and conventions, and nbval on the
#               chapters changed since $(BASE) (committed or not)
#   make test   every test, in the steps of TEST_STEPS below (make steps
#               lists them); ends with a time per step and the count
# See README.md.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.requirements.stamp
HTML   := _build/html
PDF    := _build/pdf/kpca-book.pdf

# Every command below, and every Jupyter kernel it starts, uses the venv's Python.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
export VIRTUAL_ENV := $(CURDIR)/$(VENV)
# Same set/dict-of-str ordering in every run, so stored outputs stay comparable.
export PYTHONHASHSEED := 0

JB_BUILD := jupyter-book build . --builder html -W --keep-going
PYTEST   := pytest -p no:cacheprovider
# Timing cells (tagged nbval-ignore-output) time small sizes only under test.
TIMING   := KPCA_BOOK_TIMING_SIZES=200,400
NBVAL    := $(TIMING) $(PYTEST) --nbval --nbval-sanitize-with tests/book/nbval_sanitize.cfg
NB       ?= *.ipynb
# Another CPU's BLAS, as a reader on Binder or Colab may have: OpenBLAS's
# Sandybridge kernels, single-threaded (a different summation order).
OTHER_BLAS := OPENBLAS_CORETYPE=Sandybridge OPENBLAS_NUM_THREADS=1
# The kernels the BLAS-sensitive unit tests (marker blas_regression) rerun on,
# two test processes at a time, each on one BLAS thread (two BLAS threads per
# process would oversubscribe the two cores).
EXTRA_BLAS_KERNELS := Sandybridge Prescott
LINTED   := kpca tests tools benchmarks _ext chapters
# make check runs nbval on the chapters changed since this branch.
BASE     ?= main
# Each step of make test leaves its JUnit reports and its time here; the
# last lines of make test sum them.
REPORTS  := .test-reports

# The steps of make test, in order; `make test-NAME` runs one alone, and a
# new step is one more name here, its ABOUT_ line and its test-NAME target.
TEST_STEPS := lint unit lowest blas-regression notebooks book browser standalone
ABOUT_lint            := ruff check and format (code fits the book's 79 columns), mypy
ABOUT_unit            := unit tests, doctests, scikit-learn's estimator checks, the book's data and conventions
ABOUT_lowest          := the package tests at the lowest numpy, scipy and threadpoolctl pyproject.toml declares, in their own venv
ABOUT_blas-regression := the BLAS-sensitive unit tests (-m blas_regression) under OpenBLAS's $(EXTRA_BLAS_KERNELS) kernels
ABOUT_notebooks       := every chapter's stored outputs must match a fresh run (nbval, strict), two at a time
ABOUT_book            := book build from scratch, warnings are errors; the whole-book PDF
ABOUT_browser         := every built page in Chromium at 390 and 1280 px, light and dark; the PDF
ABOUT_standalone      := every chapter alone with only kpca[book] installed, under another BLAS ($(OTHER_BLAS)), against its stored outputs
# The heading of a step: "==> [2/7] unit: ..." (the number when make test runs it).
HEADING = @echo "==> $(if $(STEP),[$(STEP)] )$(@:test-%=%): $(ABOUT_$(@:test-%=%))"
# Run a command; append "name wall user sys" (seconds) to the step times.
timed = TIMEFORMAT="$(1) %R %U %S"; { time $(2) 2>&3; } 3>&2 2>> $(REPORTS)/times.txt

.PHONY: help venv chromium book html pdf check test steps lint execute test-lowest \
    standalone clean $(addprefix test-,$(TEST_STEPS))

help:
	@echo "make book     build the book into $(HTML), with the whole-book PDF (creates $(VENV) if needed)"
	@echo "make html     build the HTML only (quicker; the PDF link in it is then dead)"
	@echo "make pdf      print the HTML build to $(PDF) with Chromium (needs make html first)"
	@echo "make check    the inner loop (under 2 minutes): lint, unit tests, doctests, nbval on the chapters changed since $(BASE)"
	@echo "make test     run every test (make steps lists them); under 20 minutes"
	@echo "make test-NAME  one step of make test: $(TEST_STEPS)"
	@echo "make lint     ruff check, ruff format --check, mypy"
	@echo "make execute  re-execute chapters in place (NB=name.ipynb for one; cwd chapters/)"
	@echo "make clean    remove $(dir $(HTML)) and caches (keeps $(VENV))"

steps:
	@i=0; $(foreach s,$(TEST_STEPS),i=$$((i + 1)); echo "$$i. $(s): $(ABOUT_$(s))";)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Re-install only when requirements.txt or pyproject.toml changes.
# constraints.txt pins every transitive dependency to the tested versions.
$(STAMP): requirements.txt constraints.txt pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -r requirements.txt -c constraints.txt
	touch $@

venv: $(STAMP)

# Debian's Chromium prints the PDF and runs the browser tests; installed here
# when missing (as root or with sudo), else the exact command is printed.
chromium:
	@bash tools/ensure_chromium.sh

# The book is the HTML and the PDF it offers for download: the PDF is printed
# from the HTML build and copied into it, where every page's download menu
# and the intro link to it.
book: html pdf
	cp $(PDF) $(HTML)/$(notdir $(PDF))
	rm -rf $(HTML)/pdf && cp -r $(dir $(PDF))pdf $(HTML)/pdf
	@echo
	@echo "The book is at $(CURDIR)/$(HTML)/index.html (PDF: $(PDF))"

# The output directory is rebuilt from nothing every time, so no file of an
# earlier build (a renamed page, an old _static asset) survives into it;
# the parsed pages cached in _build/.doctrees keep this quick.
html: $(STAMP)
	rm -rf $(HTML)
	$(JB_BUILD)

pdf: $(STAMP) chromium
	@test -f $(HTML)/index.html || { echo "no HTML build: run make html first"; exit 1; }
	python -m tools.build_pdf --html $(HTML) --out $(PDF)

lint: $(STAMP)
	ruff check $(LINTED)
	ruff format --check $(LINTED)
	mypy

# The inner loop. Hypothesis runs its quick "dev" profile (tests/package/
# conftest.py); two test processes on one BLAS thread each (with OpenBLAS's
# two threads each they oversubscribe two cores: 4 times the CPU time; the
# products split between the cores are tested by make test, at the default
# threads); the chapters changed since $(BASE), committed or not, run so too
# under nbval.
check: $(STAMP)
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory lint; \
	OPENBLAS_NUM_THREADS=1 $(PYTEST) tests kpca -q -n 2; \
	notebooks=$$(bash tools/changed_notebooks.sh $(BASE)); \
	if [ -n "$$notebooks" ]; then \
	    echo "nbval on the chapters changed since $(BASE):" $$notebooks; \
	    OPENBLAS_NUM_THREADS=1 $(NBVAL) -q -n 2 --dist loadfile $$notebooks; \
	else echo "no chapter changed since $(BASE): nbval skipped"; fi; \
	echo "make check passed in $$(( $$(date +%s) - start )) s"

# Every step in order, stopping at the first failure; the venv and Chromium
# first (timed as "setup": in a fresh clone this installs everything).
test:
	@rm -rf $(REPORTS) && mkdir -p $(REPORTS)
	@$(call timed,setup,$(MAKE) --no-print-directory $(STAMP) chromium)
	@i=0; for step in $(TEST_STEPS); do i=$$((i + 1)); \
	    $(call timed,$$step,$(MAKE) --no-print-directory test-$$step \
	        STEP=$$i/$(words $(TEST_STEPS))); \
	done
	@python tools/test_summary.py $(REPORTS) $(TEST_STEPS)

test-lint: $(STAMP)
	$(HEADING)
	$(MAKE) --no-print-directory lint

test-unit: $(STAMP)
	$(HEADING)
	HYPOTHESIS_PROFILE=ci $(PYTEST) tests kpca -n 2 \
	    --junitxml=$(REPORTS)/unit.xml

test-blas-regression: $(STAMP)
	$(HEADING)
	$(foreach k,$(EXTRA_BLAS_KERNELS),OPENBLAS_CORETYPE=$(k) \
	    OPENBLAS_NUM_THREADS=1 $(PYTEST) \
	    tests/package -m blas_regression -q -n 2 \
	    --junitxml=$(REPORTS)/blas-regression-$(k).xml;)

# Two chapters at a time, each kernel on one BLAS thread (this CPU's kernels;
# the standalone step runs another CPU's). Serial on two BLAS threads it took
# 4 times the wall time and twice the CPU time on the loaded 2-core machine.
test-notebooks: $(STAMP)
	$(HEADING)
	OPENBLAS_NUM_THREADS=1 $(NBVAL) chapters -n 2 --dist loadfile \
	    --junitxml=$(REPORTS)/nbval.xml

test-book: $(STAMP) chromium
	$(HEADING)
	rm -rf _build
	@start=$$(date +%s); $(JB_BUILD); echo "book built in $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); python -m tools.build_pdf --html $(HTML) --out $(PDF); \
	    echo "PDF built in $$(( $$(date +%s) - start )) s"
	cp $(PDF) $(HTML)/$(notdir $(PDF))
	rm -rf $(HTML)/pdf && cp -r $(dir $(PDF))pdf $(HTML)/pdf

test-browser: $(STAMP) chromium
	$(HEADING)
	$(PYTEST) -n 2 tests/book/browser --junitxml=$(REPORTS)/browser.xml

# The package tests against the lowest numpy, scipy and threadpoolctl that
# pyproject.toml declares, in their own venv (.venv-lowest, made afresh each
# time): 2.5 to 5 min on the shared 2-core machine, most of it pip
# (23 s of CPU in all); the tests themselves take 17-34 s.
test-lowest:
	$(HEADING)
	bash tools/test_lowest.sh --junitxml=$(REPORTS)/lowest.xml

test-standalone: $(STAMP)
	$(HEADING)
	JUNIT_DIR=$(CURDIR)/$(REPORTS) $(MAKE) --no-print-directory standalone

# Each chapter runs outside the repository, in a fresh venv that has only the
# package and its `book` extra (at the tested versions), as on Colab, and on
# another CPU's BLAS: its stored outputs, made on this machine's kernels, must
# come out again.
standalone: $(STAMP)
	$(TIMING) $(OTHER_BLAS) bash tools/run_chapters_standalone.sh

execute: $(STAMP)
	cd chapters && jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.record_timing=False $(NB)

clean:
	rm -rf _build .pytest_cache .hypothesis $(REPORTS)
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
