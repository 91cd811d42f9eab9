package io.kftrainer.e2e.monitoring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Chromium ({@code apt-get install chromium}, which {@code .ci/run} installs) run once as a command on a
 * page of files: it loads the page, runs its scripts, writes a screenshot and prints the DOM as the scripts left it,
 * and exits. No driver and no Selenium: the page draws synchronously and reports what it drew in its DOM. Its
 * profile is a directory of the test's own; its log is {@code chromium.log} next to the screenshot.
 */
final class HeadlessChromium {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final long DEADLINE_SECONDS = 120;

  private HeadlessChromium() {
  }

  /** Skips the calling test where Chromium is not installed. */
  static void assumeInstalled() {
    Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + ": apt-get install chromium");
  }

  /**
   * Screenshots {@code page} in a window of {@code width} × {@code height} pixels into {@code png}.
   *
   * @param work a directory for the browser's profile and output
   * @return the page's DOM once its scripts ran
   */
  static String screenshot(Path page, Path png, int width, int height, Path work)
      throws IOException, InterruptedException {
    Files.createDirectories(work);
    Files.createDirectories(png.getParent());
    Files.deleteIfExists(png);
    Path dom = work.resolve("dom.html");
    ProcessBuilder chromium = new ProcessBuilder(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-extensions", "--no-first-run", "--hide-scrollbars", "--lang=en-US",
        "--force-device-scale-factor=1", "--user-data-dir=" + work.resolve("profile"),
        "--window-size=" + width + "," + height, "--screenshot=" + png, "--dump-dom", page.toUri().toString()))
        .redirectOutput(dom.toFile()).redirectError(work.resolve("chromium.log").toFile());
    chromium.environment().put("TZ", "UTC");
    Process process = chromium.start();
    if (!process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("Chromium did not finish " + page + " in " + DEADLINE_SECONDS + " s; its log: "
          + work.resolve("chromium.log"));
    }
    if (process.exitValue() != 0 || !Files.exists(png)) {
      throw new IllegalStateException("Chromium exited with " + process.exitValue() + " without " + png
          + "; its log: " + work.resolve("chromium.log"));
    }
    return Files.readString(dom);
  }
}
