#!/usr/bin/env bash
# Runs a command and prints its phase's elapsed seconds when it ends, pass or fail:
#   == phase <name>: <seconds> s (exit <status>)
# `make test` wraps its release phases in it, and scripts/sanitize.sh prints the same lines, so a
# CI log has one table of where its time went.
name=$1
shift
start=$SECONDS
status=0
"$@" || status=$?
echo "== phase $name: $((SECONDS - start)) s (exit $status)"
exit $status
