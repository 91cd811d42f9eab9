#!/usr/bin/env bash
# The base of the operator image, built without a registry or a Docker engine (Maven profile `image`,
# trainer-deploy/pom.xml): two layers written as a `docker save` archive, Jib's tar:// base.
#
#   os    Debian packages, downloaded with apt-get and unpacked with dpkg-deb (no maintainer scripts run):
#         the C and C++ runtimes and zlib that the JVM links, base-files (the directory tree, os-release);
#         /var/lib/dpkg/status.d/<package> lists them as in distroless images, so that image scanners find them;
#         /etc/passwd and /etc/group with the operator's user nonroot (65532), as the Dockerfile creates it;
#         /app and the plugin directory /opt/trainer/plugins, owned by root.
#   java  /opt/java/openjdk: a runtime linked with jlink from the build's JDK (Debian's openjdk-17 here), with every
#         Java SE module (third-party plugins may use any of them) and the JDK modules a server needs, and its
#         default CDS archive (the base of the image's AppCDS archive).
#
# Usage: build-base.sh OUT_DIR JDK_HOME
# Writes OUT_DIR/base.tar; OUT_DIR/rootfs is the unpacked tree. Layer contents are sorted, owned by root, dated
# 1970-01-01T00:00:01Z: the same packages give the same os layer. The java layer differs from build to build: the CDS
# archive jlink generates is not byte-for-byte reproducible.
set -euo pipefail
out=$1 jdk=$2
root=$out/rootfs
debs=$out/debs
layers=$out/layers

# libc6 needs libgcc-s1; libstdc++6 (libjvm.so) needs both; zlib1g is libzip.so's; libc-bin has the C.UTF-8 locale
# (LANG below: without it the JVM's default encoding is ASCII). gcc-12-base, libstdc++6's other dependency, holds
# only documentation.
packages=(base-files libc6 libc-bin libgcc-s1 libstdc++6 zlib1g)
# The modules of the runtime: Java SE, the JDK's providers (EC and PKCS#11 crypto, DNS, extra charsets, Kerberos,
# zip file system), the HTTP server of the webhook and health endpoints, JFR and JMX for diagnosis, jdk.unsupported
# (sun.misc.Unsafe, used by Netty-style libraries).
modules=java.se,jdk.charsets,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.httpserver,jdk.jfr,jdk.management,jdk.management.jfr,jdk.naming.dns,jdk.net,jdk.security.auth,jdk.security.jgss,jdk.unsupported,jdk.zipfs
# java.desktop's native libraries for X11, fonts, sound and images link libraries this image does not have (as
# Debian's headless JRE leaves X11 out); its classes stay (java.beans and javax.imageio are used headless).
excluded_files='**/libawt_xawt.so,**/libjawt.so,**/libsplashscreen.so,**/libjsound.so,**/libfontmanager.so,**/liblcms.so,**/libjavajpeg.so'

rm -rf "$root" "$layers"
mkdir -p "$root" "$debs" "$layers"

# ---- os -------------------------------------------------------------------------------------------------------
(cd "$debs" && rm -f ./*.deb && apt-get download -q -o APT::Sandbox::User=root "${packages[@]}" >/dev/null) || {
  echo "build-base.sh: 'apt-get download ${packages[*]}' failed: the image's base comes from Debian's archive (run 'apt-get update' as root, check the network)" >&2
  exit 1
}
mkdir -p "$root/var/lib/dpkg/status.d"
for deb in "$debs"/*.deb; do
  name=$(dpkg-deb -f "$deb" Package)
  dpkg-deb -x "$deb" "$root"
  dpkg-deb -f "$deb" > "$root/var/lib/dpkg/status.d/$name"
done
# documentation and manuals, but the licences
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/lintian"
[ -e "$root/etc/os-release" ] || ln -s ../usr/lib/os-release "$root/etc/os-release"

cat > "$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/usr/sbin/nologin
nonroot:x:65532:65532:nonroot:/nonexistent:/usr/sbin/nologin
PASSWD
cat > "$root/etc/group" <<'GROUP'
root:x:0:
nonroot:x:65532:
GROUP
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$root/etc/nsswitch.conf"
mkdir -p "$root/app" "$root/opt/trainer/plugins" "$root/tmp"
chmod 0755 "$root/app" "$root/opt" "$root/opt/trainer" "$root/opt/trainer/plugins"
chmod 1777 "$root/tmp"

# ---- java -----------------------------------------------------------------------------------------------------
"$jdk/bin/jlink" --add-modules "$modules" --output "$root/opt/java/openjdk" --strip-debug --no-man-pages \
  --no-header-files --generate-cds-archive --exclude-files="$excluded_files" >/dev/null

# Every shared library of the runtime must find the libraries it links in this root, not the build machine's:
# checked with the root's own dynamic loader, in the root (bwrap), when bwrap is there. libjvm.so is on the path as
# the java launcher has loaded it before any other library of the runtime.
if command -v bwrap >/dev/null 2>&1; then
  while IFS= read -r lib; do
    inside=${lib#"$root"}
    if ! listing=$(bwrap --ro-bind "$root" / --proc /proc --dev /dev --clearenv \
        --setenv LD_LIBRARY_PATH /opt/java/openjdk/lib/server \
        /lib64/ld-linux-x86-64.so.2 --list "$inside" 2>&1) || grep -q 'not found' <<<"$listing"; then
      echo "build-base.sh: $inside does not load in the image's root:" >&2
      echo "$listing" >&2
      exit 1
    fi
  done < <(find "$root/opt/java/openjdk" -name '*.so' -type f | sort)
fi

# ---- the archive ------------------------------------------------------------------------------------------------
# LAYER_TAR FIND_ARGS...: a layer of the root's entries that `find . FIND_ARGS` prints
layer() {
  local tar=$1; shift
  (cd "$root" && find . -mindepth 1 "$@" | sed 's,^\./,,' | LC_ALL=C sort \
    | tar --create --file "$tar" --no-recursion --files-from - \
    --numeric-owner --owner=0 --group=0 --mtime=@1 --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime)
}
layer "$layers/os.tar" -path ./opt/java -prune -o -print
layer "$layers/java.tar" -path './opt/java*' -print

os_id=$(sha256sum "$layers/os.tar" | cut -d' ' -f1)
java_id=$(sha256sum "$layers/java.tar" | cut -d' ' -f1)
java_version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
cat > "$layers/config.json" <<CONFIG
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:01Z",
 "config":{"Env":["PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","JAVA_HOME=/opt/java/openjdk","JAVA_VERSION=$java_version","LANG=C.UTF-8"]},
 "rootfs":{"type":"layers","diff_ids":["sha256:$os_id","sha256:$java_id"]},
 "history":[{"created":"1970-01-01T00:00:01Z","created_by":"build-base.sh: Debian ${packages[*]}"},
            {"created":"1970-01-01T00:00:01Z","created_by":"build-base.sh: jlink $java_version"}]}
CONFIG
echo '[{"Config":"config.json","RepoTags":["trainer-operator-base:local"],"Layers":["os.tar","java.tar"]}]' \
  > "$layers/manifest.json"
tar --create --file "$out/base.tar" -C "$layers" --mtime=@1 --owner=0 --group=0 --numeric-owner \
  manifest.json config.json os.tar java.tar
echo "build-base.sh: $out/base.tar (Debian: $(cd "$debs" && ls | tr '\n' ' '); Java $java_version)"
