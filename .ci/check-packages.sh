#!/usr/bin/env bash
# Checks what a snapshot release built (goreleaser release --snapshot into
# DIST): the linux/amd64 archive, .deb, .rpm and .apk carry the binary, the
# man page and the bash, zsh and fish completions in their places; the
# .deb is installed with dpkg into an empty root and the binary run there
# (chroot, when allowed: nothing but the package's files is in it), the man
# page rendered with man -l and the completion scripts loaded by their
# shells.
#
#   bash .ci/check-packages.sh dist
set -euo pipefail
dist=$(realpath "${1:-dist}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "packages: $*"; exit 1; }

one() { # one GLOB: the single file matching GLOB
  local m=("$dist"/$1)
  [ ${#m[@]} = 1 ] && [ -f "${m[0]}" ] || fail "expected one $1 in $dist, found: ${m[*]}"
  echo "${m[0]}"
}
deb=$(one 'forgebench_*_amd64.deb')
rpm=$(one 'forgebench-*.x86_64.rpm')
apk=$(one 'forgebench_*_x86_64.apk')
archive=$(one 'forgebench_*_linux_amd64.tar.gz')

# has LISTING PATH MODE: the listing (ls -l style: mode first, path last)
# has PATH with MODE.
has() {
  local listing=$1 path=$2 mode=$3
  grep -qE "^${mode} (.* )?\.?${path}( |$)" <<<"$listing" ||
    fail "$path ($mode) missing from the listing:"$'\n'"$listing"
}
common=(
  "/usr/bin/forgebench -rwxr-xr-x"
  "/usr/share/man/man1/forgebench.1.gz -rw-r--r--"
  "/usr/share/bash-completion/completions/forgebench -rw-r--r--"
  "/usr/share/fish/vendor_completions.d/forgebench.fish -rw-r--r--"
)

echo "-- $(basename "$deb")"
listing=$(dpkg-deb --contents "$deb")
echo "$listing"
for e in "${common[@]}" "/usr/share/zsh/vendor-completions/_forgebench -rw-r--r--"; do has "$listing" $e; done

if command -v rpm >/dev/null; then
  echo "-- $(basename "$rpm")"
  listing=$(rpm -qlvp "$rpm" | awk '{print $1, $NF}')
  echo "$listing"
  for e in "${common[@]}" "/usr/share/zsh/site-functions/_forgebench -rw-r--r--"; do has "$listing" $e; done
else
  echo "-- $(basename "$rpm"): rpm is not installed, its contents are not checked"
fi

echo "-- $(basename "$apk")"
# An .apk is gzip members (signature, control, data) of one tar stream.
listing=$(tar -tvzf "$apk" --ignore-zeros 2>/dev/null | awk '{print $1, "/" $NF}')
echo "$listing"
for e in "${common[@]}" "/usr/share/zsh/site-functions/_forgebench -rw-r--r--"; do has "$listing" $e; done

echo "-- $(basename "$archive")"
listing=$(tar -tvzf "$archive" | awk '{print $1, $NF}')
echo "$listing"
for e in "forgebench -rwxr-xr-x" "README.md -rw-r--r--" "man/man1/forgebench.1.gz -rw-r--r--" \
  "completions/forgebench.bash -rw-r--r--" "completions/_forgebench -rw-r--r--" \
  "completions/forgebench.fish -rw-r--r--"; do
  read -r path mode <<<"$e"
  grep -qE "^${mode} ${path}$" <<<"$listing" || fail "$path ($mode) missing from the archive"
done

echo "-- dpkg -i into an empty root"
root="$work/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
dpkg --root="$root" --force-not-root --log=/dev/null -i "$deb"
dpkg --root="$root" -s forgebench | grep -E '^(Package|Status|Version):'
[ "$(dpkg --root="$root" -L forgebench | grep -c '^/usr/')" -gt 0 ] || fail "dpkg -L lists nothing"
if out=$(chroot "$root" /usr/bin/forgebench version 2>&1); then
  echo "chroot: $out"
else
  echo "chroot is not allowed here ($out); the installed binary is run from outside"
  out=$("$root/usr/bin/forgebench" version)
  echo "$out"
fi
grep -q '^forgebench ' <<<"$out" || fail "forgebench version printed: $out"

echo "-- man -l on the installed page"
page=$(MANWIDTH=80 MANPAGER=cat man --warnings -l "$root/usr/share/man/man1/forgebench.1.gz" 2>"$work/man.err")
if [ -s "$work/man.err" ]; then cat "$work/man.err"; fail "man -l warns"; fi
grep -q '^NAME' <<<"$page" && grep -qE 'forgebench +- ' <<<"$page" && grep -q 'completion' <<<"$page" ||
  fail "the page has no NAME, no synopsis line or no completion command:"$'\n'"$(head -20 <<<"$page")"
head -8 <<<"$page"

echo "-- the installed completion scripts load"
# bash: the function the package installs, called as readline calls it,
# completes a command with the installed binary.
reply=$(PATH="$root/usr/bin:$PATH" bash --norc --noprofile -c "
  source '$root/usr/share/bash-completion/completions/forgebench' && complete -p forgebench &&
  COMP_LINE='forgebench vers' COMP_POINT=15 COMP_WORDS=(forgebench vers) COMP_CWORD=1 &&
  _forgebench && printf 'reply:%s\\n' \"\${COMPREPLY[@]}\"")
echo "$reply"
grep -qx 'reply:version' <<<"$reply" || fail "the installed bash completion does not complete 'forgebench vers'"
if command -v zsh >/dev/null; then zsh -n "$root/usr/share/zsh/vendor-completions/_forgebench" && echo "zsh -n: ok"; fi
if command -v fish >/dev/null; then fish -n "$root/usr/share/fish/vendor_completions.d/forgebench.fish" && echo "fish -n: ok"; fi
echo "packages: ok"
