#!/bin/sh
# Installs what vsym needs beyond Go: Z3's C library and headers
# (Debian/Ubuntu package libz3-dev), used through cgo. Does nothing when
# they are already there.
set -e

# Spin (Debian package spin), when missing: the promela tests run spin -a,
# gcc and pan on the models vsym writes.
if ! command -v spin >/dev/null 2>&1; then
	s=""
	if [ "$(id -u)" != 0 ]; then s="sudo"; fi
	echo "installing spin with apt-get" >&2
	$s apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq spin >/dev/null
fi

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
