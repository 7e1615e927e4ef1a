#!/bin/sh
# Installs what vsym needs beyond Go: Z3's C library and headers
# (Debian/Ubuntu package libz3-dev), used through cgo. Does nothing when
# they are already there.
set -e
if [ -f /usr/include/z3.h ] && dpkg -s libz3-dev >/dev/null 2>&1; then
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
echo "installing libz3-dev with apt-get" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libz3-dev >/dev/null
