#!/usr/bin/env bash
# Installs everything refract needs to build and test, on Debian 12 or newer, as root.
# Idempotent: when everything is present it only checks and returns within a second or two.
#   - Debian packages: compiler, CMake, ninja, header-only libraries, GoogleTest, Vulkan loader, npm,
#     and Chromium with a font for the report's browser test (tests/browser/)
#   - Mesa lavapipe new enough for Dawn (Debian 12: from bookworm-backports, reusing the
#     machine's configured mirror; skipped where the system's Mesa is new enough)
#   - npm packages pinned by package-lock.json, with `npm ci`: Dawn (bun-webgpu-linux-x64), the
#     report's chart library (uplot, embedded into the binary at build time) and playwright-core
#     (drives Debian's Chromium in the browser test; it never downloads a browser of its own)
#   - with --fuzz only: clang and its libFuzzer runtime, for the fuzz targets (`make fuzz`)
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Oldest mesa-vulkan-drivers that Dawn accepts; 22.3.6 (Debian 12's own) is rejected,
# 25.0.7 (bookworm-backports) is known to work (docs/PLATFORM facts).
readonly kMinMesaVersion="24.0"
readonly kPackages=(g++ cmake ninja-build make pkg-config nlohmann-json3-dev libcli11-dev libfmt-dev
                    libmuparser-dev
                    libgtest-dev libgmock-dev libvulkan1 nodejs npm chromium fonts-liberation)

say() { printf 'setup: %s\n' "$*"; }
fail() {
  printf 'setup: error: %s\n' "$*" >&2
  exit 1
}

apt_updated=0
apt_update_once() {
  if [[ $apt_updated == 0 ]]; then
    say "apt-get update"
    apt-get update -qq || fail "apt-get update failed; check the machine's apt sources and network"
    apt_updated=1
  fi
}

need_root() {
  [[ $(id -u) == 0 ]] || fail "installing $1 needs root; run: sudo $0"
}

is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

install_debian_packages() {
  local missing=()
  for package in "${kPackages[@]}"; do
    # npm may come with a NodeSource nodejs; accept any working npm.
    if [[ $package == npm || $package == nodejs ]] && command -v npm >/dev/null && command -v node >/dev/null; then
      continue
    fi
    is_installed "$package" || missing+=("$package")
  done
  [[ ${#missing[@]} == 0 ]] && return 0
  need_root "${missing[*]}"
  apt_update_once
  say "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || fail "apt-get could not install: ${missing[*]}"
}

mesa_version() { dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true; }

mesa_is_new_enough() {
  local version
  version=$(mesa_version)
  [[ -n $version ]] && dpkg --compare-versions "$version" ge "$kMinMesaVersion"
}

# Prints the first mirror URI configured for the plain `bookworm` suite.
bookworm_mirror() {
  local file
  for file in /etc/apt/sources.list.d/*.sources; do
    [[ -f $file ]] || continue
    awk 'BEGIN{RS=""} /Suites:[^\n]*bookworm([ \n]|$)/ && !/security/ {
           if (match($0, /URIs:[ \t]*[^ \t\n]+/)) { split(substr($0, RSTART, RLENGTH), a, /[ \t]+/); print a[2]; exit } }' "$file"
  done
  if [[ -f /etc/apt/sources.list ]]; then
    awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list
  fi
}

install_mesa() {
  mesa_is_new_enough && return 0
  need_root "mesa-vulkan-drivers >= $kMinMesaVersion"
  local codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [[ $codename == bookworm ]]; then
    local list=/etc/apt/sources.list.d/refract-bookworm-backports.list
    if [[ ! -f $list ]]; then
      local mirror
      mirror=$(bookworm_mirror | head -n 1)
      [[ -n $mirror ]] || fail "no apt mirror for 'bookworm' is configured; add bookworm-backports by hand"
      say "adding bookworm-backports from $mirror"
      echo "deb $mirror bookworm-backports main" >"$list"
      apt_updated=0
    fi
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      -t bookworm-backports mesa-vulkan-drivers \
      || fail "could not install mesa-vulkan-drivers from bookworm-backports"
  else
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mesa-vulkan-drivers \
      || fail "could not install mesa-vulkan-drivers"
  fi
  mesa_is_new_enough || fail "mesa-vulkan-drivers $(mesa_version) is older than $kMinMesaVersion; Dawn rejects it"
}

install_npm_packages() {
  local marker="$repo_root/node_modules/bun-webgpu-linux-x64/package.json"
  local stamp="$repo_root/node_modules/.refract-lock"
  if [[ -f $marker && -f $stamp ]] && cmp -s "$repo_root/package-lock.json" "$stamp"; then
    return 0
  fi
  command -v npm >/dev/null || fail "npm is missing; run: apt-get install npm"
  say "npm ci (Dawn, uplot, playwright-core)"
  (cd "$repo_root" && npm ci --no-audit --no-fund --loglevel=error) \
    || fail "npm ci failed; check the npm registry is reachable"
  cp "$repo_root/package-lock.json" "$stamp"
}

install_fuzz_packages() {
  local runtime='/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
  command -v clang++ >/dev/null && compgen -G "$runtime" >/dev/null && return 0
  need_root "clang and libFuzzer"
  apt_update_once
  say "installing clang libclang-rt-dev (libFuzzer)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang libclang-rt-dev \
    || fail "apt-get could not install clang libclang-rt-dev"
}

install_debian_packages
[[ ${1:-} == --fuzz ]] && install_fuzz_packages
install_mesa
install_npm_packages
say "ready (mesa $(mesa_version))"
