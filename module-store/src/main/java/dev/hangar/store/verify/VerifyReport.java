package dev.hangar.store.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link StoreVerifier} found in a store directory: every problem (severity, file, byte position in that
 * file, message) and the counts of what was read. A store is {@link #healthy()} when no problem is an
 * {@link Severity#ERROR}; warnings and infos are worth reading but do not lose data.
 *
 * <p>Immutable and thread-safe.
 */
public final class VerifyReport {

    /** How bad a problem is. */
    public enum Severity {
        /** Worth knowing, nothing is wrong (an unclean shutdown, expired ConsumeQueue units). */
        INFO,
        /** Odd but harmless to the data (a stray file, a torn tail after a crash that recovery trims). */
        WARNING,
        /** Data is damaged or would be lost or refused by recovery. */
        ERROR
    }

    /**
     * One finding.
     *
     * @param severity how bad
     * @param file     the file, relative to the store root with '/' separators ("" for the root itself)
     * @param offset   byte position within {@code file}, -1 when the problem concerns the whole file
     * @param message  what is wrong, in words an operator can act on
     */
    public record Problem(Severity severity, String file, long offset, String message) {
        @Override
        public String toString() {
            return severity + " " + (file.isEmpty() ? "." : file) + (offset >= 0 ? "@" + offset : "") + ": " + message;
        }

        /** JSON-ready form. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("severity", severity.name());
            m.put("file", file);
            m.put("offset", offset);
            m.put("message", message);
            return m;
        }
    }

    /** The names of the {@link #counts()} entries. */
    public static final String FILES = "files";
    public static final String RECORDS = "records";
    public static final String UNITS = "units";
    public static final String BYTES = "bytes";

    private final String root;
    private final List<Problem> problems;
    private final Map<String, Long> counts;
    private final long commitLogMinOffset;
    private final long commitLogMaxOffset;

    VerifyReport(String root, List<Problem> problems, Map<String, Long> counts, long commitLogMinOffset,
                 long commitLogMaxOffset) {
        this.root = root;
        this.problems = List.copyOf(problems);
        this.counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        this.commitLogMinOffset = commitLogMinOffset;
        this.commitLogMaxOffset = commitLogMaxOffset;
    }

    /** True when no problem is an ERROR. */
    public boolean healthy() {
        return problems.stream().noneMatch(p -> p.severity() == Severity.ERROR);
    }

    public String root() {
        return root;
    }

    /** Every problem, in the order found. */
    public List<Problem> problems() {
        return problems;
    }

    /** Problems of at least {@code severity}. */
    public List<Problem> problems(Severity severity) {
        List<Problem> out = new ArrayList<>();
        for (Problem p : problems) {
            if (p.severity().compareTo(severity) >= 0) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * What was read: {@code files} (every file examined), {@code records} (CommitLog messages), {@code units}
     * (ConsumeQueue units pointing at messages), {@code bytes} (bytes of valid CommitLog records), and details
     * such as {@code commitLogFiles}, {@code consumeQueueFiles}, {@code consumeQueues}, {@code blankUnits},
     * {@code expiredUnits}, {@code indexFiles}, {@code indexEntries}.
     */
    public Map<String, Long> counts() {
        return counts;
    }

    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }

    public long files() {
        return count(FILES);
    }

    public long records() {
        return count(RECORDS);
    }

    public long units() {
        return count(UNITS);
    }

    public long bytes() {
        return count(BYTES);
    }

    /** Offset of the first CommitLog byte kept (the first file's name), -1 without files. */
    public long commitLogMinOffset() {
        return commitLogMinOffset;
    }

    /** One past the last valid CommitLog record, where recovery would end the log. */
    public long commitLogMaxOffset() {
        return commitLogMaxOffset;
    }

    /** Nested maps, lists and numbers, ready for a JSON writer. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("root", root);
        m.put("healthy", healthy());
        m.put("errors", problems.stream().filter(p -> p.severity() == Severity.ERROR).count());
        m.put("warnings", problems.stream().filter(p -> p.severity() == Severity.WARNING).count());
        m.put("commitLogMinOffset", commitLogMinOffset);
        m.put("commitLogMaxOffset", commitLogMaxOffset);
        m.put("counts", counts);
        List<Map<String, Object>> list = new ArrayList<>();
        problems.forEach(p -> list.add(p.toMap()));
        m.put("problems", list);
        return m;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(healthy() ? "healthy" : "NOT healthy").append(' ').append(counts);
        problems.forEach(p -> b.append(System.lineSeparator()).append("  ").append(p));
        return b.toString();
    }
}
