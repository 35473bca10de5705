# The Debian packages (.deb for amd64 and arm64, built with nfpm), their
# test in a clean root, and the cross builds of every other platform.
# As root on Debian 12 the missing tools are installed with apt-get;
# otherwise the exact line is printed.

.PHONY: package package-shared package-amd64 package-arm64 package-test package-test-deps package-deps appicon cross

PKG_ARCHES     := amd64 arm64
# Worked out once (:=), so that every file of a package names the same
# version even if a commit lands during the build.
PKG_COMMIT     := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
ifndef PKG_VERSION
PKG_VERSION    := 0.0~git$(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S 2>/dev/null || echo 0).$(shell git rev-parse --short HEAD 2>/dev/null || echo dev)
endif
PKG_MAINTAINER ?= Trove developers <packages@trove.dev>
PKG_DIR        := build/pkg
NFPM           := build/bin/nfpm
ICON_SIZES     := 16 22 24 32 48 64 128 256 512
# The date in the man page and changelog: the commit's, so a rebuild of the
# same commit gives the same package.
ifndef SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
endif
export SOURCE_DATE_EPOCH
PKG_BUILD_PKGS := librsvg2-bin dpkg-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross
PKG_TEST_PKGS  := lintian desktop-file-utils appstream systemd man-db
# The arm64 GTK and WebKitGTK libraries for cross-linking trove-desktop
# (build/linux/sysroot.sh); kept outside the tree so clean clones reuse it.
SYSROOT_arm64  ?= /var/cache/trove/sysroot-arm64
CC_arm64       := aarch64-linux-gnu-gcc
MULTIARCH_arm64 := aarch64-linux-gnu
# Stripped; the hardening flags are the desktop build's (mk/desktop.mk).
PKG_LDFLAGS    := -s -w -X main.version=$(PKG_VERSION)
# The headless trove of this machine's architecture (it writes the man page).
TROVE_HOST     := $(PKG_DIR)/$(shell $(GO) env GOARCH)/trove

package-deps:
	$(call apt_pkgs,$(PKG_BUILD_PKGS))

$(NFPM): build/tools/go.mod build/tools/go.sum
	cd build/tools && $(GO) build -o ../bin/nfpm github.com/goreleaser/nfpm/v2/cmd/nfpm

## package: build/pkg/trove_VERSION_{amd64,arm64}.deb
package: $(addprefix package-,$(PKG_ARCHES))

## appicon: render app/appicon.png (the window's and tray's icon) from build/trove.svg
appicon: package-deps
	rsvg-convert -w 256 -h 256 build/trove.svg -o app/appicon.png

# What both packages share, made once: the man page (from a trove that runs
# here), the icons, the metainfo and the changelog.
PKG_SHARED := $(PKG_DIR)/shared
package-shared: deps frontend package-deps $(TROVE_HOST)
	@mkdir -p $(PKG_SHARED)
	$(GO) run ./build/manpage -bin $(TROVE_HOST) -version $(PKG_VERSION) | gzip -9n > $(PKG_SHARED)/trove.1.gz
	@rm -rf $(PKG_SHARED)/hicolor
	@for s in $(ICON_SIZES); do mkdir -p $(PKG_SHARED)/hicolor/$${s}x$${s}/apps; \
	  rsvg-convert -w $$s -h $$s build/trove.svg -o $(PKG_SHARED)/hicolor/$${s}x$${s}/apps/dev.trove.Trove.png || exit 1; done
	sed -e 's/@VERSION@/$(PKG_VERSION)/' -e "s/@DATE@/$$(date -u -d @$(SOURCE_DATE_EPOCH) +%F)/" \
	  build/linux/dev.trove.Trove.metainfo.xml > $(PKG_SHARED)/dev.trove.Trove.metainfo.xml
	printf 'trove (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
	  '$(PKG_VERSION)' '$(PKG_COMMIT)' '$(PKG_MAINTAINER)' \
	  "$$(date -u -R -d @$(SOURCE_DATE_EPOCH))" | gzip -9n > $(PKG_SHARED)/changelog.gz

# The headless trove of each Linux architecture. The package, the man page
# (the host's) and cross all take this one file, and make builds a target
# once per run, so one `make test` links each of them once. Its
# prerequisites are phony (Go's cache decides what to recompile), so every
# run links it again: a binary from an earlier run is never taken as new.
$(PKG_DIR)/%/trove: deps frontend
	@mkdir -p $(@D)
	CGO_ENABLED=0 GOOS=linux GOARCH=$* $(GO) build -trimpath -ldflags "$(PKG_LDFLAGS)" -o $@ .

# $(call nfpm_deb,ARCH)
define nfpm_deb
	rm -f $(PKG_DIR)/trove_*_$(1).deb
	sed -e 's|$${TROVE_ARCH}|$(1)|g' -e 's|$${TROVE_VERSION}|$(PKG_VERSION)|g' -e 's|$${TROVE_MAINTAINER}|$(PKG_MAINTAINER)|g' \
	  -e 's|$${TROVE_STAGE}|$(PKG_DIR)/$(1)|g' -e 's|$${TROVE_SHARED}|$(PKG_SHARED)|g' build/linux/nfpm.yaml > $(PKG_DIR)/$(1)/nfpm.yaml
	$(NFPM) package --config $(PKG_DIR)/$(1)/nfpm.yaml --packager deb --target $(PKG_DIR)/
endef

package-amd64: package-shared desktop-deps $(NFPM) $(PKG_DIR)/amd64/trove
	CGO_ENABLED=1 CGO_LDFLAGS="$(DESKTOP_CGO_LDFLAGS)" $(GO) build -tags $(DESKTOP_TAGS) $(DESKTOP_GOFLAGS) -ldflags "$(PKG_LDFLAGS)" -o $(PKG_DIR)/amd64/trove-desktop .
	$(call nfpm_deb,amd64)

# trove-desktop for arm64: cgo with the cross compiler, the host's GTK and
# WebKitGTK headers and the arm64 libraries of the sysroot.
package-arm64: package-shared desktop-deps $(NFPM) $(PKG_DIR)/arm64/trove
	@if [ ! -f $(SYSROOT_arm64)/.complete ]; then \
	  if [ "$$(id -u)" = 0 ]; then build/linux/sysroot.sh arm64 $(SYSROOT_arm64) || exit 1; \
	  else echo "The arm64 package needs a sysroot. Make it with:"; echo "  sudo build/linux/sysroot.sh arm64 $(SYSROOT_arm64)"; exit 1; fi; \
	fi
	CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=$(CC_arm64) PKG_CONFIG=$(CURDIR)/build/linux/cross-pkg-config \
	  CGO_LDFLAGS="$(DESKTOP_CGO_LDFLAGS) $(foreach d,usr/lib lib,-L$(SYSROOT_arm64)/$(d)/$(MULTIARCH_arm64) -Wl,-rpath-link,$(SYSROOT_arm64)/$(d)/$(MULTIARCH_arm64))" \
	  $(GO) build -tags $(DESKTOP_TAGS) $(DESKTOP_GOFLAGS) -ldflags "$(PKG_LDFLAGS)" -o $(PKG_DIR)/arm64/trove-desktop .
	$(call nfpm_deb,arm64)

package-test-deps:
	$(call apt_pkgs,$(PKG_TEST_PKGS))
	@if [ -z "$$(ls /var/lib/apt/lists/*_Packages* 2>/dev/null)" ] && [ "$$(id -u)" = 0 ]; then apt-get -o DPkg::Lock::Timeout=600 update -qq; fi

## package-test: install the packages in a clean root with dpkg --root, run trove serve as the user unit would, lint and validate
package-test: package package-test-deps
	TROVE_PKG_DIR="$(CURDIR)/$(PKG_DIR)" $(GO) test -count=1 -tags packagetest -v -timeout 10m ./build/linux/pkgtest/

## cross: trove for linux, macOS and Windows (no cgo), and the Windows desktop app, into build/bin/cross
# The Linux ones are the packages' (copied, not linked again), so all
# carry the packages' flags: stripped, with the package version.
CROSS_TARGETS := darwin/amd64 darwin/arm64 windows/amd64
# Packages with code per OS, vetted with their tests for macOS and Windows.
# fileread, pipeline, api and daemon have per-OS code too, but their tests
# make FIFOs and FUSE mounts (Linux only); their code is checked by the
# builds above.
CROSS_VET     := ./backend/platform/autostart ./backend/platform/dirlock ./backend/platform/launch ./backend/engine/scheduler ./backend/service ./backend/store .
cross: deps frontend $(foreach a,$(PKG_ARCHES),$(PKG_DIR)/$(a)/trove)
	@mkdir -p build/bin/cross
	@for a in $(PKG_ARCHES); do echo "trove linux/$$a (the package's)"; cp $(PKG_DIR)/$$a/trove build/bin/cross/trove-linux-$$a || exit 1; done
	@for t in $(CROSS_TARGETS); do os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  echo "trove $$os/$$arch"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags "$(PKG_LDFLAGS)" -o build/bin/cross/trove-$$os-$$arch$$ext . || exit 1; \
	done
	@echo "trove-desktop windows/amd64 (Wails needs no cgo on Windows)"
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) build -trimpath -tags desktop,production -ldflags "$(PKG_LDFLAGS) -H windowsgui" -o build/bin/cross/trove-desktop-windows-amd64.exe .
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) vet -tags desktop,production ./app/ .
	@for os in darwin windows; do echo "vet $$os: $(CROSS_VET)"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=amd64 $(GO) vet $(CROSS_VET) || exit 1; done
