package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.command.BenchWorkload.Outcome;
import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The warm-up of {@code bench}, before the timed run and not counted in it: rounds of the same workload (same
 * threads, sizes, batch, rate, in-flight puts, same configuration) of at most {@link #ROUND} and at most the run's
 * message count each, until a round spent less than {@link #SETTLED_COMPILE_SHARE} of its time in the JIT compiler
 * ({@link CompilationMXBean#getTotalCompilationTime()}, all compiler threads), at most {@code maxRounds} rounds
 * (bench/src/main/java/dev/hangar/bench/HaBench.java warms up by the same rule). Without it the first seconds of a
 * run measured C1 and C2 compiling the put path on the same cores. Each round is announced on stderr.
 *
 * <p>The rounds run on a store of their own in a temporary directory beside the benchmarked one, deleted before the
 * timed run starts, as bench/run.sh warms up on a store it then deletes. So the benchmarked store holds exactly
 * what the timed run put, and the timed run's new page-cache pages reuse the memory the warm-up's files just freed
 * rather than memory a virtual machine may have handed back to its host (which costs several times as much per page
 * to touch again: docs/PERFORMANCE.md, section 40).
 */
final class BenchWarmup {
    static final String TOPIC_PREFIX = "BenchWarmup";
    static final String DIRECTORY_PREFIX = ".bench-warmup-";
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
     * Runs the warm-up rounds on a temporary store configured as {@code config}, then deletes it; stops early when a
     * put fails (the timed run will say why).
     *
     * @param maxRounds 0 for no warm-up
     */
    static Result run(StoreLauncher launcher, StoreConfig config, Plan plan, Duration putBound, int maxRounds,
                      PrintWriter err) throws InterruptedException {
        if (maxRounds <= 0) {
            return Result.NONE;
        }
        Path directory = temporaryDirectory(launcher.storePath());
        try {
            StoreConfig warmConfig = config.toBuilder().set(StoreConfigKeys.STORE_PATH_ROOT_DIR.name(),
                    directory.toString(), "bench warm-up").build();
            err.println("warm-up on a temporary store at " + directory + " (deleted before the timed run)");
            try (StoreSession session = StoreSession.open(launcher, warmConfig, StoreUse.CREATE, directory)) {
                return rounds(session, plan, putBound, maxRounds, err);
            }
        } finally {
            deleteRecursively(directory);
        }
    }

    private static Result rounds(StoreSession session, Plan plan, Duration putBound, int maxRounds, PrintWriter err)
            throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long messages = 0;
        double seconds = 0;
        for (int round = 1; round <= maxRounds; round++) {
            long compiledBefore = timed ? jit.getTotalCompilationTime() : 0;
            BenchWorkload workload = new BenchWorkload(session.store(), plan, putBound, TOPIC_PREFIX,
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
                return new Result(round, messages, seconds, settled);
            }
        }
        return new Result(maxRounds, messages, seconds, false);
    }

    /**
     * A new directory beside the benchmarked store (so on the same file system), or in the system's temporary
     * folder when the store's parent is not writable.
     */
    static Path temporaryDirectory(Path store) {
        Path parent = store.toAbsolutePath().normalize().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
                return Files.createTempDirectory(parent, DIRECTORY_PREFIX);
            }
        } catch (IOException | SecurityException e) {
            // fall back to the temporary folder below
        }
        try {
            return Files.createTempDirectory(DIRECTORY_PREFIX);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the warm-up store", e);
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the warm-up store at " + directory, e);
        }
    }
}
