#!/usr/bin/env bash
# Installs the Debian 12 packages WaferScope builds, tests and runs with.
# Idempotent: does nothing when everything is already installed; safe to re-run.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libboost-graph-dev
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqcustomplot-dev
  xvfb xauth x11-apps imagemagick fonts-dejavu-core clang-format
  clang-14 libfuzzer-14-dev
  libopenmpi-dev openmpi-bin pybind11-dev python3-dev python3-pytest
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
