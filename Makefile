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

# $(call apt_pkgs,PACKAGES): install the Debian PACKAGES that are missing,
# all with one apt-get; as another user than root, print the line and stop.
define apt_pkgs
	@missing=""; for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    $(APT_INSTALL) $$missing >/dev/null || exit 1; \
	  else \
	    echo "make $@ needs these packages. Install them with:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
endef

# $(call apt_need,COMMAND,PACKAGES): install PACKAGES when COMMAND (a name
# on PATH or a path) is missing, for programs that may come from elsewhere
# than Debian (node, python3).
define apt_need
	@if ! command -v $(1) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "$(1) is missing: apt-get install -y $(2)"; \
	    $(APT_INSTALL) $(2) >/dev/null || exit 1; \
	  else \
	    echo "$(1) is missing. Install it with:"; echo "  sudo apt-get install -y $(2)"; exit 1; \
	  fi; \
	fi
endef

.PHONY: run serve build test go-test go-test-deps fuzz chaos deps check clean openapi

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

# The programs the Go tests run: gsettings with GNOME's schema (hotkey
# commands) and desktop-file-validate (autostart entry); xdg-mime (the
# default viewer opened at a page); curl and jq
# (examples/); ffmpeg (videos' thumbnails); bindfs (a FUSE mount, whose
# changes the kernel does not report); the fidelity corpus's makers and
# references, and tesseract.
GO_TEST_PKGS = libglib2.0-bin gnome-settings-daemon-common desktop-file-utils xdg-utils curl jq ffmpeg bindfs $(FIDELITY_PKGS)

go-test-deps:
	$(call apt_pkgs,$(GO_TEST_PKGS))
	$(call apt_need,python3,python3)

# The race detector instruments our code, not SQLite: the WebAssembly
# SQLite translated to Go is single-threaded per connection, and
# instrumenting its millions of memory accesses made the tests that build
# a 5,000-file index four times slower without watching any code of ours.
RACE = -race -gcflags='github.com/ncruces/go-sqlite3-wasm/...=-race=false'

## go-test: Go tests, with the race detector; TestChaos alone and verbose, so its seeds and counts show
go-test: deps go-test-deps
	$(GO) test -count=1 $(RACE) -timeout 20m -skip '^TestChaos$$' ./...
	$(GO) test -count=1 $(RACE) -timeout 20m -v -run '^TestChaos$$' ./backend/daemon/

## fuzz: every fuzz target for FUZZTIME (default 3s) each
fuzz: deps
	FUZZTIME=$${FUZZTIME:-3s} ./scripts/fuzz.sh

## chaos: TestChaos on CHAOS_SEEDS fresh random seeds (default 20) with CHAOS_OPS operations each
chaos: deps
	TROVE_CHAOS_NEW=$${CHAOS_SEEDS:-20} TROVE_CHAOS_OPS=$${CHAOS_OPS:-300} $(GO) test -count=1 $(RACE) -timeout 60m -run 'TestChaos$$' ./backend/daemon/

## openapi: regenerate backend/shell/apidoc/openapi.json from the Go types, and the Go client's and the web UI's types from it (after an API change; note it in docs/api-changes.md)
openapi: frontend/node_modules/.installed
	$(GO) generate ./backend/shell/apidoc
	$(GO) generate ./client
	cd frontend && npm run --silent openapi

clean:
	rm -rf build/bin

include mk/frontend.mk
include mk/desktop.mk
include mk/package.mk
include mk/fidelity.mk
