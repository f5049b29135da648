#!/usr/bin/env bash
# Installs Debian's Chromium and its ChromeDriver for the console's browser tests (ConsoleBrowserTest) when they
# are missing, so that the README's test command (`mvn -B -ntp verify`) works on a fresh machine. Run by Maven
# before this module's tests (exec-maven-plugin, process-test-classes; skipped with -DskipTests). Without root or
# sudo it installs nothing and says so: the browser tests then fail, naming what is missing; they never skip.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: chromium or chromedriver is missing and this is not a Debian system: install them, or" \
         "point -Dhangar.chromium=PATH -Dhangar.chromedriver=PATH at them" >&2
    exit 0
fi
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo_cmd="sudo"
    else
        echo "install-browser: chromium or chromedriver is missing and installing them needs root:" \
             "sudo apt-get install -y chromium chromium-driver" >&2
        exit 0
    fi
fi
echo "install-browser: installing Debian's chromium and chromium-driver for the console's browser tests" >&2
$sudo_cmd apt-get update -qq
$sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
