#!/usr/bin/env bash
# Builds a sysroot with the GTK 3 and WebKitGTK 4.1 libraries of another
# Debian architecture, to cross-link trove-desktop with cgo:
#   build/linux/sysroot.sh arm64 DIR
# The libraries are downloaded with apt-get download and unpacked with
# dpkg-deb into DIR: the host's installed packages are left alone (Debian 12
# cannot co-install the -dev packages of two architectures). Headers come
# from the host's own -dev packages: amd64 and arm64 are both LP64 and
# little-endian, so GLib's and GTK's generated headers are the same.
# Needs root once, for dpkg --add-architecture and apt-get update.
set -euo pipefail
arch=$1 dir=$2
libs="libgtk-3-0:$arch libwebkit2gtk-4.1-0:$arch"
stamp="$dir/.complete"
[ -f "$stamp" ] && exit 0

if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  dpkg --add-architecture "$arch"
  apt-get -o DPkg::Lock::Timeout=600 update -qq
fi
# The closure of the libraries' dependencies for that architecture, as apt
# would install it (architecture-independent packages are not needed to link).
pkgs=$(apt-get install --simulate -qq $libs 2>/dev/null | awk -v want=":$arch" '$1 == "Inst" && substr($2, length($2) - length(want) + 1) == want {print $2}')
[ -n "$pkgs" ] || { echo "sysroot: apt found no $arch packages for $libs" >&2; exit 1; }
debs="$dir.debs"
mkdir -p "$debs" "$dir"
(cd "$debs" && apt-get download -qq $pkgs)
for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$dir"; done
# Linker names (libgtk-3.so) for every library, as the -dev packages would add.
libdir="$dir/usr/lib/$(dpkg-architecture -a "$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)"
for so in "$libdir"/*.so.* "$dir"/lib/*/*.so.*; do
  [ -e "$so" ] || continue
  base=${so##*/}; link="${so%/*}/${base%%.so.*}.so"
  [ -e "$link" ] || ln -s "$base" "$link"
done
rm -rf "$debs"
touch "$stamp"
