package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.QueryMessageResult;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code query}: finds the messages of a topic by key through the index, oldest first.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "query", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Find messages of a topic by key.",
        footer = {"", "Examples:",
                "  store-launcher --store st query --topic Orders --key o-17",
                "  store-launcher --store st query --topic Orders --key o-17 --max 5 --json"})
public final class QueryCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--topic", required = true, paramLabel = "T", description = "Topic")
    private String topic;

    @Option(names = "--key", required = true, paramLabel = "K", description = "Message key (or unique key)")
    private String key;

    @Option(names = "--max", paramLabel = "N", description = "Most messages to print (default: defaultQueryMaxNum)")
    private Integer max;

    @Option(names = "--json", description = "One JSON object per message")
    private boolean json;

    @Override
    public Integer call() {
        if (max != null && max < 1) {
            throw new LauncherException("--max must be 1 or more", null, StoreLauncher.EXIT_USAGE);
        }
        StoreConfig config = launcher.prepare("warn", StoreUse.READ);
        int limit = max != null ? max : config.get(StoreConfigKeys.DEFAULT_QUERY_MAX_NUM);
        PrintWriter out = launcher.out();
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.READ)) {
            session.awaitDispatched();
            QueryMessageResult result = session.store().queryMessage(topic, key, limit, 0, Long.MAX_VALUE);
            for (StoredMessage m : result.messages()) {
                out.println(json ? MessageJson.toJson(m) : MessageJson.toText(m));
            }
            if (result.messages().isEmpty()) {
                launcher.err().println("no message of topic " + topic + " has the key " + key);
            }
        }
        return 0;
    }
}
