package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code topics}: the topics consumers can read (the store's internal topics left out), each with its queues' offsets,
 * message counts and first and last store times. Opens the store read-only. One instance per invocation.
 */
@Command(name = "topics", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the topics with their queues.",
        footer = {"", "Examples:", "  store-launcher --store /data/hangar topics", "  store-launcher topics --json"})
public final class TopicsCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object per topic: {topic, messages, queues:[...]}")
    private boolean json;

    @Override
    public Integer call() {
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
}
