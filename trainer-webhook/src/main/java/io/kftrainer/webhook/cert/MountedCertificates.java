package io.kftrainer.webhook.cert;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook certificate from a mounted directory ({@code --webhook-cert-dir}), e.g. a Secret that cert-manager
 * issues: {@value StoredCertificates#TLS_CRT} (the certificate, optionally followed by intermediates),
 * {@value StoredCertificates#TLS_KEY}, and optionally {@value StoredCertificates#CA_CRT}. The operator does not
 * publish a {@code caBundle} in this mode: cert-manager's CA injector (or whoever issues the certificate) does.
 *
 * <p>The directory is watched for changes (the kubelet replaces a Secret volume's files by swapping a
 * {@code ..data} symlink, which shows up as an event on the directory) and, as a fallback for file systems without
 * change events, re-read every {@code pollInterval}. A new certificate is served from the next handshake on; one
 * that does not parse or whose key does not match is logged and ignored, and the previous one stays.
 */
public final class MountedCertificates implements WebhookCertificates {

  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMinutes(1);

  /** How long the directory must be quiet after a change before it is read: an update is several events. */
  private static final Duration SETTLE = Duration.ofMillis(200);

  private static final Logger LOG = LoggerFactory.getLogger(MountedCertificates.class);

  private final Path directory;
  private final Duration pollInterval;
  private final SwappableKeyManager keyManager = new SwappableKeyManager();
  private final AtomicLong failedReads = new AtomicLong();
  private WatchService watchService;
  private Thread watcher;

  public MountedCertificates(Path directory, Duration pollInterval) {
    this.directory = Objects.requireNonNull(directory, "directory");
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
  }

  @Override
  public synchronized void start() throws IOException, CertificateException {
    if (watcher != null) {
      throw new IllegalStateException("already started");
    }
    serve(read());
    watchService = directory.getFileSystem().newWatchService();
    directory.register(watchService, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
        StandardWatchEventKinds.ENTRY_DELETE);
    watcher = new Thread(this::watch, "webhook-certificates");
    watcher.setDaemon(true);
    watcher.start();
  }

  @Override
  public synchronized void stop() {
    if (watchService != null) {
      try {
        watchService.close();
      } catch (IOException e) {
        LOG.debug("Closing the watch of {}", directory, e);
      }
    }
    if (watcher != null) {
      watcher.interrupt();
    }
  }

  @Override
  public SwappableKeyManager keyManager() {
    return keyManager;
  }

  @Override
  public String description() {
    return "from directory " + directory;
  }

  @Override
  public long failedReads() {
    return failedReads.get();
  }

  /** Reads the directory again and serves its certificate if it changed and is usable; for the watch and tests. */
  public void reload() {
    try {
      serve(read());
    } catch (IOException | CertificateException e) {
      failedReads.incrementAndGet();
      LOG.warn("Ignoring the webhook certificate in {}: {}; still serving {}", directory, e.getMessage(),
          keyManager.current().map(Object::toString).orElse("nothing"));
    }
  }

  private void watch() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        WatchKey key = watchService.poll(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        while (key != null) {
          key.pollEvents();
          key.reset();
          key = watchService.poll(SETTLE.toMillis(), TimeUnit.MILLISECONDS);
        }
        reload();
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void serve(ServingCertificate certificate) {
    Optional<ServingCertificate> served = keyManager.current();
    if (served.isPresent() && served.get().certificate().equals(certificate.certificate())
        && served.get().caBundle().equals(certificate.caBundle())) {
      return;
    }
    keyManager.swap(certificate);
    LOG.info("Serving webhook certificate {} from {}", certificate, directory);
  }

  private ServingCertificate read() throws IOException, CertificateException {
    List<X509Certificate> chain = Pem.certificates(readFile(StoredCertificates.TLS_CRT));
    PrivateKey key = Pem.privateKey(readFile(StoredCertificates.TLS_KEY));
    Path caFile = directory.resolve(StoredCertificates.CA_CRT);
    List<X509Certificate> bundle = Files.exists(caFile) ? Pem.certificates(readFile(StoredCertificates.CA_CRT))
        : chain.subList(1, chain.size());
    ServingCertificate certificate = new ServingCertificate(chain, key, bundle);
    if (!certificate.keyMatchesCertificate()) {
      throw new CertificateException(StoredCertificates.TLS_KEY + " is not the key of " + StoredCertificates.TLS_CRT);
    }
    return certificate;
  }

  private String readFile(String name) throws IOException {
    try {
      return Files.readString(directory.resolve(name), StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      // what the JVM says is the path alone; this is the usual first day with certManagement.enable: false
      throw new NoSuchFileException(e.getFile(), null, "no serving certificate: " + name + " is not in "
          + directory + " (mount the certificate's Secret there, with tls.crt and tls.key, for example the one "
          + "cert-manager issues; or let the operator make its own: certManagement.enable: true)");
    }
  }
}
