package dev.hangar.bench;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Bytes allocated by the store's own threads over a run: every live thread of the process except the bench's
 * writers (whose in-put allocation {@link BenchRun} counts separately, without their message building) and the
 * thread that measures. A thread that starts during the run counts from zero; one that ends during it is lost
 * (store threads live as long as the store).
 */
final class StoreThreadAllocation {
    private final com.sun.management.ThreadMXBean threads;
    private final Set<Long> excluded = new HashSet<>();
    private final Map<Long, Long> atStart = new HashMap<>();

    private StoreThreadAllocation(com.sun.management.ThreadMXBean threads, List<Thread> writers) {
        this.threads = threads;
        writers.forEach(t -> excluded.add(t.getId()));
        excluded.add(Thread.currentThread().getId());
    }

    static StoreThreadAllocation start(com.sun.management.ThreadMXBean threads, List<Thread> writers) {
        StoreThreadAllocation a = new StoreThreadAllocation(threads, writers);
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                a.atStart.put(ids[i], bytes[i]);
            }
        }
        return a;
    }

    long allocatedSinceStart() {
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long total = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0 && !excluded.contains(ids[i])) {
                total += bytes[i] - atStart.getOrDefault(ids[i], 0L);
            }
        }
        return total;
    }
}
