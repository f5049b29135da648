package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.command.BenchWorkload.Outcome;
import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.store.DefaultMessageStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bench}: writes {@code --messages} messages from {@code --threads} threads into the configured store,
 * then waits until every one is readable by queue offset (the queues' max offsets) and by key (a sample of
 * keys, and no dispatch lag), and prints throughput, latency and flush figures (see {@link BenchReport}).
 * Exits 1 when a put failed. *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Load-test the store: put throughput and latency, time until everything is readable.")
public final class BenchCommand implements Callable<Integer> {
    /** How long to wait for the last message to become readable after the puts. */
    static final Duration READABLE_WAIT = Duration.ofSeconds(120);
    /** Keys looked up to prove the index is complete. */
    static final int KEY_SAMPLES = 64;

    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--messages", paramLabel = "N", defaultValue = "100000", description = "Messages to put (default ${DEFAULT-VALUE})")
    private int messages;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "1024", description = "Body size (default ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", description = "Putting threads (default ${DEFAULT-VALUE})")
    private int threads;

    @Option(names = "--topics", paramLabel = "N", defaultValue = "1", description = "Topics (default ${DEFAULT-VALUE})")
    private int topics;

    @Option(names = "--queues", paramLabel = "N", defaultValue = "4", description = "Queues per topic (default ${DEFAULT-VALUE})")
    private int queues;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1", description = "Messages per put call (default ${DEFAULT-VALUE})")
    private int batch;

    @Option(names = "--json", description = "One JSON object")
    private boolean json;

    @Override
    public Integer call() throws InterruptedException {
        StoreConfig config = launcher.prepare("warn", StoreUse.CREATE);
        Plan plan = plan(config);
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.CREATE)) {
            DefaultMessageStore store = session.store();
            long[] baseline = maxOffsets(store, plan);
            long wallStart = System.currentTimeMillis();
            long start = System.nanoTime();
            Outcome outcome = new BenchWorkload(store, plan, StoreSession.putBound(config)).run();
            awaitReadable(store, plan, outcome, baseline, wallStart);
            long readableNanos = System.nanoTime() - start;
            BenchReport report = new BenchReport(plan, outcome, readableNanos, store.statsSnapshot(),
                    store.chosenProviders(), config, session.directory());
            if (json) {
                report.printJson(launcher.out());
            } else {
                report.printTable(launcher.out());
            }
            if (outcome.okMessages() < plan.messages()) {
                launcher.err().println("error: " + outcome.failedMessages(plan.messages()) + " of " + plan.messages()
                        + " messages were not put" + (outcome.firstError() == null ? "" : "; first: " + outcome.firstError()));
                return 1;
            }
        }
        return 0;
    }

    private Plan plan(StoreConfig config) {
        List<String> problems = new ArrayList<>();
        if (messages < 1) {
            problems.add("--messages must be 1 or more");
        }
        if (size < 1 || size > config.get(StoreConfigKeys.MAX_MESSAGE_SIZE)) {
            problems.add("--size must be from 1 to maxMessageSize (" + config.get(StoreConfigKeys.MAX_MESSAGE_SIZE) + ")");
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
        if (!problems.isEmpty()) {
            throw new LauncherException(String.join("; ", problems), null, StoreLauncher.EXIT_USAGE);
        }
        return new Plan(messages, size, threads, topics, queues, batch);
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

    /** Waits until every message put is readable by queue offset and a sample of them by key. */
    private static void awaitReadable(DefaultMessageStore store, Plan plan, Outcome outcome, long[] baseline,
                                      long wallStart) {
        List<Integer> pendingKeys = sampleMessages(plan, outcome);
        boolean readable = StoreSession.await(() -> {
            long[] now = maxOffsets(store, plan);
            for (int i = 0; i < now.length; i++) {
                if (now[i] < baseline[i] + outcome.okPerSlot()[i]) {
                    return false;
                }
            }
            if (store.dispatchBehindBytes() > 0) {
                return false;
            }
            // keys of earlier runs may be indexed too: only count hits stored during this run
            pendingKeys.removeIf(n -> !store.queryMessage(Plan.topic(plan.topicIndex(n / plan.batch())), Plan.key(n),
                    1, wallStart - 1000, Long.MAX_VALUE).messages().isEmpty());
            return pendingKeys.isEmpty();
        }, READABLE_WAIT);
        if (!readable) {
            throw new LauncherException("not every message became readable within " + READABLE_WAIT.toSeconds()
                    + " s: dispatch is " + store.dispatchBehindBytes() + " bytes behind, "
                    + pendingKeys.size() + " sampled keys not found");
        }
    }

    /** Up to {@link #KEY_SAMPLES} message numbers spread over the chunks that were put. */
    private static List<Integer> sampleMessages(Plan plan, Outcome outcome) {
        List<Integer> okChunks = new ArrayList<>();
        for (int c = 0; c < plan.chunks(); c++) {
            if (outcome.chunkOk()[c]) {
                okChunks.add(c);
            }
        }
        List<Integer> samples = new ArrayList<>();
        int step = Math.max(1, okChunks.size() / KEY_SAMPLES);
        for (int i = 0; i < okChunks.size() && samples.size() < KEY_SAMPLES; i += step) {
            int chunk = okChunks.get(i);
            samples.add(plan.firstMessage(chunk) + plan.messagesIn(chunk) - 1);
        }
        if (!okChunks.isEmpty()) {
            int last = okChunks.get(okChunks.size() - 1);
            samples.add(plan.firstMessage(last) + plan.messagesIn(last) - 1);
        }
        return samples;
    }
}
