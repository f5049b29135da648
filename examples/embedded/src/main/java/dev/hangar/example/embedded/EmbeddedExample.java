package dev.hangar.example.embedded;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.QueryMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Embeds a Hangar store: opens it with a typed configuration, registers a long-poll listener, puts one message
 * synchronously and one asynchronously, reads them back by queue offset and by key, and closes the store.
 * {@code java -m dev.hangar.example.embedded/dev.hangar.example.embedded.EmbeddedExample STORE_DIR}
 */
public final class EmbeddedExample {
    static final String TOPIC = "Orders";

    private EmbeddedExample() {
    }

    public static void main(String[] args) throws Exception {
        run(Path.of(args.length > 0 ? args[0] : "embedded-store"), System.out);
    }

    /** Runs the walk-through on a store in {@code dir}, printing what it reads; returns the messages read. */
    public static int run(Path dir, PrintStream out) throws Exception {
        StoreConfig config = StoreConfig.builder()
                .set(StoreConfigKeys.STORE_PATH_ROOT_DIR, dir.toString())
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, 16 * 1024 * 1024)  // a small store: 16 MiB files
                .set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH")                  // acknowledged after fsync
                .build();
        try (DefaultMessageStore store = new DefaultMessageStore(config)) {
            store.start();  // locks the directory, recovers, starts flushing and dispatching

            // long polling: told on the dispatch thread when a queue grows (must not block)
            long firstNew = store.getMaxOffsetInQueue(TOPIC, 0);
            CountDownLatch arrived = new CountDownLatch(2);
            store.addMessageArrivingListener((topic, queueId, maxOffset) -> {
                if (topic.equals(TOPIC) && queueId == 0) {
                    arrived.countDown();
                }
            });

            // a synchronous put: returns once the flush service acknowledged it
            PutMessageResult first = store.putMessage(new Message(TOPIC, bytes("order 1")).queueId(0)
                    .keys("order-1").tags("created"));
            out.println("sync put: " + first.status() + " at commit-log offset " + first.wroteOffset());

            // an asynchronous put: completes when the fsync covering it is done
            CompletableFuture<PutMessageResult> second = store.asyncPutMessage(new Message(TOPIC, bytes("order 2"))
                    .queueId(0).keys("order-2").tags("paid"));
            out.println("async put: " + second.get(10, TimeUnit.SECONDS).status());

            if (!arrived.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the listener was not told about both messages");
            }

            // read by queue offset, as a consumer does
            GetMessageResult read = store.getMessage("example-group", TOPIC, 0, firstNew, 32, MessageFilter.ALL);
            for (StoredMessage m : read.messages()) {
                out.println("queue offset " + m.queueOffset() + ": " + new String(m.body(), StandardCharsets.UTF_8)
                        + " [" + m.tags() + "]");
            }

            // read by key, through the index
            QueryMessageResult byKey = store.queryMessage(TOPIC, "order-2", 1, 0, Long.MAX_VALUE);
            for (StoredMessage m : byKey.messages()) {
                out.println("key order-2: " + new String(m.body(), StandardCharsets.UTF_8));
            }
            return read.messages().size() + byKey.messages().size();
        }  // close(): stops the services, flushes, releases the directory
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
