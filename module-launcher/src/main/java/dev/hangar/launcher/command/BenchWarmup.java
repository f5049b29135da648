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
 * <p>Each round runs on a new store in a temporary directory beside the benchmarked one, deleted after the round, as
 * bench/run.sh runs every round on a store it then deletes; the same topics and keys as the timed run, with smaller
 * files ({@link #roundConfig}). The JIT compiles what it sees: a store's start, its first puts to a topic, a roll
 * to a new file are all in the timed run, so each round has them too. A last round, once the JIT has settled, runs
 * as long as the timed run is expected to (at most {@link #PAGE_CACHE_ROUND}), and its store is deleted right before
 * the clock: the timed run's new page-cache pages then reuse the memory it freed, as every bench/run.sh round after
 * the first reuses the memory of the round before it. Measured on this project's VMs, whose guests give free memory
 * back to the host: 1 writer, 2 000 000 x 1 KiB, 311-317k msg/s after 1 s rounds only, 376-560k after 8 s rounds
 * (docs/BENCHMARKS.md, "The launcher's bench against bench/run.sh"). So the benchmarked store holds exactly
 * what the timed run put, and the timed run's new page-cache pages reuse the memory the warm-up's files just freed
 * rather than memory a virtual machine may have handed back to its host (which costs several times as much per page
 * to touch again: docs/PERFORMANCE.md, section 40).
 */
final class BenchWarmup {
    /** The warm-up store's CommitLog files: 64 MiB, a few rolls per round (or 8 messages, when larger). */
    static final int WARMUP_COMMIT_LOG_FILE_BYTES = 64 << 20;
    /** The warm-up store's ConsumeQueue files: 15 000 units. */
    static final int WARMUP_CONSUME_QUEUE_FILE_BYTES = 15_000 * 20;
    static final String DIRECTORY_PREFIX = ".bench-warmup-";
    static final Duration ROUND = Duration.ofSeconds(1);
    static final double SETTLED_COMPILE_SHARE = 0.10;
    static final int DEFAULT_ROUNDS = 10;
    /** The longest page-cache round (the last one, as long as the timed run is expected to be). */
    static final Duration PAGE_CACHE_ROUND = Duration.ofSeconds(30);
    /** Keys built ahead for a round: its producer thread refills them (a round is not measured). */
    private static final int ROUND_KEY_CAPACITY = 8 * BenchKeys.BLOCK;

    /** What the warm-up did: its rounds, their messages and seconds, and whether the JIT had settled. */
    record Result(int rounds, long messages, double seconds, boolean settled) {
        static final Result NONE = new Result(0, 0, 0, true);
    }

    private BenchWarmup() {
    }

    /**
     * Runs the warm-up rounds, each on a new temporary store configured as {@code config} and deleted after it; stops
     * early when a put fails (the timed run will say why).
     *
     * @param maxRounds 0 for no warm-up
     */
    static Result run(StoreLauncher launcher, StoreConfig config, Plan plan, Duration putBound, int maxRounds,
                      PrintWriter err) throws InterruptedException {
        if (maxRounds <= 0) {
            return Result.NONE;
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long messages = 0;
        double seconds = 0;
        boolean settled = false;
        int round = 0;
        Outcome last = null;
        while (round < maxRounds && !settled) {
            round++;
            long compiledBefore = timed ? jit.getTotalCompilationTime() : 0;
            long start = System.nanoTime();
            last = round(launcher, config, plan, putBound, round, ROUND.toNanos());
            double roundSeconds = (System.nanoTime() - start) / 1e9;
            messages += last.attemptedMessages();
            seconds += roundSeconds;
            double share = timed ? (jit.getTotalCompilationTime() - compiledBefore) / 1000.0 / roundSeconds : 0;
            settled = share < SETTLED_COMPILE_SHARE;
            err.printf(Locale.ROOT, "warm-up round %d (not counted, a new temporary store): %,d messages in %.2f s "
                            + "with the store's start and close, %,.0f msg/s, JIT compiling %.0f %% of it%s%n", round,
                    last.attemptedMessages(), roundSeconds, rate(last), share * 100,
                    !timed ? " (no compilation time from this JVM)" : settled ? ": settled" : "");
            err.flush();
            if (last.failedMessages() > 0) {
                return new Result(round, messages, seconds, settled);
            }
        }
        // the page-cache round: as long as the timed run will be (at most PAGE_CACHE_ROUND), its store deleted right
        // before the clock, so the timed run's new pages reuse memory just freed, as each bench/run.sh round reuses
        // what the round before it freed; without it a fresh process pays for memory a VM handed back to its host
        long expected = plan.bounded() ? (long) (plan.messages() / Math.max(rate(last), 1.0) * 1e9)
                : plan.durationSeconds() * 1_000_000_000L;
        long limit = Math.max(ROUND.toNanos(), Math.min(expected, PAGE_CACHE_ROUND.toNanos()));
        long start = System.nanoTime();
        Outcome pageCache = round(launcher, config, plan, putBound, round + 1, limit);
        double roundSeconds = (System.nanoTime() - start) / 1e9;
        err.printf(Locale.ROOT, "warm-up page-cache round (not counted, deleted right before the clock): %,d messages "
                + "in %.2f s, %,.0f msg/s%n", pageCache.attemptedMessages(), roundSeconds, rate(pageCache));
        err.flush();
        return new Result(round, messages + pageCache.attemptedMessages(), seconds + roundSeconds, settled);
    }

    private static double rate(Outcome outcome) {
        return outcome.okMessages() / Math.max(outcome.putNanos() / 1e9, 1e-9);
    }

    /**
     * One round on a store of its own: a store's first puts take paths (a new topic, queue, file) that code compiled
     * on an older store has not seen, and the JIT compiles again when they come; a round that starts a store lets
     * that happen in the warm-up, not in the timed run, which starts a store too.
     */
    private static Outcome round(StoreLauncher launcher, StoreConfig config, Plan plan, Duration putBound, int round,
                                 long limitNanos) throws InterruptedException {
        Path directory = temporaryDirectory(launcher.storePath());
        try {
            try (StoreSession session = StoreSession.open(launcher, roundConfig(config, plan, directory),
                    StoreUse.CREATE, directory)) {
                BenchWorkload workload = new BenchWorkload(session.store(), plan, putBound,
                        BenchWorkload.TOPIC_PREFIX, Plan.KEY_PREFIX, limitNanos, ROUND_KEY_CAPACITY);
                workload.prepare();
                return workload.run();
            }
        } finally {
            deleteRecursively(directory);
        }
    }

    /**
     * The round's store: the benchmarked store's configuration in {@code directory}, with CommitLog and ConsumeQueue
     * files small enough that a round of a second rolls over to new files several times. A long timed run rolls
     * over (a 1 GiB CommitLog file every few seconds), and code compiled without a roll in its profile was thrown
     * away and compiled again at the first one, inside the timed run.
     */
    static StoreConfig roundConfig(StoreConfig config, Plan plan, Path directory) {
        long smallLog = Math.max(WARMUP_COMMIT_LOG_FILE_BYTES, (8L * (plan.size() + 4096) + 4095) / 4096 * 4096);
        int commitLog = (int) Math.min(config.commitLogFileSize(), Math.min(smallLog, Integer.MAX_VALUE / 4096 * 4096));
        int consumeQueue = Math.min(config.consumeQueueFileSize(), WARMUP_CONSUME_QUEUE_FILE_BYTES);
        return config.toBuilder()
                .set(StoreConfigKeys.STORE_PATH_ROOT_DIR.name(), directory.toString(), "bench warm-up")
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG.name(), Integer.toString(commitLog), "bench warm-up")
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE.name(), Integer.toString(consumeQueue),
                        "bench warm-up")
                .build();
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
