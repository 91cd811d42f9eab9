package io.kftrainer.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * The files directly inside a directory of the class path, over every jar and directory that has one: how local
 * mode finds the CRDs that trainer-api and the plugin jars ship ({@code META-INF/fabric8},
 * {@code META-INF/trainer/crds}) without a list of them.
 */
final class ClassPathDirectory {

  /** One file: its class-path name (for messages) and where to read it. */
  record File(String name, URL url) {

    String read() {
      try (InputStream in = url.openStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + name + " from the class path", e);
      }
    }
  }

  private final ClassLoader classLoader;
  private final String directory;
  private final Map<URL, List<String>> jarEntries;

  /**
   * With {@code jarEntries}, the entry names of each jar already listed, by the jar's URL, which this one reads and
   * adds to: local's jar holds some 30,000 entries, and start-up lists three directories of it.
   */
  ClassPathDirectory(ClassLoader classLoader, String directory, Map<URL, List<String>> jarEntries) {
    this.jarEntries = jarEntries;
    this.classLoader = classLoader;
    this.directory = directory.endsWith("/") ? directory.substring(0, directory.length() - 1) : directory;
  }

  /** The files whose simple name {@code fileName} accepts, sorted by name (then by class-path order). */
  List<File> files(Predicate<String> fileName) {
    List<File> files = new ArrayList<>();
    try {
      for (URL root : Collections.list(classLoader.getResources(directory))) {
        if ("jar".equals(root.getProtocol())) {
          addJarEntries(root, fileName, files);
        } else if ("file".equals(root.getProtocol())) {
          addDirectoryFiles(root, fileName, files);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory + " on the class path", e);
    }
    files.sort(Comparator.comparing(File::name));
    return files;
  }

  private void addJarEntries(URL root, Predicate<String> fileName, List<File> files) throws IOException {
    JarURLConnection connection = (JarURLConnection) root.openConnection();
    connection.setUseCaches(false);
    URL jarUrl = connection.getJarFileURL();
    List<String> entries = jarEntries.get(jarUrl);
    if (entries == null) {
      try (var jar = connection.getJarFile()) {
        entries = jar.stream().filter(entry -> !entry.isDirectory()).map(ZipEntry::getName).toList();
      }
      jarEntries.put(jarUrl, entries);
    }
    for (String name : entries) {
      String simpleName = name.substring(name.lastIndexOf('/') + 1);
      if (name.startsWith(directory + "/") && name.indexOf('/', directory.length() + 1) < 0
          && fileName.test(simpleName)) {
        files.add(new File(name, new URL("jar:" + jarUrl + "!/" + name)));
      }
    }
  }

  private void addDirectoryFiles(URL root, Predicate<String> fileName, List<File> files) throws IOException {
    Path path;
    try {
      path = Path.of(root.toURI());
    } catch (URISyntaxException e) {
      throw new IOException("not a file URL: " + root, e);
    }
    try (Stream<Path> stream = Files.list(path)) {
      for (Path file : stream.filter(Files::isRegularFile).toList()) {
        String simpleName = file.getFileName().toString();
        if (fileName.test(simpleName)) {
          files.add(new File(directory + "/" + simpleName, file.toUri().toURL()));
        }
      }
    }
  }
}
