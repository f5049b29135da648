package dev.hangar.store.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Lists a directory of files named by a fixed-width decimal number (CommitLog and ConsumeQueue files: 20 digits;
 * index files: 17), in numeric order, and reports anything else found there as a warning. Stateless.
 */
final class NumberedFiles {
    private NumberedFiles() {
    }

    /** The files of {@code dir} whose names are {@code digits} decimal digits, by number. */
    static TreeMap<Long, Path> list(Path dir, int digits, ReportCollector report) throws IOException {
        TreeMap<Long, Path> files = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.sorted().toList()) {
                String name = p.getFileName().toString();
                if (Files.isRegularFile(p) && name.length() == digits && name.chars().allMatch(Character::isDigit)) {
                    files.put(Long.parseLong(name), p);
                } else {
                    report.warning(p, -1, "unexpected entry: not a file named by " + digits
                            + " digits; the store ignores it");
                }
            }
        }
        return files;
    }

    /** Checks that each file starts where the previous one ends; reports gaps and overlaps. */
    static void checkContiguous(Map<Long, Path> files, long fileSize, String what, ReportCollector report) {
        long expected = -1;
        for (Map.Entry<Long, Path> e : files.entrySet()) {
            long start = e.getKey();
            if (start % fileSize != 0) {
                report.error(e.getValue(), -1, "the name " + start + " is not a multiple of the " + what
                        + " file size " + fileSize + " (is the configured size the one the store was written with?)");
            }
            if (expected >= 0 && start != expected) {
                report.error(e.getValue(), -1, "expected the next " + what + " file to start at " + expected
                        + " but it starts at " + start + ": the " + what + " has a " + (start > expected ? "gap" : "overlap"));
            }
            expected = start + fileSize;
        }
    }
}
