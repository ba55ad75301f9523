#!/usr/bin/env bash
# Installs the Debian packages qnsim needs (tools/debian-packages.txt): as root directly, otherwise
# through sudo. Used by the README's set-up command and by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-dependencies: run as root or install sudo" >&2; exit 1; }
  SUDO=sudo
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $(cat tools/debian-packages.txt) >/dev/null
echo "install-dependencies: $(wc -l < tools/debian-packages.txt) packages present"
