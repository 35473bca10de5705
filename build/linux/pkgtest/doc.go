// Package pkgtest tests the Debian packages of `make package` (build tag
// packagetest; run by `make package-test`): their contents, lintian, a
// dependency check against Debian 12, an installation into a clean root
// with dpkg --root, and from that installation the headless server started
// as its systemd user unit would start it.
package pkgtest
