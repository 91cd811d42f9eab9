package io.kftrainer.uitests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, through Debian's chromedriver ({@code apt-get install chromium chromium-driver}):
 * both named by path, so Selenium never looks for (or downloads) a browser or a driver of its own. Without them the
 * test is skipped, never passed.
 */
final class Browser implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  final ChromeDriver driver;

  private Browser(ChromeDriver driver) {
    this.driver = driver;
  }

  /** A new headless browser, or the test skipped when Chromium or its driver is not installed. */
  static Browser open() {
    Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver)");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--window-size=1280,900", "--no-first-run", "--disable-extensions", "--lang=en-US");
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    return new Browser(new ChromeDriver(service, options));
  }

  /** Opens the UI's one-time login link: the browser is signed in with the kubeconfig's token. */
  void signIn(String loginLink) {
    driver.get(loginLink);
  }

  <T> T await(Duration timeout, Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, timeout, Duration.ofMillis(100)).until(condition::apply);
  }

  Object script(String javascript, Object... arguments) {
    return driver.executeScript(javascript, arguments);
  }

  /**
   * Saves what the browser shows as {@code <name>.png} in the directory of the system property ui.screenshots
   * (target/screenshots; docs/ui with -Dtrainer.updateScreenshots=true).
   */
  void screenshot(String name) throws IOException {
    String directory = System.getProperty("ui.screenshots");
    if (directory == null) {
      return;
    }
    Path file = driver.getScreenshotAs(OutputType.FILE).toPath();
    Files.createDirectories(Path.of(directory));
    Files.copy(file, Path.of(directory, name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void close() {
    driver.quit();
  }
}
