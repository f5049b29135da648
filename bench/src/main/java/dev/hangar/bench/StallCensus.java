package dev.hangar.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;

/**
 * What each put over 20 ms of a paced writer was, by event rather than by guess (opt-in with
 * {@code -Dbench.stallCensus=true}, as it costs the writer a {@code pread} of its schedstat every
 * {@link #SAMPLE_EVERY} puts). Two witnesses run beside the writer:
 * <ul>
 *   <li>the writer's own {@code /proc/thread-self/schedstat} (CPU time, run-queue wait), read every
 *       {@link #SAMPLE_EVERY} puts into preallocated arrays: over the samples around a stall, did the writer run
 *       (a fault or a spin inside the put), wait on the run queue (descheduled while runnable: the CPU was given to
 *       another thread), or neither (asleep: a lock or I/O wait; or its vCPU not running at all);</li>
 *   <li>a store-less probe thread that sleeps 1 ms in a loop and notes each gap over {@link #PROBE_GAP_NANOS}:
 *       a probe gap over a writer stall means the whole JVM stopped (a safepoint) or the machine did not run it
 *       (both cores busy, or the hypervisor), not something of the store's put path.</li>
 * </ul>
 * The writer also notes how late its schedule was when each slow put began (pacing catch-up: a writer behind its
 * pace puts back to back and has no idle time to give the store's other threads).
 *
 * <p>Thread-safety: {@link #sample} and {@link #lateness} from the writer thread only; the probe writes its own
 * arrays; {@link #log} after the writer and the probe stopped.
 */
final class StallCensus {
    static final boolean ENABLED = Boolean.getBoolean("bench.stallCensus");
    /** Puts between two schedstat reads: ~0.5 ms apart at 100-200k puts/s. */
    static final int SAMPLE_EVERY = 64;
    static final long PROBE_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int PROBE_CAPACITY = 20_000;

    private final long[] sampleAt;
    private final long[] sampleCpu;
    private final long[] sampleWait;
    private int samples;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(128);
    private FileChannel schedstat;

    private final long[] probeGapStart = new long[PROBE_CAPACITY];
    private final long[] probeGapEnd = new long[PROBE_CAPACITY];
    private volatile int probeGaps;
    private volatile boolean probing;
    private Thread probe;

    private final long[] slowLateness = new long[PutStallLog.CAPACITY];
    private int slowCount;

    StallCensus(long puts) {
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, puts / SAMPLE_EVERY + 4);
        sampleAt = new long[capacity];
        sampleCpu = new long[capacity];
        sampleWait = new long[capacity];
    }

    /** Starts the probe thread; call before the writer starts. */
    void startProbe() {
        probing = true;
        probe = new Thread(this::probe, "bench-stall-probe");
        probe.setDaemon(true);
        probe.start();
    }

    /** Stops the probe thread and waits for it. */
    void stopProbe() throws InterruptedException {
        probing = false;
        if (probe != null) {
            probe.join();
        }
    }

    private void probe() {
        long last = System.nanoTime();
        while (probing) {
            LockSupport.parkNanos(1_000_000);
            long now = System.nanoTime();
            int n = probeGaps;
            if (now - last > PROBE_GAP_NANOS + 1_000_000 && n < PROBE_CAPACITY) {
                probeGapStart[n] = last;
                probeGapEnd[n] = now;
                probeGaps = n + 1;
            }
            last = now;
        }
    }

    /** Opens the writer's own schedstat: call on the writer thread (thread-self resolves to the opener). */
    void openOnWriter() throws IOException {
        schedstat = FileChannel.open(Path.of("/proc/thread-self/schedstat"));
    }

    /** Reads the writer's schedstat when {@code call} is a sampling point. Allocates nothing. */
    void sample(long call) {
        if (call % SAMPLE_EVERY != 0 || schedstat == null || samples == sampleAt.length) {
            return;
        }
        try {
            readBuffer.clear();
            schedstat.read(readBuffer, 0);
            readBuffer.flip();
            long cpu = nextNumber(readBuffer);
            long wait = nextNumber(readBuffer);
            sampleAt[samples] = System.nanoTime();
            sampleCpu[samples] = cpu;
            sampleWait[samples] = wait;
            samples++;
        } catch (IOException e) {
            schedstat = null; // no schedstat here: the census runs on the probe alone
        }
    }

    private static long nextNumber(ByteBuffer b) {
        while (b.hasRemaining()) {
            byte c = b.get(b.position());
            if (c >= '0' && c <= '9') {
                break;
            }
            b.get();
        }
        long v = 0;
        while (b.hasRemaining()) {
            byte c = b.get();
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Notes how late the schedule was ({@code lateNanos}) when the slow put number {@code slowIndex} began. */
    void lateness(int slowIndex, long lateNanos) {
        if (slowIndex < slowLateness.length) {
            slowLateness[slowIndex] = lateNanos;
            slowCount = Math.max(slowCount, slowIndex + 1);
        }
    }

    /** Closes the schedstat handle. */
    void closeOnWriter() {
        try {
            if (schedstat != null) {
                schedstat.close();
            }
        } catch (IOException ignored) {
            // a /proc handle: nothing to lose
        }
    }

    /** How many stalls fell in each class. */
    record Counts(int stalls, int probeStopped, int writerRunning, int writerWaitingForCpu, int writerOffCpu,
                  int catchingUp) {
    }

    /** One line per put over 20 ms with its witnesses, then the census by class, which it returns. */
    Counts log(Logger log, String run, PutStallLog slowPuts, long stallNanos, long beginNanos) {
        int running = 0;
        int runQueue = 0;
        int asleepOrVcpu = 0;
        int probeStopped = 0;
        int catchingUp = 0;
        int stalls = 0;
        for (int i = 0; i < slowPuts.count(); i++) {
            long t0 = slowPuts.startedNanos(i);
            long took = slowPuts.tookNanos(i);
            if (took <= stallNanos) {
                continue;
            }
            stalls++;
            long t1 = t0 + took;
            int before = lastSampleAtOrBefore(t0);
            int after = firstSampleAtOrAfter(t1);
            long cpu = -1;
            long wait = -1;
            long span = -1;
            if (before >= 0 && after >= 0) {
                cpu = sampleCpu[after] - sampleCpu[before];
                wait = sampleWait[after] - sampleWait[before];
                span = sampleAt[after] - sampleAt[before];
            }
            long probeOverlap = probeOverlap(t0, t1);
            String kind;
            if (probeOverlap * 2 >= took) {
                kind = "probe-stopped-too";
                probeStopped++;
            } else if (cpu >= 0 && cpu * 2 >= took) {
                kind = "writer-running";
                running++;
            } else if (wait >= 0 && wait * 2 >= took) {
                kind = "writer-runnable-waiting";
                runQueue++;
            } else {
                kind = "writer-off-cpu";
                asleepOrVcpu++;
            }
            long late = i < slowCount ? slowLateness[i] : 0;
            if (late > TimeUnit.MILLISECONDS.toNanos(1)) {
                catchingUp++;
            }
            log.info("{}: stall {} ms at +{} s: {} (writer cpu {} ms, run-queue wait {} ms over {} ms sampled; "
                            + "probe stopped {} ms; schedule {} ms late)", run, ms(took),
                    String.format("%.3f", (t0 - beginNanos) / 1e9), kind, ms(cpu), ms(wait), ms(span),
                    ms(probeOverlap), ms(late));
        }
        log.info("{}: census of {} puts > {} ms: {} while the probe stopped too (JVM or machine), {} writer running, "
                        + "{} writer runnable but waiting for a CPU, {} writer off CPU (asleep or its vCPU not run); "
                        + "{} began with the schedule > 1 ms late; probe gaps > {} ms: {}; the run began at nanoTime {} "
                        + "(CLOCK_MONOTONIC, for perf -k CLOCK_MONOTONIC)", run, stalls,
                TimeUnit.NANOSECONDS.toMillis(stallNanos), probeStopped, running, runQueue, asleepOrVcpu, catchingUp,
                TimeUnit.NANOSECONDS.toMillis(PROBE_GAP_NANOS), probeGaps, beginNanos);
        return new Counts(stalls, probeStopped, running, runQueue, asleepOrVcpu, catchingUp);
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "?" : String.format("%.1f", nanos / 1e6);
    }

    private long probeOverlap(long t0, long t1) {
        long overlap = 0;
        for (int g = 0; g < probeGaps; g++) {
            long from = Math.max(t0, probeGapStart[g]);
            long to = Math.min(t1, probeGapEnd[g]);
            if (to > from) {
                overlap += to - from;
            }
        }
        return overlap;
    }

    private int lastSampleAtOrBefore(long t) {
        int lo = 0;
        int hi = samples - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (sampleAt[mid] <= t) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private int firstSampleAtOrAfter(long t) {
        int lo = 0;
        int hi = samples - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (sampleAt[mid] >= t) {
                found = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        return found;
    }
}
