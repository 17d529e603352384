#!/usr/bin/env bash
# Installs Azurite, the Azure Storage emulator the blob store's tests run
# against, with the Node 20 it runs on, into .tools/azurite, and writes the
# launcher the tests look for, .tools/bin/azurite-blob. Versions are pinned
# in scripts/azurite/package-lock.json. Node comes from npm's node-linux-*
# packages, not from Debian, whose Node is 18 while some of Azurite's
# dependencies ask for 20; Debian's npm only installs it. A warm machine
# passes through in well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

src=scripts/azurite
dest=.tools/azurite
launcher=.tools/bin/azurite-blob
stamp=$dest/installed.lock

if [ -x "$launcher" ] && cmp -s "$src/package-lock.json" "$stamp"; then
  exit 0
fi
command -v npm >/dev/null || ./scripts/deps.sh nodejs npm

echo "deps: installing Azurite into $dest"
rm -rf "$dest"
mkdir -p "$dest" .tools/bin
cp "$src/package.json" "$src/package-lock.json" "$dest/"
# --ignore-scripts: nothing here needs an install script, so none runs.
npm ci --prefix "$dest" --no-audit --no-fund --ignore-scripts --loglevel=error

cat > "$launcher" <<'SH'
#!/bin/sh
# Starts Azurite's blob service on the Node installed beside it.
modules="$(dirname "$0")/../azurite/node_modules"
for node in "$modules"/node-linux-*/bin/node; do
  [ -x "$node" ] && exec "$node" "$modules/azurite/dist/src/blob/main.js" "$@"
done
echo "azurite-blob: no Node for $(uname -m) under $modules; run make deps" >&2
exit 1
SH
chmod +x "$launcher"
cp "$src/package-lock.json" "$stamp"
