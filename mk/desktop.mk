# The desktop app: Wails window, tray and its smoke test. The desktop binary
# needs cgo with GTK 3 and WebKitGTK 4.1; as root on Debian 12 the missing
# packages are installed with apt-get (apt_pkgs, Makefile), otherwise the
# exact line is printed.

.PHONY: desktop desktop-run desktop-test desktop-deps desktop-test-deps

DESKTOP_BIN  := build/bin/trove-desktop
DESKTOP_TAGS := desktop,production,webkit2_41
DESKTOP_PKGS := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config gcc
SMOKE_PKGS   := xvfb xauth dbus
# Debian's hardening: PIE, full RELRO and the linker's other defaults. The
# package's trove-desktop is built with the same flags, so that it reuses
# this build's compiled cgo packages.
DESKTOP_GOFLAGS      := -trimpath -buildmode=pie
DESKTOP_CGO_LDFLAGS  := -Wl,-z,relro -Wl,-z,now

## desktop-deps: the system packages the desktop build needs
desktop-deps:
	$(call apt_pkgs,$(DESKTOP_PKGS))

## desktop: build the desktop binary (window + tray + API) into build/bin/trove-desktop
desktop: deps frontend desktop-deps
	CGO_ENABLED=1 CGO_LDFLAGS="$(DESKTOP_CGO_LDFLAGS)" $(GO) build -tags $(DESKTOP_TAGS) $(DESKTOP_GOFLAGS) -ldflags "$(LDFLAGS)" -o $(DESKTOP_BIN) .

## desktop-run: build and start the desktop app (headless server when there is no display)
desktop-run: desktop
	./$(DESKTOP_BIN)

desktop-test-deps:
	$(call apt_pkgs,$(SMOKE_PKGS))

## desktop-test: start the desktop app under Xvfb with a private D-Bus and check window, API and tray
desktop-test: desktop desktop-test-deps
	TROVE_DESKTOP_BIN="$(CURDIR)/$(DESKTOP_BIN)" $(GO) test -count=1 -tags desktopsmoke -run 'TestDesktop' -v -timeout 5m ./app/smoke/
