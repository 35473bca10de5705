# Trove. The two commands: `make run` (the app) and `make test` (everything).
# On a fresh Debian 12 machine as root they install what they need.

SHELL   := /bin/bash
GO      ?= $(shell command -v go || echo /usr/local/go/bin/go)
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
BIN     := build/bin/trove
export PATH := $(dir $(GO)):$(PATH)

.PHONY: run serve build test fuzz deps check clean

## run: start Trove
run: serve

## serve: build and run the headless server (API on 127.0.0.1:8765)
serve: build
	./$(BIN) serve

## build: the headless binary (no cgo)
build: deps
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
test: check
	$(GO) test -count=1 -race -timeout 20m ./...
	FUZZTIME=$${FUZZTIME:-3s} ./scripts/fuzz.sh

## fuzz: every fuzz target for FUZZTIME (default 3s) each
fuzz: deps
	./scripts/fuzz.sh

clean:
	rm -rf build/bin
