package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.MessageFilter;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code get}: reads a queue from a queue offset, as a consumer would, and prints one line (or one JSON
 * object) per message. Reads in as many rounds as {@code --max} needs, since one read returns at most
 * {@code maxTransferCountOnMessageInMemory} messages.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "get", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read messages of a queue from a queue offset.",
        footer = {"", "Examples:",
                "  store-launcher --store /data/hangar get --topic Orders --queue 1",
                "  store-launcher --store st get --topic Orders --queue 1 --offset 500 --json"})
public final class GetCommand implements Callable<Integer> {
    /** The consumer group named in reads; the store keeps no per-group state for it. */
    static final String GROUP = "store-launcher";

    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--topic", required = true, paramLabel = "T", description = "Topic")
    private String topic;

    @Option(names = "--queue", required = true, paramLabel = "Q", description = "Queue id")
    private int queue;

    @Option(names = "--offset", paramLabel = "O", defaultValue = "0", description = "First queue offset (default ${DEFAULT-VALUE})")
    private long offset;

    @Option(names = "--max", paramLabel = "N", defaultValue = "32", description = "Most messages to print (default ${DEFAULT-VALUE})")
    private int max;

    @Option(names = "--json", description = "One JSON object per message")
    private boolean json;

    @Override
    public Integer call() {
        if (queue < 0 || offset < 0 || max < 1) {
            throw new LauncherException("--queue and --offset must be 0 or more and --max 1 or more", null,
                    StoreLauncher.EXIT_USAGE);
        }
        StoreConfig config = launcher.prepare("warn", StoreUse.READ);
        PrintWriter out = launcher.out();
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.READ)) {
            session.awaitDispatched();
            long next = offset;
            int printed = 0;
            GetMessageResult last = null;
            while (printed < max) {
                last = session.store().getMessage(GROUP, topic, queue, next, max - printed, MessageFilter.ALL);
                for (StoredMessage m : last.messages()) {
                    if (printed == max) {
                        break;
                    }
                    out.println(json ? MessageJson.toJson(m) : MessageJson.toText(m));
                    printed++;
                }
                if (last.messages().isEmpty() || last.nextBeginOffset() <= next) {
                    break;
                }
                next = last.nextBeginOffset();
            }
            if (printed == 0 && last != null && last.status() != GetMessageStatus.FOUND) {
                launcher.err().println("no messages: " + last.status() + " (queue " + topic + "/" + queue
                        + (last.maxOffset() <= last.minOffset() ? " is empty)"
                        : " has offsets " + last.minOffset() + " to " + (last.maxOffset() - 1) + ")"));
            }
        }
        return 0;
    }
}
