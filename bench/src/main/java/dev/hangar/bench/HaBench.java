package dev.hangar.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The replication benchmark: Hangar master + slave and RocketMQ 4.9.8 master + slave on loopback, 1 KiB messages.
 * SYNC_MASTER with 16 closed-loop threads and with 4 threads x 256 puts in flight (throughput, latency);
 * ASYNC_MASTER at full speed and at half of it (replication lag: from a put's answer until the slave holds it).
 *
 * <pre>
 *   java -cp ... dev.hangar.bench.HaBench [--messages N] [--dir DIR] [--out FILE]
 * </pre>
 */
public final class HaBench {
    private static final int FILE_SIZE = 256 * 1024 * 1024;
    private static final int MESSAGE_SIZE = 1024;

    private HaBench() {
    }

    interface PairFactory {
        HaPair open(Path dir, String role) throws Exception;
    }

    record Result(String engine, String mode, long messages, double seconds, long failed, LatencyRecorder latency,
                  LatencyRecorder lag) {
        String row() {
            return String.format("| %s | %s | %,d | %,.0f | %s | %s | %s | %s | %d |", mode, engine, messages,
                    messages / seconds, micros(latency, 0.5), micros(latency, 0.99), lag == null ? "" : micros(lag, 0.5),
                    lag == null ? "" : micros(lag, 0.99), failed);
        }
    }

    static String micros(LatencyRecorder r, double q) {
        return r.count() == 0 ? "-" : String.format("%,d", r.percentile(q) / 1000);
    }

    public static void main(String[] args) throws Exception {
        int messages = 40_000;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Path out = Path.of("bench/target/HA-BENCH.md");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--messages" -> messages = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (allowed: --messages N, --dir DIR, --out FILE)");
            }
        }
        Map<String, PairFactory> engines = Map.of(
                "hangar", (d, role) -> new HangarHaPair(d, role, FILE_SIZE, MESSAGE_SIZE),
                "rocketmq", (d, role) -> new RocketMqHaPair(d, role, FILE_SIZE, MESSAGE_SIZE));
        List<Result> results = new ArrayList<>();
        for (String engine : List.of("hangar", "rocketmq")) {
            PairFactory f = engines.get(engine);
            results.add(run(f, dir, engine, "SYNC_MASTER", "16 threads closed loop", messages, 16, 1, 0));
            results.add(run(f, dir, engine, "SYNC_MASTER", "4 threads x 256 in flight", messages, 4, 256, 0));
            Result full = run(f, dir, engine, "ASYNC_MASTER", "16 threads closed loop", messages, 16, 1, 0);
            results.add(full);
            double half = messages / full.seconds() / 2;
            results.add(run(f, dir, engine, "ASYNC_MASTER", String.format("4 threads at half rate (%,.0f/s)", half),
                    messages / 2, 4, 1, half));
        }
        StringBuilder md = new StringBuilder();
        md.append("# Replication benchmark (master + slave on loopback, 1 KiB)\n\n")
                .append("Machine: ").append(machine()).append(". One run each; a loaded 2-core machine is "
                        + "noisy: read ratios, not absolutes.\n\n")
                .append("| mode | engine | messages | msgs/s | put p50 µs | put p99 µs | repl. lag p50 µs | "
                        + "repl. lag p99 µs | failed |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            md.append(r.row()).append('\n');
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString());
        System.out.println(md);
        System.exit(0); // RocketMQ leaves non-daemon threads behind
    }

    private static Result run(PairFactory factory, Path base, String engine, String role, String what, int messages,
                              int threads, int inFlight, double rate) throws Exception {
        Path dir = Files.createTempDirectory(base, "ha-bench-" + engine + "-");
        try (HaPair pair = factory.open(dir, role)) {
            // one put the slave must hold before the clock starts: RocketMQ's slave first reports its offset only
            // after haSendHeartbeatInterval, and its master ships nothing before that report
            long primed = pair.put(Integer.MAX_VALUE).join();
            await(engine + " slave holds a first message", () -> pair.slaveMaxOffset() >= primed);
            LatencyRecorder[] latencies = new LatencyRecorder[threads];
            LagProbe probe = role.equals("ASYNC_MASTER") ? new LagProbe(pair) : null;
            AtomicInteger next = new AtomicInteger();
            AtomicLong failed = new AtomicLong();
            List<Thread> workers = new ArrayList<>();
            long begin = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                LatencyRecorder rec = new LatencyRecorder();
                latencies[t] = rec;
                long interval = rate > 0 ? (long) (threads * 1e9 / rate) : 0;
                Thread w = new Thread(() -> work(pair, messages, inFlight, interval, next, failed, rec, probe));
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            LatencyRecorder all = new LatencyRecorder();
            for (LatencyRecorder r : latencies) {
                all.add(r);
            }
            LatencyRecorder lag = probe == null ? null : probe.finish();
            Result r = new Result(engine, role + ", " + what, messages, seconds, failed.get(), all, lag);
            System.err.println(r.row());
            return r;
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void work(HaPair pair, int messages, int inFlight, long intervalNanos, AtomicInteger next,
                             AtomicLong failed, LatencyRecorder rec, LagProbe probe) {
        Semaphore slots = new Semaphore(inFlight);
        long slot = System.nanoTime();
        int n;
        while ((n = next.getAndIncrement()) < messages) {
            if (intervalNanos > 0) {
                slot += intervalNanos;
                long wait = slot - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            slots.acquireUninterruptibly();
            long start = System.nanoTime();
            int sample = n;
            CompletableFuture<Long> f = pair.put(n);
            f.whenComplete((end, e) -> {
                long done = System.nanoTime();
                synchronized (rec) {
                    rec.record(done - start);
                }
                if (e != null || end == null || end < 0) {
                    failed.incrementAndGet();
                } else if (probe != null && sample % 8 == 0) {
                    probe.expect(end, done);
                }
                slots.release();
            });
        }
        slots.acquireUninterruptibly(inFlight);
    }

    /** Times from a put's answer until the slave's end reaches the put's end, polled every 50 µs. */
    static final class LagProbe {
        private final ConcurrentSkipListMap<Long, Long> waiting = new ConcurrentSkipListMap<>();
        private final LatencyRecorder lag = new LatencyRecorder();
        private final Thread poller;
        private volatile boolean done;

        LagProbe(HaPair pair) {
            poller = new Thread(() -> {
                while (!done || !waiting.isEmpty()) {
                    long slaveEnd = pair.slaveMaxOffset();
                    long now = System.nanoTime();
                    Map.Entry<Long, Long> e;
                    while ((e = waiting.firstEntry()) != null && e.getKey() <= slaveEnd) {
                        waiting.remove(e.getKey());
                        lag.record(Math.max(0, now - e.getValue()));
                    }
                    LockSupport.parkNanos(50_000);
                }
            }, "ha-bench-lag");
            poller.setDaemon(true);
            poller.start();
        }

        void expect(long endOffset, long answeredNanos) {
            waiting.put(endOffset, answeredNanos);
        }

        LatencyRecorder finish() throws InterruptedException {
            done = true;
            poller.join(60_000);
            return lag;
        }
    }

    private static String machine() {
        Machine m = Machine.describe();
        return m.cpus() + " CPUs (" + m.cpuModel() + "), " + m.memory() + ", " + m.jdk() + ", " + m.date();
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out waiting for: " + what);
            }
            LockSupport.parkNanos(5_000_000);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
