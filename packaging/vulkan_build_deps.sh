#!/usr/bin/env bash
# What building the Vulkan backend needs on Debian/Ubuntu, installed when missing (through sudo
# when not root): glslc and glslang-tools compile its shaders, spirv-headers, and libvulkan-dev
# for the loader it links (the headers themselves are pinned: native/pins.json). Called by
# packaging/build.sh and packaging/wheel.sh when PARLEY_VULKAN is on; exit status 1 with the
# reason when something is still missing. A glslc already on PATH counts for the glslc package
# (packaging/build_debian11.sh runs Debian 12's in a Debian 11 root, which has no such package).
set -euo pipefail
PACKAGES=(glslc glslang-tools spirv-headers libvulkan-dev)
say() { printf '\033[1m[vulkan]\033[0m %s\n' "$*" >&2; }
if command -v dpkg-query >/dev/null; then
  missing=()
  for pkg in "${PACKAGES[@]}"; do
    if [ "$pkg" = glslc ] && command -v glslc >/dev/null; then continue; fi
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing what the Vulkan backend's build needs: ${missing[*]}"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi
for tool in glslc glslangValidator; do
  command -v "$tool" >/dev/null || {
    say "$tool is missing: the Vulkan backend's shaders need it (Debian: apt-get install ${PACKAGES[*]}); PARLEY_VULKAN=0 builds without Vulkan"
    exit 1
  }
done
