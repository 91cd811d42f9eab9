# syntax=docker/dockerfile:1
#
# The trainer operator image: ghcr.io/kftrainer/trainer-operator
#
#   docker build -t ghcr.io/kftrainer/trainer-operator:0.1.0 .
#
# The build makes the same image without Docker (trainer-deploy, Maven profile `image`:
# trainer-operator/target/trainer-operator-image.tar); ImageMatchesDockerfileIT keeps the two alike (user, ports,
# entrypoint, command, working directory, paths, JAVA_TOOL_OPTIONS).
#
# Third-party plugin jars are not baked in: mount them at /opt/trainer/plugins
# (see manifests/base/deployment.yaml).

# ---- build ------------------------------------------------------------------
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The cache mount keeps ~/.m2 between builds (BuildKit).
# trainer-local too: its `apiserver` is the API server of the AppCDS training run below (not in the image)
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -DskipTests -DskipAppCds package -pl trainer-operator,trainer-cli -am
# Pick the runnable jar, whatever the packaging names it: an explicit
# trainer-operator.jar, else a shaded/fat jar, else the main artifact; and
# copy a dependency directory (target/lib, for a Class-Path manifest) if any.
RUN set -eu; \
    cd trainer-operator/target; \
    jar=""; \
    for pattern in 'trainer-operator.jar' '*-shaded.jar' '*-all.jar' '*-jar-with-dependencies.jar' 'trainer-operator-*.jar'; do \
      for f in $pattern; do \
        case "$f" in original-*|*-sources.jar|*-javadoc.jar|*-tests.jar) continue ;; esac; \
        if [ -f "$f" ]; then jar="$f"; break 2; fi; \
      done; \
    done; \
    if [ -z "$jar" ]; then echo "no trainer-operator jar in $(pwd)" >&2; ls -l >&2; exit 1; fi; \
    mkdir -p /out/app /tmp/manifest; \
    cp "$jar" /out/app/trainer-operator.jar; \
    if [ -d lib ]; then cp -r lib /out/app/lib; fi; \
    (cd /tmp/manifest && jar xf /out/app/trainer-operator.jar META-INF/MANIFEST.MF); \
    grep -q '^Main-Class:' /tmp/manifest/META-INF/MANIFEST.MF \
      || { echo "$jar has no Main-Class" >&2; exit 1; }

# ---- runtime ----------------------------------------------------------------
FROM eclipse-temurin:17-jre

LABEL org.opencontainers.image.title="trainer-operator" \
      org.opencontainers.image.description="Kubeflow Trainer v2 operator for the JVM" \
      org.opencontainers.image.licenses="Apache-2.0"

# A fixed non-root identity (65532, as in distroless "nonroot"), matching
# runAsUser in the Deployment.
RUN groupadd --system --gid 65532 nonroot \
 && useradd --system --uid 65532 --gid 65532 --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin nonroot \
 && mkdir -p /app /opt/trainer/plugins

# Owned by root and read-only for the operator.
COPY --from=build /out/app/ /app/

# Class-data sharing (AppCDS): a training run of `run` (against the CLI jar's embedded API server, until ready and
# one TrainJob reconciled; trainer-operator/src/main/docker/appcds-training.sh) archives the classes it loads; every
# start of this image maps them instead of loading and verifying them again. The archive belongs to this exact JRE
# and jar: the JVM ignores it with a warning if either changes. The build stage is mounted, not copied: the CLI jar
# stays out of the image's layers.
RUN --mount=type=bind,from=build,source=/src,target=/src \
    bash /src/trainer-operator/src/main/docker/appcds-training.sh /app/trainer-operator.jar /app/trainer-operator.jsa \
      /src/trainer-cli/target/trainer.jar /src/examples/torch-trainjob.yaml

ENV JAVA_TOOL_OPTIONS="-XX:SharedArchiveFile=/app/trainer-operator.jsa -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
WORKDIR /app
USER 65532:65532

# webhook, metrics (HTTPS, as upstream's manager), health
EXPOSE 9443 8443 8081

ENTRYPOINT ["java", "-jar", "/app/trainer-operator.jar"]
CMD ["run"]
