package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.MessageRequest;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code put}: appends one message (or one per stdin line with {@code --lines}) and prints, for each, its
 * status, msgId, queue offset and commit-log offset. Exits 1 when any put is refused (e.g. an illegal topic).
 * With {@code --lines} each line is put as soon as it is read, so a long stream is never held in memory.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "put", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Put a message (or one message per stdin line with --lines).",
        footer = {"", "Examples:",
                "  store-launcher --store st put --topic Orders --queue 1 --key o-17 --tag new \\",
                "      --property region=eu --body '{\"id\":17}'",
                "  tail -f events.log | store-launcher --store st put --topic Events --lines",
                "  store-launcher --store st put --topic Images --body-file cat.png --json"})
public final class PutCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--topic", required = true, paramLabel = "T", description = "Topic")
    private String topic;

    @Option(names = "--queue", paramLabel = "Q", defaultValue = "0", description = "Queue id (default ${DEFAULT-VALUE})")
    private int queue;

    @Option(names = "--key", paramLabel = "K", description = "A message key, indexed for `query` (repeatable)")
    private List<String> keys = new ArrayList<>();

    @Option(names = "--tag", paramLabel = "TAG", description = "The message tag")
    private String tag;

    @Option(names = "--property", paramLabel = "k=v", description = "A user property (repeatable)")
    private Map<String, String> properties = new LinkedHashMap<>();

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Body body;

    @Option(names = "--json", description = "One JSON object per message")
    private boolean json;

    /** Where the body comes from: exactly one of these. */
    static final class Body {
        @Option(names = "--body", paramLabel = "TEXT", description = "Body text (UTF-8)")
        String text;

        @Option(names = "--body-file", paramLabel = "F", description = "Body read from a file, as is")
        Path file;

        @Option(names = "--lines", description = "One message per line read from stdin")
        boolean lines;
    }

    @Override
    public Integer call() throws IOException {
        MessageRequest request = request();
        StoreConfig config = launcher.prepare("warn", StoreUse.CREATE);
        byte[] single = singleBody();
        PrintWriter out = launcher.out();
        int refused = 0;
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.CREATE)) {
            Duration bound = StoreSession.putBound(config);
            if (single != null) {
                refused += put(session, request.toMessage(single), bound, out);
            } else {
                BufferedReader reader = new BufferedReader(new InputStreamReader(launcher.stdin(), StandardCharsets.UTF_8));
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    refused += put(session, request.toMessage(line.getBytes(StandardCharsets.UTF_8)), bound, out);
                }
            }
            // let the ConsumeQueue and the index catch up, so the next command reads what was just put
            StoreSession.await(() -> session.store().dispatchBehindBytes() <= 0, StoreSession.DISPATCH_WAIT);
        }
        return refused == 0 ? 0 : 1;
    }

    /** Puts one message and reports it; 1 when it was refused. */
    private int put(StoreSession session, Message message, Duration bound, PrintWriter out) {
        PutMessageResult result = StoreSession.answer(session.store().asyncPutMessage(message), bound);
        report(out, result);
        return result.isOk() ? 0 : 1;
    }

    /** The checked request, or a usage error (exit 2) naming what is wrong, before the store is opened. */
    private MessageRequest request() {
        try {
            return new MessageRequest(topic, queue, keys, tag, properties);
        } catch (MessageRequest.InvalidRequestException e) {
            throw usage(e.getMessage());
        }
    }

    private static LauncherException usage(String message) {
        return new LauncherException(message, null, StoreLauncher.EXIT_USAGE);
    }

    /** The body of {@code --body} or {@code --body-file}; null with {@code --lines}. */
    private byte[] singleBody() throws IOException {
        if (body.text != null) {
            return body.text.getBytes(StandardCharsets.UTF_8);
        }
        if (body.file != null) {
            if (!Files.isRegularFile(body.file)) {
                throw usage("--body-file " + body.file + " does not exist or is not a file");
            }
            return Files.readAllBytes(body.file);
        }
        return null;
    }

    private void report(PrintWriter out, PutMessageResult result) {
        if (json) {
            out.println(JsonWriter.write(MessageRequest.resultJson(result, topic, queue, 0)));
        } else if (result.appended()) {
            out.println(result.status() + " msgId=" + result.msgId() + " queueId=" + queue
                    + " queueOffset=" + result.logicsOffset() + " commitLogOffset=" + result.wroteOffset());
        } else {
            out.println(result.status());
        }
        if (!result.isOk()) {
            launcher.err().println("error: put refused: " + result.status()
                    + (result.reason() == null ? "" : ": " + result.reason()));
        }
    }
}
