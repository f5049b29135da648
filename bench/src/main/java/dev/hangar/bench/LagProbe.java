package dev.hangar.bench;

import dev.hangar.spi.flush.LatencyHistogram;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Times from a put's answer until the slave's end reaches the put's end, polled every {@link #POLL_NANOS} (the
 * same for both engines: each pair's {@code slaveMaxOffset} is its slave's CommitLog write position). At 50 µs
 * (about 100 µs with the kernel's timer slack) the poller itself used 5-20 µs of CPU per message on this 2-core
 * machine, competing with the threads it measures; 200 µs adds at most that to a sample, 2% of the 10 ms target.
 */
final class LagProbe {
    static final long POLL_NANOS = 200_000;
    static final long TARGET_NANOS = 10_000_000;
    private final ConcurrentSkipListMap<Long, Long> waiting = new ConcurrentSkipListMap<>();
    private final LatencyHistogram lag = new LatencyHistogram();
    /** Each sample's lower bound: from its answer until the poll before the one that saw it (see {@link #bracket}). */
    private final LatencyHistogram lower = new LatencyHistogram();
    /** A poll that came this much later than due counts as late: the poller itself waited for a CPU. */
    static final long LATE_POLL_NANOS = 5_000_000;
    private long latePolls;
    private long latestPoll;
    /** Each sample as (answered at, lag), for {@link #attribution}; written by the poller only. */
    private long[] answered = new long[4096];
    private long[] lags = new long[4096];
    private int samples;
    private final Thread poller;
    private volatile boolean done;

    LagProbe(HaPair pair) {
        poller = new Thread(() -> {
            long previousRead = System.nanoTime();
            long previousEnd = Long.MAX_VALUE;
            while (!done || !waiting.isEmpty()) {
                // stamped before the read: the slave did not yet hold what this read does not cover, at any time up
                // to this stamp, so a sample this read does not cover was seen later than this stamp (its lower bound)
                long beforeRead = System.nanoTime();
                long slaveEnd = pair.slaveMaxOffset();
                long now = System.nanoTime();
                if (beforeRead - previousRead > POLL_NANOS + LATE_POLL_NANOS) {
                    latePolls++;
                    latestPoll = Math.max(latestPoll, beforeRead - previousRead);
                }
                Map.Entry<Long, Long> e;
                while ((e = waiting.firstEntry()) != null && e.getKey() <= slaveEnd) {
                    waiting.remove(e.getKey());
                    long answeredAt = e.getValue();
                    long l = Math.max(0, now - answeredAt);
                    lag.record(l);
                    // only a previous read that did not cover it says the slave lacked it then (a sample registered
                    // after a read that covered it has no lower bound but 0); the slave's end only grows
                    lower.record(e.getKey() > previousEnd ? Math.max(0, previousRead - answeredAt) : 0);
                    keep(answeredAt, l);
                }
                previousRead = beforeRead;
                previousEnd = slaveEnd;
                LockSupport.parkNanos(POLL_NANOS);
            }
        }, "ha-bench-lag");
        poller.setDaemon(true);
        poller.start();
    }

    /**
     * The lag as a bracket: {@link #finish}'s figure is an upper bound (until the poll that saw the sample; a poller
     * kept from a CPU by other threads adds its own delay to every sample it then resolves); the lower bound is until
     * the read before it, which had not seen it. When the two p99s differ by much, the probe's own scheduling set
     * the upper one (the same for both engines). Call after {@link #finish}.
     */
    String bracket() {
        return String.format("lag bracket: p50 %s..%s µs, p99 %s..%s µs (lower: the poll before the one that saw a "
                + "sample had not seen it); polls late by over %d ms: %d (the latest %,d µs after its previous)",
                HaBench.micros(lower, 0.5), HaBench.micros(lag, 0.5), HaBench.micros(lower, 0.99),
                HaBench.micros(lag, 0.99), LATE_POLL_NANOS / 1_000_000, latePolls, latestPoll / 1000);
    }

    private void keep(long answeredNanos, long lagNanos) {
        if (samples == lags.length) {
            answered = java.util.Arrays.copyOf(answered, samples * 2);
            lags = java.util.Arrays.copyOf(lags, samples * 2);
        }
        answered[samples] = answeredNanos;
        lags[samples++] = lagNanos;
    }

    /**
     * Which samples a collection held up: those whose interval (answered .. seen on the slave) overlaps one of
     * {@code pauses}; the p99 of the others; and the worst of the others (when in the run, how late), so what is
     * left once the collector is taken out can be looked at. Call after {@link #finish}.
     */
    String attribution(List<GcPauses.Pause> pauses, long runBeginNanos) {
        LatencyHistogram clear = new LatencyHistogram();
        int overTarget = 0;
        int overTargetInGc = 0;
        int inGc = 0;
        long[] worst = new long[5];
        long[] worstAt = new long[5];
        for (int i = 0; i < samples; i++) {
            boolean held = GcPauses.overlaps(pauses, answered[i], answered[i] + lags[i]);
            if (held) {
                inGc++;
            } else {
                clear.record(lags[i]);
                for (int w = 0; w < worst.length; w++) {
                    if (lags[i] > worst[w]) {
                        System.arraycopy(worst, w, worst, w + 1, worst.length - w - 1);
                        System.arraycopy(worstAt, w, worstAt, w + 1, worstAt.length - w - 1);
                        worst[w] = lags[i];
                        worstAt[w] = answered[i] - runBeginNanos;
                        break;
                    }
                }
            }
            if (lags[i] > TARGET_NANOS) {
                overTarget++;
                if (held) {
                    overTargetInGc++;
                }
            }
        }
        StringBuilder b = new StringBuilder(String.format("lag samples %d, %d span a collection; over 10 ms: %d"
                + " (%d span a collection); without the spanning ones p50 %s µs, p99 %s µs; collections:",
                samples, inGc, overTarget, overTargetInGc, HaBench.micros(clear, 0.5), HaBench.micros(clear, 0.99)));
        for (GcPauses.Pause p : pauses) {
            if (p.endNanos() >= runBeginNanos) {
                b.append(String.format(" [%s at %.3f s, %d ms]", p.collector(),
                        (p.startNanos() - runBeginNanos) / 1e9, p.millis()));
            }
        }
        b.append("; worst others (at s: µs):");
        for (int w = 0; w < worst.length && worst[w] > 0; w++) {
            b.append(String.format(" %.3f: %,d", worstAt[w] / 1e9, worst[w] / 1000));
        }
        return b.toString();
    }

    /** Width of a window of {@link #timeline}. */
    static final long WINDOW_NANOS = 10_000_000;

    /**
     * The lag resolved in time: the samples by the {@link #WINDOW_NANOS} window of the run they were answered in,
     * and for each window that holds a sample over the target, its start (ms into the run), its sample count, its
     * worst lag and how many of its samples are over the target; then how many of the samples over the target fall
     * in the run's first 10 % and first 100 ms. A p99 set by one hiccup shows as one or two windows; one set by
     * the start of a run (a fresh pair: JIT, fresh files) shows at its first windows. Call after {@link #finish}.
     */
    String timeline(long runBeginNanos) {
        if (samples == 0) {
            return "lag timeline: no samples";
        }
        long last = 0;
        for (int i = 0; i < samples; i++) {
            last = Math.max(last, answered[i] - runBeginNanos);
        }
        int windows = (int) (Math.max(0, last) / WINDOW_NANOS) + 1;
        int[] count = new int[windows];
        int[] over = new int[windows];
        long[] worst = new long[windows];
        int overTotal = 0;
        int overEarly = 0;
        int overFirst100 = 0;
        for (int i = 0; i < samples; i++) {
            long at = Math.max(0, answered[i] - runBeginNanos);
            int w = (int) (at / WINDOW_NANOS);
            count[w]++;
            worst[w] = Math.max(worst[w], lags[i]);
            if (lags[i] > TARGET_NANOS) {
                over[w]++;
                overTotal++;
                if (at * 10 <= last) {
                    overEarly++;
                }
                if (at < 100_000_000) {
                    overFirst100++;
                }
            }
        }
        StringBuilder b = new StringBuilder(String.format("lag timeline (%d windows of 10 ms, %d samples over 10 ms: "
                + "%d in the first 10%% of the run, %d in its first 100 ms); windows over (ms: samples, worst µs, "
                + "over):", windows, overTotal, overEarly, overFirst100));
        for (int w = 0; w < windows; w++) {
            if (over[w] > 0) {
                b.append(String.format(" %d: %d, %,d, %d;", w * 10, count[w], worst[w] / 1000, over[w]));
            }
        }
        return b.toString();
    }

    /** Every sample as "answered ns (System.nanoTime), lag ns", one a line, for lining up with perf or /proc. */
    void dump(java.nio.file.Path file, long runBeginNanos) throws java.io.IOException {
        StringBuilder b = new StringBuilder("# run began at nanoTime " + runBeginNanos + "\n");
        for (int i = 0; i < samples; i++) {
            b.append(answered[i]).append(' ').append(lags[i]).append('\n');
        }
        java.nio.file.Files.writeString(file, b);
    }

    /** The largest lower bound of a sample (see {@link #bracket}), for tests. Call after {@link #finish}. */
    long lowerBoundMaxNanos() {
        return lower.max();
    }

    void expect(long endOffset, long answeredNanos) {
        waiting.put(endOffset, answeredNanos);
    }

    LatencyHistogram finish() throws InterruptedException {
        done = true;
        poller.join(60_000);
        return lag;
    }
}
