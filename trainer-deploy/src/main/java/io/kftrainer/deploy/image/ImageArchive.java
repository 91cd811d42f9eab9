package io.kftrainer.deploy.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarFile;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * An image as a {@code docker save} archive, the format Jib's {@code buildTar} writes and {@code docker load},
 * {@code kind load image-archive} and skopeo read: {@code manifest.json}, the image config JSON and one tar per layer
 * (gzipped or not). Tar entries are read with Apache Commons Compress.
 *
 * <p>{@link #unpack} lays the layers on top of each other as a container runtime does before it starts a container:
 * permission bits, symbolic and hard links and modification times are kept (the JVM's class-data archive checks the
 * jar's time), whiteouts ({@code .wh.NAME}, {@code .wh..wh..opq}) remove what lower layers put. Owners are not: the
 * files belong to whoever unpacks (a container sees them as its user namespace maps them); nor are the setuid,
 * setgid and sticky bits, which Java's file API cannot set.
 */
public final class ImageArchive {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WHITEOUT = ".wh.";
  private static final String OPAQUE = ".wh..wh..opq";

  private final Path file;
  private final List<String> repoTags;
  private final List<String> layers;
  private final JsonNode config;

  private ImageArchive(Path file, List<String> repoTags, List<String> layers, JsonNode config) {
    this.file = file;
    this.repoTags = List.copyOf(repoTags);
    this.layers = List.copyOf(layers);
    this.config = config;
  }

  /** Reads the manifest and the config of the archive at {@code file}. */
  public static ImageArchive read(Path file) throws IOException {
    try (TarFile tar = new TarFile(file)) {
      JsonNode manifest = JSON.readTree(bytes(tar, "manifest.json"));
      if (!manifest.isArray() || manifest.size() != 1) {
        throw new IOException(file + ": manifest.json must describe exactly one image");
      }
      JsonNode image = manifest.get(0);
      List<String> tags = new ArrayList<>();
      image.path("RepoTags").forEach(t -> tags.add(t.asText()));
      List<String> layers = new ArrayList<>();
      image.path("Layers").forEach(l -> layers.add(l.asText()));
      JsonNode config = JSON.readTree(bytes(tar, image.path("Config").asText()));
      return new ImageArchive(file, tags, layers, config);
    }
  }

  public Path file() {
    return file;
  }

  public List<String> repoTags() {
    return repoTags;
  }

  public int layerCount() {
    return layers.size();
  }

  /** The archive's size in bytes: what a registry push or a node's pull transfers, give or take compression. */
  public long size() {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How the container starts. */
  public ImageConfig config() {
    return ImageConfig.of(config.path("config"));
  }

  /** The whole image config JSON ({@code architecture}, {@code os}, {@code config}, {@code rootfs}, ...). */
  public JsonNode configJson() {
    return config.deepCopy();
  }

  /** Unpacks the layers, in order, into {@code root} (created; must be empty or absent). */
  public void unpack(Path root) throws IOException {
    Files.createDirectories(root);
    try (Stream<Path> existing = Files.list(root)) {
      if (existing.findAny().isPresent()) {
        throw new IOException(root + " is not empty");
      }
    }
    try (TarFile tar = new TarFile(file)) {
      for (String layer : layers) {
        TarArchiveEntry entry = entry(tar, layer);
        try (InputStream blob = new BufferedInputStream(tar.getInputStream(entry))) {
          unpackLayer(decompressed(blob), root.toRealPath());
        }
      }
    }
  }

  private static InputStream decompressed(InputStream blob) throws IOException {
    blob.mark(2);
    int first = blob.read();
    int second = blob.read();
    blob.reset();
    return first == 0x1f && second == 0x8b ? new GzipCompressorInputStream(blob) : blob;
  }

  private static void unpackLayer(InputStream layer, Path root) throws IOException {
    List<TarArchiveEntry> directories = new ArrayList<>();
    try (TarArchiveInputStream tar = new TarArchiveInputStream(layer)) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        Path target = inside(root, entry.getName());
        String name = target.getFileName() == null ? "" : target.getFileName().toString();
        if (name.equals(OPAQUE)) {
          clear(target.getParent());
          continue;
        }
        if (name.startsWith(WHITEOUT)) {
          delete(target.resolveSibling(name.substring(WHITEOUT.length())));
          continue;
        }
        Files.createDirectories(target.getParent());
        if (entry.isDirectory()) {
          if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            delete(target);
            Files.createDirectory(target);
          }
          directories.add(entry);
          continue;
        }
        delete(target);
        if (entry.isSymbolicLink()) {
          Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
          continue;
        }
        if (entry.isLink()) {
          Files.createLink(target, inside(root, entry.getLinkName()));
          continue;
        }
        if (!entry.isFile()) {
          continue; // device nodes and FIFOs: a container's /dev comes from the runtime
        }
        Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(target, permissions(entry.getMode()));
        Files.setLastModifiedTime(target, FileTime.from(entry.getLastModifiedDate().toInstant()));
      }
    }
    // directories last: writing their content would change their times, and a read-only mode would stop it
    for (TarArchiveEntry entry : directories) {
      Path target = inside(root, entry.getName());
      Files.setPosixFilePermissions(target, permissions(entry.getMode()));
      Files.setLastModifiedTime(target, FileTime.from(entry.getLastModifiedDate().toInstant()));
    }
  }

  /** {@code name} resolved in {@code root}, refusing names that lead out of it. */
  private static Path inside(Path root, String name) throws IOException {
    Path target = root.resolve(name.startsWith("/") ? name.substring(1) : name).normalize();
    if (!target.startsWith(root)) {
      throw new IOException("layer entry " + name + " leads out of the image's root");
    }
    return target;
  }

  private static void delete(Path path) throws IOException {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      clear(path);
    }
    Files.deleteIfExists(path);
  }

  private static void clear(Path directory) throws IOException {
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(directory)).toList()) {
        Files.delete(path);
      }
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE, high bit first
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << (bits.length - 1 - i))) != 0) {
        permissions.add(bits[i]);
      }
    }
    return permissions;
  }

  private static TarArchiveEntry entry(TarFile tar, String name) throws IOException {
    for (TarArchiveEntry entry : tar.getEntries()) {
      if (entry.getName().equals(name) || entry.getName().equals("./" + name)) {
        return entry;
      }
    }
    throw new IOException("no " + name + " in the image archive");
  }

  private static byte[] bytes(TarFile tar, String name) throws IOException {
    try (InputStream in = tar.getInputStream(entry(tar, name))) {
      return in.readAllBytes();
    }
  }

  /** For error messages: where the archive is. */
  @Override
  public String toString() {
    return file.toString();
  }
}
