#!/usr/bin/env bash
# CI: a newcomer's `npm install` prints no EBADENGINE warning and leaves the tracked package-lock.json as it is.
# Runs in a copy of package.json and package-lock.json with no node_modules, so npm weighs every package of the tree
# (an install over a complete node_modules checks nothing). Prints one line per failure; exit 1 on any.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/esign-check-install-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$root/package.json" "$root/package-lock.json" "$work/"

if ! (cd "$work" && npm install --no-audit --no-fund --prefer-offline >"$work/install.log" 2>&1); then
  cat "$work/install.log"
  echo "check-install: FAILED: npm install exited non-zero on Node $(node --version) (log above)"
  exit 1
fi
status=0
if grep -q EBADENGINE "$work/install.log"; then
  grep EBADENGINE "$work/install.log"
  echo "check-install: FAILED: npm install on Node $(node --version) printed EBADENGINE warnings (above): pin or override the package that needs a newer Node"
  status=1
fi
if ! cmp -s "$root/package-lock.json" "$work/package-lock.json"; then
  diff -u "$root/package-lock.json" "$work/package-lock.json" | head -40
  echo "check-install: FAILED: npm install rewrote package-lock.json (diff above): run npm install and commit the lockfile it writes"
  status=1
fi
[ "$status" -eq 0 ] && echo "check-install: ok: npm install on Node $(node --version) printed no EBADENGINE warning and left package-lock.json unchanged"
exit "$status"
