package dev.hangar.mmap.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** This process's mappings of a file as the kernel reports them in {@code /proc/self/smaps}. */
public final class Smaps {
    private Smaps() {
    }

    /** The lines of every mapping of {@code file}, each starting with its header line; empty when it is not mapped. */
    static List<List<String>> mappingsOf(Path file) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        String name = " " + file.toAbsolutePath();
        List<List<String>> mappings = new ArrayList<>();
        List<String> current = null;
        for (String line : lines) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                current = line.endsWith(name) ? new ArrayList<>() : null;
                if (current != null) {
                    mappings.add(current);
                }
            }
            if (current != null) {
                current.add(line);
            }
        }
        return mappings;
    }

    /** The VmFlags of the first mapping of {@code file} (e.g. {@code rr}, {@code hg}). */
    public static List<String> vmFlags(Path file) throws IOException {
        for (String line : firstMapping(file)) {
            if (line.startsWith("VmFlags:")) {
                return List.of(line.substring("VmFlags:".length()).trim().split("\\s+"));
            }
        }
        throw new AssertionError("no VmFlags for the mapping of " + file);
    }

    /** A {@code kB} field (e.g. {@code FilePmdMapped}) summed over every mapping of {@code file}. */
    public static long kilobytes(Path file, String field) throws IOException {
        long sum = 0;
        for (List<String> mapping : mappingsOf(file)) {
            for (String line : mapping) {
                if (line.startsWith(field + ":")) {
                    sum += Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                }
            }
        }
        return sum;
    }

    private static List<String> firstMapping(Path file) throws IOException {
        List<List<String>> mappings = mappingsOf(file);
        if (mappings.isEmpty()) {
            throw new AssertionError("no mapping of " + file + " in /proc/self/smaps");
        }
        return mappings.get(0);
    }
}
