# Build and test the book. Two commands on a fresh machine:
#   make book   build the book into _build/html, with the whole-book PDF
#               (creates .venv on first use)
#   make test   unit tests + doctests, notebooks (nbval), book build (-W), browser check
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
NBVAL    := pytest --nbval chapters --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider
NB       ?= *.ipynb

.PHONY: help venv book html pdf test execute clean

help:
	@echo "make book     build the book into $(HTML), with the whole-book PDF (creates $(VENV) if needed)"
	@echo "make html     build the HTML only (quicker; the PDF link in it is then dead)"
	@echo "make pdf      print the HTML build to $(PDF) with Chromium (needs make html first)"
	@echo "make test     run every test: unit + doctests, nbval, book build (-W), browser check"
	@echo "make execute  re-execute chapters in place (NB=name.ipynb for one; cwd chapters/)"
	@echo "make clean    remove $(dir $(HTML)) and caches (keeps $(VENV))"

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Re-install only when requirements.txt or pyproject.toml changes.
$(STAMP): requirements.txt pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -r requirements.txt
	touch $@

venv: $(STAMP)

# The book is the HTML and the PDF it offers for download: the PDF is printed
# from the HTML build and copied into it, where every page's download menu
# and the intro link to it.
book: html pdf
	cp $(PDF) $(HTML)/$(notdir $(PDF))
	@echo
	@echo "The book is at $(CURDIR)/$(HTML)/index.html (PDF: $(PDF))"

html: $(STAMP)
	$(JB_BUILD)

pdf: $(STAMP)
	@test -f $(HTML)/index.html || { echo "no HTML build: run make html first"; exit 1; }
	python tools/build_pdf.py --html $(HTML) --out $(PDF)

test: $(STAMP)
	@echo "==> [1/4] unit tests and doctests (tests/, kpca/)"
	pytest tests kpca --doctest-modules -p no:cacheprovider
	@echo "==> [2/4] notebooks: stored outputs must match a fresh run (nbval, strict)"
	$(NBVAL)
	@echo "==> [3/4] book build from scratch, warnings are errors; the whole-book PDF"
	rm -rf _build
	@start=$$(date +%s); $(JB_BUILD); echo "book built in $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); python tools/build_pdf.py --html $(HTML) --out $(PDF); \
	    echo "PDF built in $$(( $$(date +%s) - start )) s"
	cp $(PDF) $(HTML)/$(notdir $(PDF))
	@echo "==> [4/4] every built page in Chromium at 390 and 1280 px, light and dark"
	@echo "    (math, images, links, no network, layout, menus, axe-core); the PDF"
	pytest -n 2 tests/browser -p no:cacheprovider

execute: $(STAMP)
	cd chapters && jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.record_timing=False $(NB)

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
