# The web interface in frontend/: its dependencies, build, unit tests and
# browser end-to-end tests. As root on a fresh Debian 12 it installs what is
# missing with apt-get; otherwise it prints the apt-get line and stops.

.PHONY: frontend frontend-test e2e-test frontend-node frontend-chromium

FRONTEND_STAMP := frontend/node_modules/.installed
CHROMIUM       ?= /usr/bin/chromium

## frontend-node: node and npm (Vite needs Node 20.19 or newer)
frontend-node:
	$(call apt_need,node,nodejs npm)
	$(call apt_need,npm,npm)
	@node -e 'const [a, b] = process.versions.node.split(".").map(Number); if (a < 20 || (a === 20 && b < 19)) { console.error("Node " + process.versions.node + " is too old for the web UI (Vite needs 20.19 or newer)."); process.exit(1); }'

$(FRONTEND_STAMP): frontend/package.json frontend/package-lock.json | frontend-node
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

## frontend: build the web UI into frontend/dist (embedded in the binary)
frontend: $(FRONTEND_STAMP)
	cd frontend && npm run --silent build

## frontend-test: type checks and unit tests of the web UI
frontend-test: $(FRONTEND_STAMP)
	cd frontend && npm run --silent check
	cd frontend && npm test

## frontend-chromium: Debian's Chromium for the browser tests
frontend-chromium:
	$(call apt_need,$(CHROMIUM),chromium)

## e2e-test: browser end-to-end tests against a real server (the binary of `make build`)
e2e-test: build frontend-chromium
	cd frontend && TROVE_BIN="$(CURDIR)/$(BIN)" CHROMIUM_PATH="$(CHROMIUM)" npm run --silent e2e
