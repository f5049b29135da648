package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.spi.store.TagFilter;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.put.MessageValidator;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code consume}: reads a topic's queues (or one) as a consumer group from its committed offsets, prints the messages
 * and commits after each batch it printed, so a second run goes on where the first stopped. A queue the group never
 * committed is read from its min offset. A filtered read that skips messages commits past them too. Without
 * {@code --follow} it stops at the end of the queues; with it, it waits for more until SIGINT/SIGTERM, then shuts the
 * store down cleanly. One instance per invocation.
 */
@Command(name = "consume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read a topic as a consumer group from its committed offsets, print, and commit.",
        footer = {"", "Examples:",
                "  store-launcher --store /data/hangar consume --group billing --topic Orders",
                "  store-launcher consume --group audit --topic Orders --queue 1 --tag 'created||paid' --follow --json"})
public final class ConsumeCommand implements Callable<Integer> {
    private static final int BATCH = 32;
    private static final long FOLLOW_POLL_MILLIS = 100;

    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--group", required = true, paramLabel = "G", description = "Consumer group")
    private String group;

    @Option(names = "--topic", required = true, paramLabel = "T", description = "Topic")
    private String topic;

    @Option(names = "--queue", paramLabel = "Q", description = "Only this queue (default: every queue of the topic)")
    private Integer queue;

    @Option(names = "--tag", paramLabel = "EXPR", description = "Only messages with these tags: TagA||TagB (default *)")
    private String tag;

    @Option(names = "--max", paramLabel = "N", defaultValue = "0", description = "Stop after N messages (0 = no limit)")
    private long max;

    @Option(names = "--follow", description = "Wait for new messages until SIGINT/SIGTERM")
    private boolean follow;

    @Option(names = "--json", description = "One JSON object per message (as get --json)")
    private boolean json;

    private volatile boolean stopping;

    @Override
    public Integer call() {
        MessageFilter filter = checkArguments();
        StoreConfig config = launcher.prepare("warn", StoreUse.EXISTING);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopping = true;
            try {
                closed.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "consume-shutdown");
        if (follow) {
            Runtime.getRuntime().addShutdownHook(hook);
            // SIGINT/SIGTERM end a follow as a normal exit (status 0) that runs the hook above
            SignalExit.install();
        }
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.EXISTING)) {
            session.awaitDispatched();
            consume(session.store(), queues(session.store()), filter, launcher.out());
        } finally {
            closed.countDown();
            if (follow) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook is running and has just been released
                }
            }
        }
        return 0;
    }

    private MessageFilter checkArguments() {
        String problem = MessageValidator.checkTopic(group);
        if (problem != null) {
            throw new LauncherException("bad group: " + problem.replaceFirst("^topic", "group"), null,
                    StoreLauncher.EXIT_USAGE);
        }
        problem = MessageValidator.checkTopic(topic);
        if (problem != null || ConsumerOffsets.TOPIC.equals(topic)) {
            throw new LauncherException("bad topic: " + (problem != null ? problem : topic + " is internal"), null,
                    StoreLauncher.EXIT_USAGE);
        }
        if ((queue != null && queue < 0) || max < 0) {
            throw new LauncherException("--queue and --max must be 0 or more", null, StoreLauncher.EXIT_USAGE);
        }
        try {
            return TagFilter.parse(tag);
        } catch (IllegalArgumentException e) {
            throw new LauncherException(e.getMessage(), null, StoreLauncher.EXIT_USAGE);
        }
    }

    private List<Integer> queues(DefaultMessageStore store) {
        TopicCatalog catalog = new TopicCatalog(store);
        List<Integer> all = catalog.topics().getOrDefault(topic, List.of()).stream()
                .map(TopicCatalog.QueueInfo::queueId).toList();
        if (all.isEmpty()) {
            throw new LauncherException("unknown topic " + topic);
        }
        if (queue != null && !all.contains(queue)) {
            throw new LauncherException("topic " + topic + " has no queue " + queue + " (its queues: " + all + ")");
        }
        return queue != null ? List.of(queue) : all;
    }

    private void consume(DefaultMessageStore store, List<Integer> queueIds, MessageFilter filter, PrintWriter out) {
        long printed = 0;
        while (!stopping) {
            boolean moved = false;
            for (int q : queueIds) {
                long min = store.getMinOffsetInQueue(topic, q);
                long offset = Math.max(store.consumerOffsets().committed(group, topic, q).orElse(min), min);
                int want = max == 0 ? BATCH : (int) Math.min(BATCH, max - printed);
                GetMessageResult r = store.getMessage(group, topic, q, offset, want, filter);
                long next = r.nextBeginOffset();
                for (StoredMessage m : r.messages()) {
                    if (max > 0 && printed == max) {
                        next = m.queueOffset();
                        break;
                    }
                    out.println(json ? MessageJson.toJson(m) : MessageJson.toText(m));
                    printed++;
                }
                out.flush();
                if (next > offset) {
                    commit(store, q, next);
                    moved = true;
                }
                if (max > 0 && printed == max) {
                    return;
                }
            }
            if (!moved) {
                if (!follow) {
                    return;
                }
                sleep();
            }
        }
    }

    private void commit(DefaultMessageStore store, int q, long next) {
        OffsetCommitResult c = store.consumerOffsets().commit(group, topic, q, next);
        if (!c.isCommitted()) {
            throw new LauncherException("the commit of offset " + next + " for queue " + q + " failed: " + c.reason());
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(FOLLOW_POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
