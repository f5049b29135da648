package dev.hangar.bench;

import dev.hangar.spi.flush.LatencyHistogram;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one workload once on one engine in a fresh directory, deleted afterwards: writer threads start together,
 * each put timed and its allocation measured (thread allocation counter read just before and after the store's
 * call, so building the next message is not counted); then the clock runs until every message is readable by
 * queue offset and a sample of keys is found by key query.
 */
public final class BenchRun {
    private static final Logger LOG = LoggerFactory.getLogger(BenchRun.class);
    private static final int KEY_SAMPLE = 64;
    private static final long READABLE_BOUND_NANOS = 300_000_000_000L;

    /** Creates an engine on a directory. */
    @FunctionalInterface
    public interface EngineFactory {
        BenchEngine open(Path dir, Workload w) throws Exception;
    }

    private BenchRun() {
    }

    public static RunResult run(String engineName, EngineFactory factory, Workload w, int round, Path baseDir)
            throws Exception {
        Path dir = Files.createTempDirectory(baseDir, "hangar-bench-" + engineName + "-");
        try {
            BenchEngine engine = factory.open(dir, w);
            RunResult r;
            try {
                r = measure(engine, w, round, dir);
            } finally {
                engine.close();
            }
            // disk as the closed store leaves it: every file has landed (Hangar makes a new queue's ConsumeQueue
            // file on its flush side, possibly after the queue is readable), so no engine is measured mid-way
            return r.withDisk(DiskUsage.of(dir), diskOfCommitLog(dir));
        } finally {
            if (w.topics() > 1) {
                // thousands of queue directories take minutes to unlink on a busy disk: not between two runs
                DEFERRED_DELETIONS.add(dir);
            } else {
                deleteRecursively(dir);
            }
        }
    }

    /**
     * Store directories of the many-queue workloads, deleted by {@link #deleteDeferred()} once the report is
     * written (they are small in bytes; their hundreds of thousands of files are what is slow to delete).
     */
    private static final List<Path> DEFERRED_DELETIONS = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Deletes the directories whose deletion was deferred. */
    static void deleteDeferred() throws IOException {
        for (Path dir : DEFERRED_DELETIONS) {
            LOG.info("deleting {}", dir);
            deleteRecursively(dir);
            DEFERRED_DELETIONS.remove(dir);
        }
    }

    private static RunResult measure(BenchEngine engine, Workload w, int round, Path dir) throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = w.threads();
        List<BenchEngine.Putter> putters = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            putters.add(engine.putter(t));
        }
        LatencyHistogram[] latencies = new LatencyHistogram[n];
        long[] allocated = new long[n];
        AtomicLong failures = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        long[] slow = new long[n];
        PutStallLog[] slowPuts = new PutStallLog[n];
        AtomicLong slowAnswers = new AtomicLong();
        // set before the start latch opens (which orders it before every writer's read): one schedule for all
        long[] startNanos = new long[1];
        // the census of slow puts: one paced writer only (its schedstat is sampled between its puts)
        StallCensus census = StallCensus.ENABLED && w.isPaced() && n == 1
                ? new StallCensus(w.callsPerThread()) : null;
        List<Thread> writers = new ArrayList<>();
        // CPU, faults and sleeps per message by thread, logged per round: counts a loaded machine does not distort
        ThreadCpu cpu = ThreadCpu.start();
        for (int t = 0; t < n; t++) {
            int thread = t;
            latencies[t] = new LatencyHistogram();
            slowPuts[t] = new PutStallLog();
            Thread writer = new Thread(() -> {
                BenchEngine.Putter putter = putters.get(thread);
                LatencyHistogram lat = latencies[thread];
                long alloc = 0;
                long stalls = 0;
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (w.inflight() > 1) {
                    allocated[thread] = putInFlight(putter, w, thread, lat, failures, slowAnswers, threads);
                    cpu.finished("bench-writer");
                    return;
                }
                PacedSchedule schedule = w.isPaced() ? new PacedSchedule(startNanos[0], w.intervalNanos()) : null;
                if (census != null) {
                    try {
                        census.openOnWriter();
                    } catch (IOException e) {
                        LOG.info("no schedstat for the stall census: {}", e.toString());
                    }
                }
                for (int c = 0; c < w.callsPerThread(); c++) {
                    int first = w.first(thread, c);
                    putter.prepare(first);
                    if (schedule != null) {
                        schedule.awaitDue(c); // outside the put's clock: the pacer's wait is not put latency
                    }
                    long a0 = threads.getCurrentThreadAllocatedBytes();
                    long t0 = System.nanoTime();
                    boolean ok = putter.put(first);
                    long t1 = System.nanoTime();
                    alloc += threads.getCurrentThreadAllocatedBytes() - a0;
                    lat.record(t1 - t0);
                    if (slowPuts[thread].record(t0, t1 - t0) && census != null) {
                        census.lateness(slowPuts[thread].count() - 1, t0 - schedule.dueNanos(c));
                    }
                    if (census != null) {
                        census.sample(c);
                    }
                    if (t1 - t0 > RunResult.STALL_NANOS) {
                        stalls++;
                    }
                    if (!ok) {
                        failures.incrementAndGet();
                    }
                }
                allocated[thread] = alloc;
                slow[thread] = stalls;
                if (census != null) {
                    census.closeOnWriter();
                }
                cpu.finished("bench-writer");
            }, "bench-writer-" + t);
            writers.add(writer);
            writer.start();
        }
        ReadableCursor cursor = engine.readsByQueue() ? new ReadableCursor(w) : null;
        System.gc();
        StoreThreadAllocation storeThreads = StoreThreadAllocation.start(threads, writers);
        long begin = System.nanoTime();
        startNanos[0] = begin;
        if (census != null) {
            census.startProbe();
        }
        start.countDown();
        for (Thread writer : writers) {
            writer.join();
        }
        if (census != null) {
            census.stopProbe();
        }
        long putsDone = System.nanoTime();
        awaitReadable(engine, cursor, w, begin);
        long readable = System.nanoTime();
        LOG.info("{} {} round {}: {}", w.name(), engine.name(), round, cpu.perMessage(w.effectiveMessages()));
        for (int t = 0; t < n; t++) { // after the clock: logging is not the engine's time
            slowPuts[t].log(LOG, w.name() + " " + engine.name() + " round " + round + " writer " + t, begin);
        }
        if (census != null) {
            census.log(LOG, w.name() + " " + engine.name() + " round " + round, slowPuts[0], RunResult.STALL_NANOS,
                    begin);
        }
        long storeThreadBytes = storeThreads.allocatedSinceStart();
        long diskBytes = DiskUsage.of(dir);
        long commitLogDisk = diskOfCommitLog(dir);
        long commitLogWritten = engine.commitLogWrittenBytes();
        putters.clear();

        LatencyHistogram all = new LatencyHistogram();
        long totalAlloc = 0;
        long stalls = slowAnswers.get();
        for (int t = 0; t < n; t++) {
            all.add(latencies[t]);
            totalAlloc += allocated[t];
            stalls += slow[t];
        }
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        int messages = w.effectiveMessages();
        RunResult r = new RunResult(engine.name(), w.name(), round, messages, w.messageSize(), readable - begin,
                putsDone - begin, readable - putsDone, all.percentile(0.50), all.percentile(0.99),
                all.percentile(0.999), all.percentile(0.9999), all.max(), stalls, (double) totalAlloc / messages,
                (double) (totalAlloc + storeThreadBytes) / messages, diskBytes, commitLogDisk, commitLogWritten, heap,
                failures.get(), null);
        LOG.info("{} {} round {}: {} msg/s, p99.9 {} us, p99.99 {} us, max {} us, {} puts > 20 ms, dispatch {} ms, "
                        + "{} B/msg allocated by the caller, {} B/msg by every store thread, {} MiB on disk, {} failures",
                w.name(), engine.name(), round, Math.round(r.messagesPerSecond()), r.p999Nanos() / 1000,
                r.p9999Nanos() / 1000, r.maxNanos() / 1000, r.putsOver20ms(),
                r.dispatchNanos() / 1_000_000, Math.round(r.allocPerMessage()), Math.round(r.allocAllThreadsPerMessage()),
                diskBytes >> 20, r.failures());
        return r;
    }

    private static long diskOfCommitLog(Path dir) throws IOException {
        Path commitLogDir = dir.resolve("commitlog");
        return Files.isDirectory(commitLogDir) ? DiskUsage.of(commitLogDir) : -1;
    }

    /** A put in flight: when it was called and its answer. */
    private record InFlight(long calledNanos, CompletableFuture<?> answer) {
    }

    /**
     * One writer keeping {@code w.inflight()} async puts outstanding: it calls until that many are unanswered, then
     * waits for the oldest. Latency is from call to answer; allocation counts only inside the calls.
     */
    private static long putInFlight(BenchEngine.Putter putter, Workload w, int thread, LatencyHistogram lat,
                                    AtomicLong failures, AtomicLong slowAnswers,
                                    com.sun.management.ThreadMXBean threads) {
        ArrayDeque<InFlight> pending = new ArrayDeque<>(w.inflight());
        long alloc = 0;
        for (int c = 0; c < w.callsPerThread(); c++) {
            int first = w.first(thread, c);
            putter.prepare(first);
            long a0 = threads.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            CompletableFuture<?> answer = putter.putAsync(first);
            alloc += threads.getCurrentThreadAllocatedBytes() - a0;
            pending.addLast(new InFlight(t0, answer));
            if (pending.size() >= w.inflight()) {
                settle(putter, pending.removeFirst(), lat, failures, slowAnswers);
            }
        }
        while (!pending.isEmpty()) {
            settle(putter, pending.removeFirst(), lat, failures, slowAnswers);
        }
        return alloc;
    }

    private static void settle(BenchEngine.Putter putter, InFlight put, LatencyHistogram lat, AtomicLong failures,
                               AtomicLong slowAnswers) {
        boolean ok;
        try {
            ok = putter.answeredOk(put.answer().get(READABLE_BOUND_NANOS, TimeUnit.NANOSECONDS));
        } catch (Exception e) {
            ok = false;
        }
        long latency = System.nanoTime() - put.calledNanos();
        lat.record(latency);
        if (latency > RunResult.STALL_NANOS) {
            slowAnswers.incrementAndGet();
        }
        if (!ok) {
            failures.incrementAndGet();
        }
    }

    /**
     * Polls until the queues hold every message and every sampled key is found by a key query; {@code cursor} checks
     * the queues of an engine that has them, else the engine's readable count is compared with the messages put.
     */
    private static void awaitReadable(BenchEngine engine, ReadableCursor cursor, Workload w, long begin)
            throws InterruptedException {
        int messages = w.effectiveMessages();
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < KEY_SAMPLE; i++) {
            pending.add((int) ((long) i * (messages - 1) / (KEY_SAMPLE - 1)));
        }
        while (true) {
            if (cursor != null ? cursor.allReadable(engine) : engine.readableByOffset() >= messages) {
                pending.removeIf(engine::findsKey);
                if (pending.isEmpty()) {
                    return;
                }
            }
            if (System.nanoTime() - begin > READABLE_BOUND_NANOS) {
                throw new IllegalStateException(engine.name() + " " + w.name() + ": only " + engine.readableByOffset()
                        + " of " + messages + " messages readable by offset, keys of messages not found: " + pending);
            }
            Thread.sleep(1);
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
