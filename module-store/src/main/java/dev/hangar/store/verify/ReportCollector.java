package dev.hangar.store.verify;

import dev.hangar.store.verify.VerifyReport.Problem;
import dev.hangar.store.verify.VerifyReport.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers problems and counts while the verifiers run, and caps the problems kept per file so a wholly corrupt
 * file yields a readable report (the rest are summarised in one line). Not thread-safe: one verification.
 */
final class ReportCollector {
    /** Problems kept per file; further ones are counted and summarised. */
    static final int MAX_PROBLEMS_PER_FILE = 20;

    private final Path root;
    private final List<Problem> problems = new ArrayList<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final Map<String, Integer> perFile = new HashMap<>();
    private final Map<String, Severity> suppressedWorst = new LinkedHashMap<>();
    private final Map<String, Integer> suppressed = new HashMap<>();

    ReportCollector(Path root) {
        this.root = root;
        for (String name : List.of(VerifyReport.FILES, VerifyReport.RECORDS, VerifyReport.UNITS, VerifyReport.BYTES)) {
            counts.put(name, 0L);
        }
    }

    /** The name a report uses for {@code file}: relative to the store root, '/' separated. */
    String name(Path file) {
        Path rel = file.startsWith(root) ? root.relativize(file) : file;
        return rel.toString().replace(java.io.File.separatorChar, '/');
    }

    void add(Severity severity, Path file, long offset, String message) {
        String name = name(file);
        int n = perFile.merge(name, 1, Integer::sum);
        if (n > MAX_PROBLEMS_PER_FILE) {
            suppressed.merge(name, 1, Integer::sum);
            suppressedWorst.merge(name, severity, (a, b) -> a.compareTo(b) >= 0 ? a : b);
            return;
        }
        problems.add(new Problem(severity, name, offset, message));
    }

    void error(Path file, long offset, String message) {
        add(Severity.ERROR, file, offset, message);
    }

    void warning(Path file, long offset, String message) {
        add(Severity.WARNING, file, offset, message);
    }

    void info(Path file, long offset, String message) {
        add(Severity.INFO, file, offset, message);
    }

    void count(String name, long delta) {
        counts.merge(name, delta, Long::sum);
    }

    VerifyReport build(long commitLogMinOffset, long commitLogMaxOffset) {
        List<Problem> all = new ArrayList<>(problems);
        suppressedWorst.forEach((name, worst) -> all.add(new Problem(worst, name, -1,
                suppressed.get(name) + " more problems in this file are not listed")));
        return new VerifyReport(root.toString(), all, counts, commitLogMinOffset, commitLogMaxOffset);
    }
}
