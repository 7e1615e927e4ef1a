#!/bin/sh
# Installs what vsym and its tests need beyond Go, each only when it is
# missing:
#   - Z3's C library and headers (Debian/Ubuntu package libz3-dev): the
#     headers to build presburger/z3 (cgo), the library, which vsym opens
#     at its first query, to run it;
#   - Graphviz (package graphviz): "vsym dot -o file.svg" renders with its
#     dot program, and the tests run dot on every picture vsym draws;
#   - Spin (package spin): the promela tests run spin -a, gcc and pan on
#     the models vsym writes and compare the verdicts;
#   - bash-completion (package bash-completion): the completion tests
#     run "vsym completion bash" in a real bash, as users load it;
#   - the official SARIF 2.1.0 JSON schema, against which the tests
#     validate "--output sarif". The Go module github.com/securego/gosec/v2
#     ships it (report/sarif/testdata/sarif-schema-2.1.0.json); "go mod
#     download" puts that one version into the module cache, checked
#     against the Go checksum database, without making it a dependency of
#     vsym. sarif/cli_test.go names the same version.
set -e
missing=""
if ! { [ -f /usr/include/z3.h ] && dpkg -s libz3-dev >/dev/null 2>&1; }; then
	missing="$missing libz3-dev"
fi
if ! command -v dot >/dev/null 2>&1; then
	missing="$missing graphviz"
fi
if ! command -v spin >/dev/null 2>&1; then
	missing="$missing spin"
fi
if [ ! -f /usr/share/bash-completion/bash_completion ]; then
	missing="$missing bash-completion"
fi
if [ -n "$missing" ]; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		sudo="sudo"
	fi
	echo "installing$missing with apt-get" >&2
	$sudo apt-get update -qq
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
cd "$(dirname "$0")/.."
go mod download github.com/securego/gosec/v2@v2.30.0
