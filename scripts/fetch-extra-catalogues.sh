#!/usr/bin/env bash
# Downloads Debian packages that carry gettext catalogues and are not installed
# here, and unpacks only their .mo files, one folder per package:
#
#   OUT_DIR/<package>/.../<lang>/LC_MESSAGES/<domain>.mo
#
# make-package-split.sh reads OUT_DIR as extra TRAINING data
# (SPLIT_EXTRA_TRAIN=OUT_DIR): the test and valid packages stay the installed
# ones, so the held-out sets do not change (issue 21: more training text for the
# translation model, on the same honest test).
# Usage: scripts/fetch-extra-catalogues.sh OUT_DIR [PACKAGE...]
#   (default: the list below; the Debian archive must be reachable)
# Needs apt-get, dpkg-deb and tar. Packages that are installed or that apt does
# not know are skipped and named.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/header-usage.sh"
header_usage 1 "$@"
out=$1
shift
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  # Command-line tools first (the test packages are command-line tools), then
  # desktop programs; chosen for the size of their catalogues.
  pkgs=(libc-l10n e2fsprogs-l10n gnupg-l10n libgpg-error-l10n util-linux-locales gcc-12-locales
        aptitude-common grub-common parted sudo wget cflow-l10n gdbm-l10n cpio make bison flex
        texinfo gawk nano mc-data debconf-i18n tasksel-data mutt alsa-utils binutils-common
        psmisc sharutils libosinfo-l10n libgphoto2-l10n
        network-manager network-manager-gnome polkitd udisks2 packagekit synaptic gparted
        libgtk-3-common libglib2.0-data gnome-control-center-data nautilus-data
        evolution-data-server-common evolution-common gedit-common file-roller eog evince-common
        gnome-shell-common mutter-common gimp-data inkscape gnucash-common cinnamon-l10n
        xfce4-panel thunar-data xfce4-settings xfce4-terminal transmission-common pidgin-data
        hexchat-common geany-common audacity-data rhythmbox-data totem-common
        gnome-disk-utility remmina-common shotwell-common gucharmap-common lightdm)
fi
mkdir -p "$out/.debs"
out=$(cd "$out" && pwd)
for p in "${pkgs[@]}"; do
  if [ -d "$out/$p" ]; then continue; fi
  if dpkg -s "$p" >/dev/null 2>&1; then echo "fetch-extra-catalogues: $p is installed, skipped" >&2; continue; fi
  if ! (cd "$out/.debs" && apt-get download -q "$p" >/dev/null 2>&1); then
    echo "fetch-extra-catalogues: $p could not be downloaded, skipped" >&2
    continue
  fi
  deb=$(ls "$out/.debs/${p}_"*.deb | head -n 1)
  mkdir -p "$out/$p.tmp"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$out/$p.tmp" --wildcards '*/LC_MESSAGES/*.mo' 2>/dev/null || true
  mv "$out/$p.tmp" "$out/$p"
  echo "fetch-extra-catalogues: $p: $(find "$out/$p" -name '*.mo' | wc -l) catalogues" >&2
done
