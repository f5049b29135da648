package dev.hangar.launcher.command;

import dev.hangar.launcher.command.BenchWorkload.Outcome;
import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintWriter;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * The warm-up of {@code bench}, before the timed run and not counted in it: rounds of the same workload (same
 * threads, sizes, batch, rate, in-flight puts) of at most {@link #ROUND} and at most the run's message count each,
 * until a round spent less than {@link #SETTLED_COMPILE_SHARE} of its time in the JIT compiler
 * ({@link CompilationMXBean#getTotalCompilationTime()}, all compiler threads), at most {@code maxRounds} rounds
 * (bench/src/main/java/dev/hangar/bench/HaBench.java warms up by the same rule). Without it the first seconds of a
 * run measured C1 and C2 compiling the put path on the same cores. Each round is announced on stderr.
 *
 * <p>Its messages go to topics of their own ({@link #TOPIC_PREFIX}) with keys of their own, so the timed run's
 * queues and keys hold exactly what it put; it waits for their dispatch before the timed run starts.
 */
final class BenchWarmup {
    static final String TOPIC_PREFIX = "BenchWarmup";
    static final Duration ROUND = Duration.ofSeconds(1);
    static final double SETTLED_COMPILE_SHARE = 0.10;
    static final int DEFAULT_ROUNDS = 10;
    /** Keys built ahead for a round: its producer thread refills them (a round is not measured). */
    private static final int ROUND_KEY_CAPACITY = 8 * BenchKeys.BLOCK;

    /** What the warm-up did: its rounds, their messages and seconds, and whether the JIT had settled. */
    record Result(int rounds, long messages, double seconds, boolean settled) {
        static final Result NONE = new Result(0, 0, 0, true);
    }

    private BenchWarmup() {
    }

    /**
     * Runs the warm-up rounds; stops early when a put fails (the timed run will say why).
     *
     * @param maxRounds 0 for no warm-up
     */
    static Result run(DefaultMessageStore store, Plan plan, Duration putBound, int maxRounds, PrintWriter err)
            throws InterruptedException {
        if (maxRounds <= 0) {
            return Result.NONE;
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long messages = 0;
        double seconds = 0;
        for (int round = 1; round <= maxRounds; round++) {
            long compiledBefore = timed ? jit.getTotalCompilationTime() : 0;
            BenchWorkload workload = new BenchWorkload(store, plan, putBound, TOPIC_PREFIX,
                    "warmup" + round + "-key-", ROUND.toNanos(), ROUND_KEY_CAPACITY);
            workload.prepare();
            long start = System.nanoTime();
            Outcome outcome = workload.run();
            double roundSeconds = (System.nanoTime() - start) / 1e9;
            messages += outcome.attemptedMessages();
            seconds += roundSeconds;
            double share = timed ? (jit.getTotalCompilationTime() - compiledBefore) / 1000.0 / roundSeconds : 0;
            boolean settled = share < SETTLED_COMPILE_SHARE;
            err.printf(Locale.ROOT, "warm-up round %d (not counted): %,d messages in %.2f s, %,.0f msg/s, "
                            + "JIT compiling %.0f %% of it%s%n", round, outcome.attemptedMessages(), roundSeconds,
                    outcome.okMessages() / Math.max(roundSeconds, 1e-9), share * 100,
                    !timed ? " (no compilation time from this JVM)" : settled ? ": settled" : "");
            err.flush();
            if (outcome.failedMessages() > 0 || settled) {
                awaitDispatched(store);
                return new Result(round, messages, seconds, settled);
            }
        }
        awaitDispatched(store);
        return new Result(maxRounds, messages, seconds, false);
    }

    /** The timed run starts with nothing left to dispatch, so it does not pay for the warm-up's messages. */
    private static void awaitDispatched(DefaultMessageStore store) {
        StoreSession.await(() -> store.dispatchBehindBytes() <= 0, BenchCommand.READABLE_WAIT);
    }
}
