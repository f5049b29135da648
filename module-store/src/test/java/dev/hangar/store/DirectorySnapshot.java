package dev.hangar.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every file and directory under a root with its size and modification time, so a test can prove "nothing was
 * touched": a created, deleted, grown, shrunk or rewritten file (or a directory whose entries changed) differs.
 */
public record DirectorySnapshot(Map<String, String> entries) {

    public static DirectorySnapshot of(Path root) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                out.put(root.relativize(p).toString(), (a.isDirectory() ? "dir" : a.size() + " bytes") + " modified "
                        + a.lastModifiedTime().toInstant());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new DirectorySnapshot(out);
    }
}
