package dev.hangar.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time per thread over one benchmark run, so a run can say where the processor went (per message), which a
 * loaded machine does not distort the way it distorts wall-clock figures. Threads that end during the run are
 * missed (their time is not reported by the JVM): the benchmark's threads all live until the snapshot.
 */
final class ThreadCpu {
    private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();
    /** HotSpot's view of the same bean: bytes allocated by thread (what drives the young collections). */
    private static final com.sun.management.ThreadMXBean ALLOC = BEAN instanceof com.sun.management.ThreadMXBean a
            && a.isThreadAllocatedMemorySupported() ? a : null;
    private final Map<Long, Long> before = new HashMap<>();
    private final Map<Long, Long> allocatedBefore = new HashMap<>();
    private final Map<String, Long> finishedAllocated = new java.util.concurrent.ConcurrentHashMap<>();
    private Map<String, Long> faultsBefore = Map.of();
    private Map<String, Long> wakeupsBefore = Map.of();
    private Map<String, Long> queuedBefore = Map.of();
    private final Map<String, Long> finishedFaults = new java.util.concurrent.ConcurrentHashMap<>();
    private long gcCountBefore;
    private long gcMillisBefore;
    private final Map<String, Long> finished = new java.util.concurrent.ConcurrentHashMap<>();

    private ThreadCpu() {
    }

    /** Starts counting: remembers every live thread's CPU time. */
    static ThreadCpu start() {
        ThreadCpu t = new ThreadCpu();
        t.faultsBefore = minorFaults();
        t.wakeupsBefore = voluntarySwitches();
        t.queuedBefore = runQueueWait();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            t.gcCountBefore += Math.max(0, gc.getCollectionCount());
            t.gcMillisBefore += Math.max(0, gc.getCollectionTime());
        }
        for (long id : BEAN.getAllThreadIds()) {
            long cpu = BEAN.getThreadCpuTime(id);
            if (cpu >= 0) {
                t.before.put(id, cpu);
            }
            if (ALLOC != null) {
                t.allocatedBefore.put(id, Math.max(0, ALLOC.getThreadAllocatedBytes(id)));
            }
        }
        return t;
    }

    /** Called by a thread started after {@link #start} as its last act: counts its CPU time under {@code name}. */
    void finished(String name) {
        finished.merge(name, BEAN.getCurrentThreadCpuTime(), Long::sum);
        if (ALLOC != null) {
            finishedAllocated.merge(name, ALLOC.getCurrentThreadAllocatedBytes(), Long::sum);
        }
        long faults = ownMinorFaults();
        if (faults > 0) {
            finishedFaults.merge(name, faults, Long::sum);
        }
    }

    private static long ownMinorFaults() {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * CPU nanoseconds since {@link #start} by thread name; when several live threads share a name (a master's and a
     * slave's store threads), the older one is "name" and the younger "name#2", so a master's come first.
     */
    Map<String, Long> since() {
        TreeMap<Long, String> names = new TreeMap<>();
        for (ThreadInfo info : BEAN.getThreadInfo(BEAN.getAllThreadIds())) {
            if (info != null) {
                names.put(info.getThreadId(), info.getThreadName());
            }
        }
        Map<String, Long> byName = new LinkedHashMap<>(finished);
        for (Map.Entry<Long, String> e : names.entrySet()) {
            long cpu = BEAN.getThreadCpuTime(e.getKey());
            if (cpu < 0) {
                continue;
            }
            long used = cpu - before.getOrDefault(e.getKey(), 0L);
            String name = e.getValue().replaceAll("-\\d+$", "-N");
            String key = name;
            for (int i = 2; byName.containsKey(key) && !name.endsWith("-N"); i++) {
                key = name + "#" + i;
            }
            byName.merge(key, used, Long::sum);
        }
        return byName;
    }

    /** Bytes allocated since {@link #start} by thread name (named as in {@link #since}); empty without support. */
    private Map<String, Long> allocatedSince() {
        Map<String, Long> byName = new LinkedHashMap<>(finishedAllocated);
        if (ALLOC == null) {
            return byName;
        }
        TreeMap<Long, String> names = new TreeMap<>();
        for (ThreadInfo info : BEAN.getThreadInfo(BEAN.getAllThreadIds())) {
            if (info != null) {
                names.put(info.getThreadId(), info.getThreadName());
            }
        }
        for (Map.Entry<Long, String> e : names.entrySet()) {
            long bytes = ALLOC.getThreadAllocatedBytes(e.getKey());
            if (bytes < 0) {
                continue;
            }
            String name = e.getValue().replaceAll("-\\d+$", "-N");
            String key = name;
            for (int i = 2; byName.containsKey(key) && !name.endsWith("-N"); i++) {
                key = name + "#" + i;
            }
            byName.merge(key, bytes - allocatedBefore.getOrDefault(e.getKey(), 0L), Long::sum);
        }
        return byName;
    }

    /**
     * Minor page faults so far by thread (Linux: field 10 of /proc/self/task/TID/stat); empty elsewhere.
     */
    private static Map<String, Long> minorFaults() {
        return perTask(task -> {
            String stat = java.nio.file.Files.readString(task.resolve("stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
        });
    }

    /**
     * Voluntary context switches so far by thread ({@code voluntary_ctxt_switches} of /proc/self/task/TID/status):
     * each is one sleep, so one wake-up, of that thread; the count hardly depends on how loaded the machine is, the
     * way timings do.
     */
    private static Map<String, Long> voluntarySwitches() {
        return perTask(task -> {
            for (String line : java.nio.file.Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            throw new java.io.IOException("no voluntary_ctxt_switches");
        });
    }

    /**
     * Nanoseconds each thread spent runnable but waiting for a CPU (field 2 of /proc/self/task/TID/schedstat): on a
     * loaded machine this, not the code, is where a thread's lateness goes, and a replication thread's wall-time
     * spike with no CPU behind it shows up here.
     */
    private static Map<String, Long> runQueueWait() {
        return perTask(task -> Long.parseLong(
                java.nio.file.Files.readString(task.resolve("schedstat")).trim().split(" ")[1]));
    }

    private interface TaskCounter {
        long read(java.nio.file.Path task) throws java.io.IOException;
    }

    /**
     * One counter of every live thread of this JVM (Linux /proc/self/task), by the thread's kernel name (15
     * characters, a trailing number folded to "-N"; a second thread of the same name is "name#2"); empty off Linux.
     * Threads that ended are missed.
     */
    private static Map<String, Long> perTask(TaskCounter counter) {
        Map<String, Long> byName = new LinkedHashMap<>();
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return byName;
        }
        java.util.Arrays.sort(tasks, java.util.Comparator.comparingLong(f -> Long.parseLong(f.getName())));
        for (java.io.File task : tasks) {
            try {
                String name = java.nio.file.Files.readString(task.toPath().resolve("comm")).trim()
                        .replaceAll("-\\d+$", "-N");
                long n = counter.read(task.toPath());
                String key = name;
                for (int i = 2; byName.containsKey(key) && !name.endsWith("-N"); i++) {
                    key = name + "#" + i;
                }
                byName.merge(key, n, Long::sum);
            } catch (java.io.IOException | RuntimeException e) {
                // the thread ended meanwhile, or this kernel lacks the file
            }
        }
        return byName;
    }

    /** All threads' CPU µs since {@link #start}, per message: what the run cost the machine, for a bound. */
    double totalMicrosPerMessage(long messages) {
        return since().values().stream().mapToLong(Long::longValue).sum() / 1e3 / messages;
    }

    /**
     * One line: the garbage collections during the run (a single pause of some milliseconds sets a lag p99 over a
     * short run), total CPU µs per message, then the threads that used at least 1% of it.
     */
    String perMessage(long messages) {
        Map<String, Long> used = since();
        long gcs = -gcCountBefore;
        long gcMillis = -gcMillisBefore;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        Map<String, Long> faults = minorFaults();
        faults.replaceAll((name, n) -> n - faultsBefore.getOrDefault(name, 0L));
        finishedFaults.forEach((name, n) -> faults.merge(name, n, Long::sum));
        long total = used.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder b = new StringBuilder(String.format("GC %d collections, %d ms; CPU per message %.1f µs:", gcs,
                gcMillis, total / 1e3 / messages));
        used.entrySet().stream().filter(e -> e.getValue() * 100 >= total)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> b.append(String.format(" %s %.1f", e.getKey(), e.getValue() / 1e3 / messages)));
        long allFaults = faults.values().stream().mapToLong(Long::longValue).sum();
        b.append(String.format("; minor page faults per message %.3f:", (double) allFaults / messages));
        faults.entrySet().stream().filter(e -> e.getValue() * 20 >= allFaults && e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> b.append(String.format(" %s %.3f", e.getKey(), (double) e.getValue() / messages)));
        Map<String, Long> wakeups = voluntarySwitches();
        wakeups.replaceAll((name, n) -> n - wakeupsBefore.getOrDefault(name, 0L));
        long allWakeups = wakeups.values().stream().mapToLong(Long::longValue).sum();
        b.append(String.format("; sleeps (voluntary switches) per message %.2f:", (double) allWakeups / messages));
        wakeups.entrySet().stream().filter(e -> e.getValue() * 20 >= allWakeups && e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> b.append(String.format(" %s %.2f", e.getKey(), (double) e.getValue() / messages)));
        Map<String, Long> queued = runQueueWait();
        queued.replaceAll((name, n) -> n - queuedBefore.getOrDefault(name, 0L));
        long allQueued = queued.values().stream().mapToLong(Long::longValue).sum();
        b.append(String.format("; waiting for a CPU µs per message %.1f:", allQueued / 1e3 / messages));
        queued.entrySet().stream().filter(e -> e.getValue() * 20 >= allQueued && e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> b.append(String.format(" %s %.1f", e.getKey(), e.getValue() / 1e3 / messages)));
        Map<String, Long> allocated = allocatedSince();
        long allBytes = allocated.values().stream().mapToLong(Long::longValue).sum();
        b.append(String.format("; allocated bytes per message %,d:", allBytes / Math.max(1, messages)));
        allocated.entrySet().stream().filter(e -> e.getValue() * 20 >= allBytes && e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> b.append(String.format(" %s %,d", e.getKey(), e.getValue() / messages)));
        return b.toString();
    }
}
