# Build and test the book. Two commands on a fresh machine:
#   make book   build the book into _build/html, with the whole-book PDF
#               (creates .venv on first use)
#   make test   every test: lint, unit tests + doctests + scikit-learn's estimator
#               checks, eigensolver regressions under two other BLAS kernels,
#               the notebooks (nbval) under two BLAS kernels, the book build (-W)
#               and the PDF, the browser checks, the chapters run outside the
#               repository
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
# Timing cells (tagged nbval-ignore-output) time small sizes only under test.
TIMING   := KPCA_BOOK_TIMING_SIZES=200,400
NBVAL    := $(TIMING) pytest --nbval chapters --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider
NB       ?= *.ipynb
# Another CPU's BLAS, as a reader on Binder or Colab may have: OpenBLAS's
# Sandybridge kernels, single-threaded (a different summation order).
OTHER_BLAS := OPENBLAS_CORETYPE=Sandybridge OPENBLAS_NUM_THREADS=1
LINTED   := kpca tests tools benchmarks _ext chapters
# Each pytest run of make test leaves a JUnit report here; the last line of
# make test sums them.
REPORTS  := .test-reports
TEST_START := $(shell date +%s)

.PHONY: help venv chromium book html pdf test test-lowest lint execute standalone clean

help:
	@echo "make book     build the book into $(HTML), with the whole-book PDF (creates $(VENV) if needed)"
	@echo "make html     build the HTML only (quicker; the PDF link in it is then dead)"
	@echo "make pdf      print the HTML build to $(PDF) with Chromium (needs make html first)"
	@echo "make test     run every test (see the top of this file); about 15 minutes"
	@echo "make lint     ruff check, ruff format --check, mypy"
	@echo "make test-lowest  the package tests at the lowest numpy, scipy, threadpoolctl declared"
	@echo "make execute  re-execute chapters in place (NB=name.ipynb for one; cwd chapters/)"
	@echo "make clean    remove $(dir $(HTML)) and caches (keeps $(VENV))"

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
	python tools/build_pdf.py --html $(HTML) --out $(PDF)

lint: $(STAMP)
	ruff check $(LINTED)
	ruff format --check $(LINTED)
	mypy

test: $(STAMP) chromium
	@rm -rf $(REPORTS) && mkdir -p $(REPORTS)
	@echo "==> [1/8] lint: ruff check and format (code fits the book's 79 columns)"
	$(MAKE) --no-print-directory lint
	@echo "==> [2/8] unit tests, doctests, scikit-learn's estimator checks"
	pytest tests kpca --doctest-modules -p no:cacheprovider -n 2 \
	    --junitxml=$(REPORTS)/unit.xml
	@echo "==> [3/8] eigensolver regressions under two other OpenBLAS kernels"
	OPENBLAS_CORETYPE=Sandybridge pytest tests/test_eigen.py -q -p no:cacheprovider \
	    --junitxml=$(REPORTS)/eigen-sandybridge.xml
	OPENBLAS_CORETYPE=Prescott pytest tests/test_eigen.py -q -p no:cacheprovider \
	    --junitxml=$(REPORTS)/eigen-prescott.xml
	@echo "==> [4/8] notebooks: stored outputs must match a fresh run (nbval, strict)"
	$(NBVAL) --junitxml=$(REPORTS)/nbval.xml
	@echo "==> [5/8] notebooks again under another BLAS kernel ($(OTHER_BLAS))"
	$(OTHER_BLAS) $(NBVAL) -n 2 --dist loadfile \
	    --junitxml=$(REPORTS)/nbval-other-blas.xml
	@echo "==> [6/8] book build from scratch, warnings are errors; the whole-book PDF"
	rm -rf _build
	@start=$$(date +%s); $(JB_BUILD); echo "book built in $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); python tools/build_pdf.py --html $(HTML) --out $(PDF); \
	    echo "PDF built in $$(( $$(date +%s) - start )) s"
	cp $(PDF) $(HTML)/$(notdir $(PDF))
	rm -rf $(HTML)/pdf && cp -r $(dir $(PDF))pdf $(HTML)/pdf
	@echo "==> [7/8] every built page in Chromium at 390 and 1280 px, light and dark"
	@echo "    (math, images, links, no network, layout, menus, axe-core); the PDF"
	pytest -n 2 tests/browser -p no:cacheprovider \
	    --junitxml=$(REPORTS)/browser.xml
	@echo "==> [8/8] every chapter in an empty directory, with only kpca[book] installed"
	JUNIT_DIR=$(CURDIR)/$(REPORTS) $(MAKE) --no-print-directory standalone
	@python tools/test_summary.py $(REPORTS) $(TEST_START)

# The package tests against the lowest numpy, scipy and threadpoolctl that
# pyproject.toml declares, in their own venv (.venv-lowest, made afresh each
# time): 2.5 to 5 min on the shared 2-core machine, most of it pip
# (23 s of CPU in all); the tests themselves take 17-34 s.
test-lowest:
	bash tools/test_lowest.sh

# Each chapter runs outside the repository, in a fresh venv that has only the
# package and its `book` extra (at the tested versions), as on Colab.
standalone: $(STAMP)
	$(TIMING) bash tools/run_chapters_standalone.sh

execute: $(STAMP)
	cd chapters && jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.record_timing=False $(NB)

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
