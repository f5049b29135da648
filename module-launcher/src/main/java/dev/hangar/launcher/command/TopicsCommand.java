package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.put.MessageValidator;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code topics}: the topics consumers can read (the store's internal topics left out), each with its queues' offsets,
 * message counts and first and last store times. Opens the store read-only. With {@code --delete T --confirm T} it
 * opens the store for writing instead and deletes topic T's queues ({@link DefaultMessageStore#deleteTopic}); the
 * confirmation must repeat the name. One instance per invocation.
 */
@Command(name = "topics", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the topics with their queues.",
        footer = {"", "Examples:", "  store-launcher --store /data/hangar topics", "  store-launcher topics --json",
                "  store-launcher topics --delete Orders --confirm Orders"})
public final class TopicsCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object per topic: {topic, messages, queues:[...]}")
    private boolean json;

    @Option(names = "--delete", paramLabel = "TOPIC", description = "Delete this topic's queues and its groups' "
            + "offsets (the CommitLog keeps the bytes until retention); needs --confirm with the same name")
    private String delete;

    @Option(names = "--confirm", paramLabel = "TOPIC", description = "The topic name again, to confirm --delete")
    private String confirm;

    @Override
    public Integer call() {
        if (delete != null || confirm != null) {
            return deleteTopic();
        }
        StoreConfig config = launcher.prepare("warn", StoreUse.READ);
        PrintWriter out = launcher.out();
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.READ)) {
            TopicCatalog catalog = new TopicCatalog(session.store());
            for (String topic : catalog.topics().keySet()) {
                List<TopicCatalog.QueueInfo> queues = catalog.queues(topic);
                if (json) {
                    out.println(JsonWriter.write(TopicCatalog.topicJson(topic, queues)));
                    continue;
                }
                out.println(topic + "  " + queues.size() + " queue" + (queues.size() == 1 ? "" : "s") + ", "
                        + queues.stream().mapToLong(TopicCatalog.QueueInfo::messages).sum() + " messages");
                for (TopicCatalog.QueueInfo q : queues) {
                    out.println("  queue " + q.queueId() + ": offsets " + q.minOffset() + " to " + q.maxOffset() + " ("
                            + q.messages() + " messages" + (q.messages() == 0 ? ")" : ", stored "
                            + Instant.ofEpochMilli(q.firstStoreTime()) + " to " + Instant.ofEpochMilli(q.lastStoreTime())
                            + ")"));
                }
            }
        }
        return 0;
    }

    private int deleteTopic() {
        if (delete == null) {
            throw usage("--confirm goes with --delete TOPIC");
        }
        String problem = MessageValidator.checkTopic(delete);
        if (problem != null) {
            throw usage("bad topic: " + problem);
        }
        if (!TopicCatalog.isUserTopic(delete)) {
            throw usage("topic " + delete + " is the store's own and cannot be deleted");
        }
        if (!delete.equals(confirm)) {
            throw usage("deleting topic " + delete + " needs --confirm " + delete
                    + " (the confirmation repeats the topic name)");
        }
        StoreConfig config = launcher.prepare("warn", StoreUse.EXISTING);
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.EXISTING)) {
            int queues;
            try {
                queues = session.store().deleteTopic(delete);
            } catch (NoSuchElementException e) {
                throw new LauncherException("unknown topic " + delete);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new LauncherException(e.getMessage());
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("topic", delete);
            result.put("deleted", true);
            result.put("queues", queues);
            launcher.out().println(json ? JsonWriter.write(result)
                    : "deleted topic " + delete + ": " + queues + " queue" + (queues == 1 ? "" : "s"));
        }
        return 0;
    }

    private static LauncherException usage(String message) {
        return new LauncherException(message, null, StoreLauncher.EXIT_USAGE);
    }
}
