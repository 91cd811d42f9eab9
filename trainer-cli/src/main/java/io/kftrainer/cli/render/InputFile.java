package io.kftrainer.cli.render;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The text of one manifest file, and how messages name it.
 *
 * @param source the path as given (or found in a given directory), or {@value #STDIN}
 */
public record InputFile(String source, String text) {

  /** The {@code -f} argument that means standard input, and how messages name it. */
  public static final String STDIN = "-";

  /**
   * The files of {@code -f} arguments, in order: a file; every {@code *.yaml} and {@code *.yml} file of a
   * directory (not its subdirectories), sorted by name; or {@value #STDIN} for {@code stdin}.
   *
   * @throws InputException if a path does not exist or cannot be read
   */
  public static List<InputFile> read(List<String> paths, InputStream stdin) {
    List<InputFile> files = new ArrayList<>();
    for (String path : paths) {
      if (path.equals(STDIN)) {
        files.add(new InputFile(STDIN, readStdin(stdin)));
      } else if (Files.isDirectory(Path.of(path))) {
        manifestsIn(Path.of(path)).forEach(file -> files.add(readFile(file)));
      } else {
        files.add(readFile(Path.of(path)));
      }
    }
    return files;
  }

  private static List<Path> manifestsIn(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.filter(Files::isRegularFile)
          .filter(file -> file.getFileName().toString().endsWith(".yaml")
              || file.getFileName().toString().endsWith(".yml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new InputException(directory + ": cannot list directory: " + e.getMessage());
    }
  }

  private static InputFile readFile(Path file) {
    try {
      return new InputFile(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file or directory");
    } catch (IOException e) {
      throw new InputException(file + ": cannot read: " + e.getMessage());
    }
  }

  private static String readStdin(InputStream stdin) {
    try {
      return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A {@code -f} path that cannot be read; the message starts with the path. */
  public static final class InputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InputException(String message) {
      super(message);
    }
  }
}
