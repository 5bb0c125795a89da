#!/usr/bin/env bash
# Builds the release wheel into target/wheels and installs it into the venv
# given as $1 (default target/python-venv). Used by .ci/run and by hand.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="${1:-$root/target/python-venv}"
rm -f "$root"/target/wheels/wurl_canon-*.whl
(cd "$here" && "$venv/bin/maturin" build --release -o "$root/target/wheels" -i "$venv/bin/python")
"$venv/bin/pip" install -q --force-reinstall --no-deps "$root"/target/wheels/wurl_canon-*.whl
