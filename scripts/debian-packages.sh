#!/usr/bin/env bash
# The Debian packages a make target needs, installed when missing (called by the Makefile before anything else):
#   run   - python3-venv (Debian ships venv's pip separately)
#   serve - the same, and nginx (the balancer) and postgresql (the live class shared by the replicas)
#   test  - all of these, and Debian's chromium (browser tests), fonts-noto-cjk (Chinese in the browser), nodejs and npm
#           (the browser half's checks: Biome, tsc and Node's test runner, from package-lock.json; the step component's
#           number formatting, tested against the Python it copies)
# As root it runs apt-get, with password-less sudo it runs sudo apt-get, otherwise it stops with the one command to run.
set -euo pipefail
python="${PYTHON:-python3}"
need=()
"$python" -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
if [ "${1:-run}" = test ] || [ "${1:-run}" = serve ]; then
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
fi
if [ "${1:-run}" = test ]; then
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need+=(chromium)
  fc-list : family 2>/dev/null | grep -i "noto sans cjk" >/dev/null || need+=(fonts-noto-cjk)  # no -q: fc-list would get SIGPIPE
  command -v node >/dev/null 2>&1 || need+=(nodejs)
  command -v npm >/dev/null 2>&1 || need+=(npm)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "make $1 needs these Debian packages. Run this once, then make $1 again:" >&2
  echo "    sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "Installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
