package dev.hangar.mmap.file;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds how many {@link OnDemandMappedFile}s are mapped at once. Linux refuses a process more than
 * {@code vm.max_map_count} mappings (65 530 by default), and every ConsumeQueue file is one: without a bound,
 * a store with some 60 000 queues fails with "Map failed". When a new mapping takes the count past the budget,
 * idle files are unmapped ("parked") in clock order (second chance for recently used ones); a parked file maps
 * itself again on its next {@link OnDemandMappedFile#hold()}.
 *
 * <p>A file in use (a reader or the writer holds a reference) is never parked, so the count can exceed the budget
 * by the number of files in use at once, which the callers keep small (one region per read).
 *
 * <p>Thread-safe. Lock order: a file's monitor may be held when this budget's monitor is taken, never the other
 * way round (eviction polls a victim under this monitor and parks it after releasing it).
 */
public final class MappingBudget {
    private final int maxMappings;
    private final AtomicInteger mapped = new AtomicInteger();
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong remapped = new AtomicLong();
    /** Mapped files in clock order; guarded by this. */
    private final ArrayDeque<OnDemandMappedFile> clock = new ArrayDeque<>();
    /** Clock entries of files closed since the last sweep; guarded by this. */
    private int staleEntries;

    public MappingBudget(int maxMappings) {
        if (maxMappings < 1) {
            throw new IllegalArgumentException("the mapping budget must be at least 1, was " + maxMappings);
        }
        this.maxMappings = maxMappings;
    }

    public int maxMappings() {
        return maxMappings;
    }

    /** Files of this budget mapped right now. */
    public int mappedFiles() {
        return mapped.get();
    }

    /** How many times an idle file was unmapped to stay within the budget. */
    public long parkedCount() {
        return parked.get();
    }

    /** How many times a parked file was mapped again. */
    public long remappedCount() {
        return remapped.get();
    }

    /** {@code file} was just mapped (not holding its monitor); parks idle files while over the budget. */
    void onMapped(OnDemandMappedFile file, boolean again) {
        if (again) {
            remapped.incrementAndGet();
        }
        synchronized (this) {
            clock.addLast(file);
        }
        if (mapped.incrementAndGet() > maxMappings) {
            parkIdleFiles();
        }
    }

    /**
     * {@code file} was unmapped for good (shut down); it may hold its own monitor. Its clock entry is left for the
     * clock to drop (it is no longer mapped): removing it here scanned the whole clock per file, so closing a store
     * of 100 000 queues was quadratic. Stale entries are swept once they are half the clock.
     */
    void onClosed(OnDemandMappedFile file) {
        mapped.decrementAndGet();
        synchronized (this) {
            if (++staleEntries > clock.size() / 2) {
                clock.removeIf(f -> !f.mapped());
                staleEntries = 0;
            }
        }
    }

    private void parkIdleFiles() {
        int attempts;
        synchronized (this) {
            attempts = 2 * clock.size() + 1;
        }
        while (mapped.get() > maxMappings && attempts-- > 0) {
            OnDemandMappedFile victim;
            synchronized (this) {
                victim = clock.pollFirst();
            }
            if (victim == null) {
                return;
            }
            if (victim.takeRecentlyUsed()) {
                requeue(victim);
                continue;
            }
            switch (victim.parkIfIdle()) {
                case PARKED -> {
                    mapped.decrementAndGet();
                    parked.incrementAndGet();
                }
                case IN_USE -> requeue(victim);
                case NOT_MAPPED -> {
                    // shut down or already parked: its entry is stale
                }
            }
        }
    }

    private synchronized void requeue(OnDemandMappedFile file) {
        clock.addLast(file);
    }
}
