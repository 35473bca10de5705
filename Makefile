# Trove. The two commands: `make run` (the app) and `make test` (everything).
# On a fresh Debian 12 machine as root they install what they need.

SHELL   := /bin/bash
GO      ?= $(shell command -v go || echo /usr/local/go/bin/go)
ifndef VERSION
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
endif
LDFLAGS := -X main.version=$(VERSION)
BIN     := build/bin/trove
export PATH := $(dir $(GO)):$(PATH)
# apt waits for another apt (an unattended upgrade, a second make) instead of failing.
APT_INSTALL := apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq

.PHONY: run serve build test go-test fuzz chaos deps check clean openapi

## run: start Trove (the desktop app)
run: desktop-run

## serve: build and run the headless server (API and web UI on 127.0.0.1:8765)
serve: build
	./$(BIN) serve

## build: the headless binary (no cgo), with the web UI embedded
build: deps frontend
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) .

## deps: Go modules
deps:
	@$(GO) mod download

## check: formatting and vet
check: deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## test: the whole suite
test: check go-test fuzz frontend-test e2e-test desktop-test package-test cross

## go-test: Go tests, with the race detector (the examples' tests need jq, curl and python3)
go-test: deps go-test-deps fidelity-deps examples-deps
	$(GO) test -count=1 -race -timeout 20m -skip '^TestChaos$$' ./...
	@echo "chaos test (kept seeds):"
	set -o pipefail; $(GO) test -count=1 -race -timeout 20m -v -run '^TestChaos$$' ./backend/daemon/ \
		| grep -E '^(=== RUN|--- |ok|FAIL|PASS)|chaos seed|seed [0-9]+: |chaos_test.go'

## fuzz: every fuzz target for FUZZTIME (default 3s) each
fuzz: deps
	FUZZTIME=$${FUZZTIME:-3s} ./scripts/fuzz.sh

## chaos: TestChaos on CHAOS_SEEDS fresh random seeds (default 20) with CHAOS_OPS operations each
chaos: deps
	TROVE_CHAOS_NEW=$${CHAOS_SEEDS:-20} TROVE_CHAOS_OPS=$${CHAOS_OPS:-300} $(GO) test -count=1 -race -timeout 60m -run 'TestChaos$$' ./backend/daemon/

## openapi: regenerate backend/apidoc/openapi.json from the Go types (after an API change; note it in docs/api-changes.md)
openapi:
	$(GO) generate ./backend/apidoc

clean:
	rm -rf build/bin

include mk/frontend.mk
include mk/desktop.mk
include mk/package.mk
include mk/fidelity.mk
include mk/examples.mk
