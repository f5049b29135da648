package dev.hangar.compat.support;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems of every step of a compatibility scenario, so one run reports all of them (what Hangar
 * read of its own store, what RocketMQ read of it, and how the two differ) instead of stopping at the first.
 */
public final class Findings {
    private static final int LINES_PER_STEP = 25;
    private final List<String> lines = new ArrayList<>();

    public void add(String step, List<String> problems) {
        if (problems.isEmpty()) {
            return;
        }
        lines.add("== " + step + " (" + problems.size() + (problems.size() >= LINES_PER_STEP ? "+" : "") + ")");
        problems.stream().limit(LINES_PER_STEP).forEach(p -> lines.add("   " + p));
    }

    public void check(String step, boolean ok, String problem) {
        if (!ok) {
            add(step, List.of(problem));
        }
    }

    /** Takes a snapshot through {@code reader} of every queue, record and key of {@code ds}. */
    public static StoreSnapshot snapshot(StoreReader reader, Dataset ds, List<CommitLogFiles.Entry> records) {
        return StoreSnapshot.take(reader, ds.queueCounts().keySet(),
                records.stream().map(CommitLogFiles.Entry::offset).toList(), ds.keyQueries().keySet());
    }

    /** Adds what {@code s} gets wrong about {@code ds}. */
    public void holds(String step, StoreSnapshot s, Dataset ds, List<CommitLogFiles.Entry> records,
                      boolean exactQueries) {
        add(step, DatasetCheck.problems(s, ds, records, exactQueries, LINES_PER_STEP));
    }

    /** Adds where {@code s}'s getOffsetInQueueByTime misses (see {@link StoreSnapshot#timeSearchProblems()}). */
    public void timeSearch(String step, StoreSnapshot s) {
        add(step, s.timeSearchProblems());
    }

    /** Adds how {@code b} differs from {@code a}. */
    public void same(String step, StoreSnapshot a, StoreSnapshot b) {
        add(step, a.differences(b, LINES_PER_STEP));
    }

    public void assertNone() {
        if (!lines.isEmpty()) {
            throw new AssertionError("compatibility problems:\n" + String.join("\n", lines));
        }
    }
}
