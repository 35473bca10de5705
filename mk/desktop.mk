# The desktop app: Wails window, tray, and its smoke test. Filled in by the
# desktop work; until then `make run` runs the headless server.

.PHONY: desktop desktop-run desktop-test

## desktop: build the desktop binary
desktop:

## desktop-run: build and start the desktop app
desktop-run: serve

## desktop-test: start the desktop app under Xvfb and check window, API and tray
desktop-test:
