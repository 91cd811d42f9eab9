package io.kftrainer.benchmarks.local;

import io.fabric8.kubernetes.client.Config;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code trainer.jar local} as a user starts it, a process of its own with the JVM options asked for: started,
 * waited for until its banner, measured from outside (threads the JVM started, CPU time), stopped. Its API server is
 * reached as kubectl reaches it, with the kubeconfig {@code local} writes: HTTPS trusting the kubeconfig's CA, and
 * its bearer token.
 */
final class LocalProcess implements AutoCloseable {

  static final String BANNER = "Kubeflow Trainer is running locally";
  private static final Pattern API_SERVER = Pattern.compile("API server\\s+(https?://\\S+)");
  private static final Pattern PERF_COUNTER = Pattern.compile("^(\\S+)=(\\d+)$", Pattern.MULTILINE);

  private final Process process;
  private final Path log;
  private final Path kubeconfig;
  private final long startedNanos;
  private long bannerNanos;
  private long bannerCpuMillis;
  private String url;
  private String token;
  private SSLContext trust;

  private LocalProcess(Process process, Path log, Path kubeconfig, long startedNanos) {
    this.process = process;
    this.log = log;
    this.kubeconfig = kubeconfig;
    this.startedNanos = startedNanos;
  }

  /**
   * Starts {@code java jvmOptions -jar jar local --port 0 args} and returns once its banner is printed. Unless
   * {@code args} choose the state's place, each start gets a data directory of its own: the default store, as users
   * meet it, empty as on a first start; {@code -Dfigures.ephemeral=true} keeps the state in memory instead.
   *
   * @param workDir where its log, kubeconfig and data directory go
   */
  static LocalProcess start(Path jar, List<String> jvmOptions, List<String> args, Path workDir) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(jvmOptions);
    String extra = System.getProperty("figures.jvm", "");
    if (!extra.isBlank()) {
      command.addAll(List.of(extra.trim().split("\\s+")));
    }
    Path kubeconfig = workDir.resolve("kubeconfig");
    command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "local", "--port", "0", "--kubeconfig-out",
        kubeconfig.toString()));
    long id = System.nanoTime();
    if (!args.contains("--ephemeral") && args.stream().noneMatch(arg -> arg.startsWith("--data-dir"))) {
      command.addAll(Boolean.getBoolean("figures.ephemeral") ? List.of("--ephemeral")
          : List.of("--data-dir", workDir.resolve("data-" + id).toString()));
    }
    command.addAll(args);
    Path log = workDir.resolve("local-" + id + ".log");
    try {
      long started = System.nanoTime();
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      LocalProcess local = new LocalProcess(process, log, kubeconfig, started);
      local.awaitBanner();
      return local;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private void awaitBanner() {
    long deadline = startedNanos + TimeUnit.MINUTES.toNanos(3);
    while (true) {
      String text = output();
      if (text.contains(BANNER)) {
        bannerNanos = System.nanoTime();
        bannerCpuMillis = Proc.cpuMillis(process.pid());
        Matcher api = API_SERVER.matcher(text);
        if (api.find()) {
          url = api.group(1);
          readKubeconfig();
          return;
        }
      }
      if (!process.isAlive() || System.nanoTime() > deadline) {
        close();
        throw new IllegalStateException("local did not start; its output:\n" + text);
      }
      sleepMillis(5);
    }
  }

  /** The kubeconfig's bearer token and the TLS context trusting its CA (the kubeconfig is written before the banner). */
  private void readKubeconfig() {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      token = config.getAutoOAuthToken() != null ? config.getAutoOAuthToken() : config.getOauthToken();
      if (config.getCaCertData() != null) {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("local", CertificateFactory.getInstance("X.509").generateCertificate(
            new ByteArrayInputStream(Base64.getDecoder().decode(config.getCaCertData()))));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        trust = SSLContext.getInstance("TLS");
        trust.init(null, trustManagers.getTrustManagers(), null);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the kubeconfig's CA is not a certificate", e);
    }
  }

  /** A new HTTP/1.1 client of the API server, trusting its certificate (one kept-alive connection per thread). */
  HttpClient newHttpClient() {
    HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
    if (trust != null) {
      builder.sslContext(trust);
    }
    return builder.build();
  }

  /** A request of the API server's {@code path}, with the kubeconfig's token. */
  HttpRequest.Builder request(String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path));
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  /** The API server's base URL, without a trailing slash. */
  String url() {
    return url;
  }

  long pid() {
    return process.pid();
  }

  /** Wall time from the process's start to its banner. */
  long millisToBanner() {
    return (bannerNanos - startedNanos) / 1_000_000;
  }

  /** CPU time (user + system) of the process when its banner was seen: what the machine's load changes least. */
  long cpuMillisToBanner() {
    return bannerCpuMillis;
  }

  /** Wall time since the process was started. */
  long nanosSinceStart() {
    return System.nanoTime() - startedNanos;
  }

  String output() {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Called when the measured part of a run begins: starts a flight recording with the settings file
   * {@code -Dfigures.jfr.settings} names, if any (warm-up left out of it).
   */
  void measuring() {
    String settings = System.getProperty("figures.jfr.settings");
    if (settings != null) {
      System.out.println(jcmd("JFR.start", "settings=" + Path.of(settings).toAbsolutePath()).strip());
    }
  }

  /** Threads the JVM has started so far ({@code java.threads.started}, read with {@code jcmd}). */
  long threadsStarted() {
    return perfCounter("java.threads.started").orElseThrow(() -> new IllegalStateException(
        "jcmd printed no java.threads.started for " + pid()));
  }

  /** Threads alive now ({@code java.threads.live}). */
  long threadsLive() {
    return perfCounter("java.threads.live").orElse(-1L);
  }

  private Optional<Long> perfCounter(String name) {
    String out = jcmd("PerfCounter.print");
    Matcher m = PERF_COUNTER.matcher(out);
    while (m.find()) {
      if (m.group(1).equals(name)) {
        return Optional.of(Long.parseLong(m.group(2)));
      }
    }
    return Optional.empty();
  }

  /** The output of {@code jcmd <pid> <command>}. */
  String jcmd(String... command) {
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid())));
    argv.addAll(List.of(command));
    try {
      Process jcmd = new ProcessBuilder(argv).redirectErrorStream(true).start();
      String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      jcmd.waitFor(30, TimeUnit.SECONDS);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** User + system CPU milliseconds of the process so far ({@code /proc/<pid>/stat}). */
  long cpuMillis() {
    return Proc.cpuMillis(pid());
  }

  @Override
  public void close() {
    String recording = System.getProperty("figures.jfr");
    if (recording != null && process.isAlive()) {
      // local's shutdown hook halts the JVM: a recording's dump on exit would be lost
      System.out.println(jcmd("JFR.dump", "filename=" + Path.of(recording, "local-" + pid() + ".jfr").toAbsolutePath())
          .strip());
    }
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
