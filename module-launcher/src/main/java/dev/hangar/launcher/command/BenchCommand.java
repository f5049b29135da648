package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.bench.HttpBench;
import dev.hangar.launcher.command.BenchWorkload.Outcome;
import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.store.DefaultMessageStore;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bench}: writes {@code --messages} messages (or for {@code --duration} seconds) from {@code --threads}
 * threads into the configured store, optionally in batches ({@code --batch}) and at a fixed arrival rate
 * ({@code --rate}), then waits until every one is readable by queue offset (the queues' max offsets) and by key (a
 * sample of keys, and no dispatch lag), and prints throughput, latency and flush figures (see {@link BenchReport}).
 * Before the clock starts it warms up ({@link BenchWarmup}, announced, not counted) and builds the run's keys
 * ({@link BenchKeys}); the report says how much of the put threads' time was still the bench's own.
 * On a terminal a progress line is refreshed every second on stderr. Exits 1 when a put failed.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load-test the store: put throughput and latency, time until everything is readable.",
                "With --rate, latency is measured from each message's intended send time (no coordinated omission).",
                "Warms up first (not counted, announced on stderr) and builds the messages before the clock."},
        footer = {"", "Examples:",
                "  store-launcher --store /tmp/b bench --messages 1000000 --threads 8 --batch 16",
                "  store-launcher --store /tmp/b -DflushDiskType=SYNC_FLUSH \\",
                "      bench --rate 20000 --duration 30 --json",
                "  store-launcher --store b -DputMessageLock=spin -DmappedFile=transient-pool \\",
                "      bench --threads 16"})
public final class BenchCommand implements Callable<Integer> {
    /** How long to wait for the last message to become readable after the puts. */
    static final Duration READABLE_WAIT = Duration.ofSeconds(120);
    static final int DEFAULT_MESSAGES = 100_000;

    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--messages", paramLabel = "N", description = "Messages to put (default " + DEFAULT_MESSAGES
            + " unless --duration is given)")
    private Integer messages;

    @Option(names = "--duration", paramLabel = "S", description = "Put for this many seconds instead of a number of messages")
    private Integer duration;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "1024", description = "Body size (default ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", description = "Putting threads (default ${DEFAULT-VALUE})")
    private int threads;

    @Option(names = "--topics", paramLabel = "N", defaultValue = "1", description = "Topics (default ${DEFAULT-VALUE})")
    private int topics;

    @Option(names = "--queues", paramLabel = "N", defaultValue = "4", description = "Queues per topic (default ${DEFAULT-VALUE})")
    private int queues;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1", description = "Messages per put call (putMessages; default ${DEFAULT-VALUE})")
    private int batch;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "0",
            description = "Fixed arrival rate in messages/s across all threads; 0 = as fast as possible (default)")
    private int rate;

    @Option(names = "--inflight", paramLabel = "N", defaultValue = "1",
            description = "asyncPutMessage calls each thread keeps outstanding (default ${DEFAULT-VALUE}: closed loop)")
    private int inflight;

    @Option(names = "--warmup", paramLabel = "ROUNDS", defaultValue = "" + BenchWarmup.DEFAULT_ROUNDS,
            description = "Most warm-up rounds (1 s each, each on a new temporary store, not counted) before the timed "
                    + "run; they end once a round spends under 10 %% of its time in the JIT compiler, then one round as "
                    + "long as the run (at most 30 s) readies the page cache. 0 = no warm-up (default ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--json", description = "One JSON object")
    private boolean json;

    @Option(names = "--commit-groups", paramLabel = "N", defaultValue = "0",
            description = "Consumer groups committing offsets while the puts run (summary on stderr; default none)")
    private int commitGroups;

    @Option(names = "--commit-interval", paramLabel = "MS", defaultValue = "100",
            description = "Each group commits every MS ms; 0 = back to back (default ${DEFAULT-VALUE})")
    private int commitInterval;

    @Option(names = "--http", paramLabel = "URL", description = "Benchmark a running serve at URL instead of a store: "
            + "--threads keep-alive connections, --size, --batch (NDJSON; 100 when 1), --duration S per phase (default 10)")
    private String http;

    @Override
    public Integer call() throws InterruptedException {
        if (http != null) {
            return HttpBench.command(http, threads, size, batch == 1 ? 100 : batch, duration == null ? 10 : duration,
                    json, launcher.out(), launcher.err());
        }
        // the options are checked before prepare() creates the store's log folder
        Plan plan = plan(launcher.config());
        StoreConfig config = launcher.prepare("warn", StoreUse.CREATE);
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.CREATE)) {
            DefaultMessageStore store = session.store();
            FlushStatistics flush = store.flushStatistics();
            // opened first, so a store that cannot open fails before the warm-up's seconds
            BenchWarmup.Result warm = BenchWarmup.run(launcher, config, plan, StoreSession.putBound(config), warmup,
                    launcher.err());
            long prepareStart = System.nanoTime();
            BenchWorkload workload = new BenchWorkload(store, plan, StoreSession.putBound(config));
            workload.prepare();
            long prepareNanos = System.nanoTime() - prepareStart;
            long keysBeforeClock = workload.keysBuilt();
            long[] baseline = maxOffsets(store, plan);
            long flushesBefore = flush.flushes();
            long compiledBefore = compilationMillis();
            long wallStart = System.currentTimeMillis();
            long start = System.nanoTime();
            BenchCommitLoad commits = commitGroups == 0 ? null
                    : new BenchCommitLoad(store, Plan.topic(0), plan.queues(), commitGroups, commitInterval);
            Outcome outcome;
            try (BenchProgress progress = new BenchProgress(System.console() != null, launcher.err(),
                    workload::okMessagesSoFar, store::dispatchBehindBytes, flush::flushes, plan.size())) {
                if (commits != null) {
                    commits.start();
                }
                try {
                    outcome = workload.run();
                } finally {
                    if (commits != null) {
                        commits.stop();
                    }
                }
                awaitReadable(store, plan, outcome, baseline, wallStart, readChecks(store, launcher));
            }
            long readableNanos = System.nanoTime() - start;
            long compiledDuring = compilationMillis() - compiledBefore;
            BenchReport report = new BenchReport(plan, outcome, readableNanos, flush.flushes() - flushesBefore,
                    store.chosenProviders(), config, session.directory(),
                    new BenchReport.Preparation(warm, prepareNanos, keysBeforeClock, workload.keyProducerCpuNanos(),
                            compiledDuring));
            if (json) {
                report.printJson(launcher.out());
            } else {
                report.printTable(launcher.out());
            }
            if (commits != null) {
                launcher.err().println(commits.summary());
            }
            if (outcome.failedMessages() > 0) {
                launcher.err().println("error: " + outcome.failedMessages() + " of " + outcome.attemptedMessages()
                        + " messages were not put" + (outcome.firstError() == null ? "" : "; first: " + outcome.firstError()));
                return 1;
            }
        }
        return 0;
    }

    private Plan plan(StoreConfig config) {
        List<String> problems = new ArrayList<>();
        if (messages != null && duration != null) {
            problems.add("give --messages or --duration, not both");
        }
        if (messages != null && messages < 1) {
            problems.add("--messages must be 1 or more");
        }
        if (duration != null && (duration < 1 || duration > 86_400)) {
            problems.add("--duration must be from 1 to 86400 seconds");
        }
        int maxSize = config.get(StoreConfigKeys.MAX_MESSAGE_SIZE);
        if (size < 1 || size > maxSize) {
            problems.add("--size must be from 1 to maxMessageSize (" + maxSize + ")");
        }
        if (threads < 1 || threads > 1024) {
            problems.add("--threads must be from 1 to 1024");
        }
        if (topics < 1 || topics > 10_000) {
            problems.add("--topics must be from 1 to 10000");
        }
        if (queues < 1 || queues > 1024) {
            problems.add("--queues must be from 1 to 1024");
        }
        if (batch < 1 || batch > 1024) {
            problems.add("--batch must be from 1 to 1024");
        }
        if (inflight < 1 || inflight > 65_536) {
            problems.add("--inflight must be from 1 to 65536");
        }
        if (commitGroups < 0 || commitGroups > 100_000 || commitInterval < 0) {
            problems.add("--commit-groups must be from 0 to 100000 and --commit-interval 0 or more");
        }
        if (rate < 0) {
            problems.add("--rate must be 0 (as fast as possible) or more");
        }
        if (!problems.isEmpty()) {
            throw new LauncherException(String.join("; ", problems), null, StoreLauncher.EXIT_USAGE);
        }
        int count = duration != null ? 0 : messages != null ? messages : DEFAULT_MESSAGES;
        return new Plan(count, duration != null ? duration : 0, size, threads, topics, queues, batch, rate, inflight);
    }

    /** The JIT's compilation time so far, all compiler threads; -1 when this JVM does not say. */
    private static long compilationMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    private static long[] maxOffsets(DefaultMessageStore store, Plan plan) {
        long[] offsets = new long[plan.topics() * plan.queues()];
        for (int t = 0; t < plan.topics(); t++) {
            for (int q = 0; q < plan.queues(); q++) {
                offsets[plan.slot(t, q)] = store.getMaxOffsetInQueue(Plan.topic(t), q);
            }
        }
        return offsets;
    }

    /** Which reads the configured dispatchers can answer: by queue offset (a ConsumeQueue), by key (an index). */
    private record ReadChecks(boolean byQueue, boolean byKey) {
    }

    /** The reads to wait for; says on stderr which ones the dispatchers cannot answer and so are not waited for. */
    private static ReadChecks readChecks(DefaultMessageStore store, StoreLauncher launcher) {
        ReadChecks checks = new ReadChecks(store.dispatcherView(ConsumeQueueView.class).isPresent(),
                store.dispatcherView(KeyIndexView.class).isPresent());
        if (!checks.byQueue() || !checks.byKey()) {
            launcher.err().println("note: the dispatchers (" + String.join(",", store.dispatcherNames()) + ") offer no "
                    + (checks.byQueue() ? "key index" : checks.byKey() ? "ConsumeQueue" : "ConsumeQueue or key index")
                    + ": the run is timed until every message is dispatched"
                    + (checks.byQueue() ? " and readable by queue offset" : checks.byKey() ? " and a sample readable by key" : ""));
            launcher.err().flush();
        }
        return checks;
    }

    /**
     * Waits until everything put is dispatched, every message readable by queue offset and a sample of them by
     * key - each read only when a dispatcher answers it.
     */
    private static void awaitReadable(DefaultMessageStore store, Plan plan, Outcome outcome, long[] baseline,
                                      long wallStart, ReadChecks checks) {
        List<Long> pendingChunks = new ArrayList<>(checks.byKey() ? outcome.sampleChunks() : List.of());
        boolean readable = StoreSession.await(() -> {
            // cheapest first: with thousands of queues a pass over their max offsets takes a core from dispatch
            if (store.dispatchBehindBytes() > 0) {
                return false;
            }
            long[] now = checks.byQueue() ? maxOffsets(store, plan) : new long[0];
            for (int i = 0; i < now.length; i++) {
                if (now[i] < baseline[i] + outcome.okPerSlot()[i]) {
                    return false;
                }
            }
            if (store.dispatchBehindBytes() > 0) {
                return false;
            }
            // keys of earlier runs may be indexed too: only count hits stored during this run
            pendingChunks.removeIf(chunk -> !store.queryMessage(Plan.topic(plan.topicIndex(chunk)),
                    Plan.key(plan.firstMessage(chunk) + plan.messagesIn(chunk) - 1), 1, wallStart - 1000,
                    Long.MAX_VALUE).messages().isEmpty());
            return pendingChunks.isEmpty();
        }, READABLE_WAIT);
        if (!readable) {
            throw new LauncherException("not every message became readable within " + READABLE_WAIT.toSeconds()
                    + " s: dispatch is " + store.dispatchBehindBytes() + " bytes behind, "
                    + pendingChunks.size() + " sampled keys not found");
        }
    }
}
