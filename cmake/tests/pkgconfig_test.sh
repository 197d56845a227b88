#!/usr/bin/env bash
# ctest nexar.consumer.pkgconfig: compiles a program against the installed nexar with
# `pkg-config --cflags --libs nexar` alone (its rpath finds the library) and runs it (under the installed nexarrun at 2 ranks when
# the installation has it, else as a singleton).
# Usage: pkgconfig_test.sh PKG_CONFIG CC PREFIX PCDIR SOURCE WORKDIR VERSION
set -euo pipefail
pkg_config="$1" cc="$2" prefix="$3" pcdir="$4" source="$5" workdir="$6" version="$7"

rm -rf "$workdir"
mkdir -p "$workdir"
export PKG_CONFIG_PATH="$pcdir"
got_version="$("$pkg_config" --modversion nexar)"
if [ "$got_version" != "$version" ]; then
  echo "pkg-config --modversion nexar: $got_version, expected $version" >&2
  exit 1
fi
libdir="$("$pkg_config" --variable=libdir nexar)"
set -x
# Only what pkg-config gives: its rpath must let the program start without LD_LIBRARY_PATH.
# shellcheck disable=SC2046
"$cc" -Wall -Wextra -Werror -o "$workdir/app" "$source" \
  $("$pkg_config" --cflags --libs nexar)
set +x
unset LD_LIBRARY_PATH
test -n "$libdir"
# The program must load the installed library (paths compared after resolving links and ..).
loaded="$(ldd "$workdir/app" | awk '$1 == "libnexar.so.0" { print $3 }')"
case "$(readlink -f "${loaded:-/nonexistent}")" in
  "$(readlink -f "$prefix")"/*) ;;
  *)
    echo "app does not load libnexar.so.0 from $prefix:" >&2
    ldd "$workdir/app" >&2
    exit 1
    ;;
esac
nexarrun="$("$pkg_config" --variable=nexarrun nexar)"
if [ -x "$nexarrun" ]; then
  "$nexarrun" -n 2 --timeout 60 -- "$workdir/app"
else
  echo "(no nexarrun installed: running as a singleton)"
  "$workdir/app"
fi
