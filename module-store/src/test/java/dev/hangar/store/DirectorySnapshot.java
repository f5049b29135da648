package dev.hangar.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every file and directory under a root with its size and modification time, so a test can prove "nothing was
 * touched": a created, deleted, grown, shrunk or rewritten file (or a directory whose entries changed) differs;
 * {@link #withContents} also hashes every file, so a byte changed in place differs even where the time would not.
 */
public record DirectorySnapshot(Map<String, String> entries) {

    public static DirectorySnapshot of(Path root) {
        return of(root, false);
    }

    /** {@link #of} with each regular file's SHA-256 as well. */
    public static DirectorySnapshot withContents(Path root) {
        return of(root, true);
    }

    private static DirectorySnapshot of(Path root, boolean hashContents) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                String content = hashContents && a.isRegularFile() ? " " + sha256(p) : "";
                out.put(root.relativize(p).toString(), (a.isDirectory() ? "dir" : a.size() + " bytes") + " modified "
                        + a.lastModifiedTime().toInstant() + content);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new DirectorySnapshot(out);
    }

    private static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
