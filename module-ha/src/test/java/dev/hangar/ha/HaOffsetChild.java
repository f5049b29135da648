package dev.hangar.ha;

import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The SYNC_MASTER that {@link ConsumerOffsetFailoverTest} kills: prints {@code HA <address>} and {@code STARTED}, fills
 * a topic once its slave takes the puts, then one thread per group commits ever larger offsets and prints
 * {@code ACK <group> <queue> <offset>} for each acknowledged commit: a promise that the slave holds it.
 *
 * <p>Arguments: storeDir, groups.
 */
public final class HaOffsetChild {
    static final String TOPIC = "Failover";
    static final int QUEUES = 3;
    static final int PER_QUEUE = 400;

    private HaOffsetChild() {
    }

    public static void main(String[] args) throws Exception {
        DefaultMessageStore store = HaStores.master(Path.of(args[0]), "SYNC_MASTER", "syncFlushTimeout", "3000");
        int groups = Integer.parseInt(args[1]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        say(out, "HA " + HaStores.haAddress(store));
        say(out, "STARTED");
        for (int i = 0; i < QUEUES * PER_QUEUE; i++) {
            // SLAVE_NOT_AVAILABLE until the slave is connected
            while (!store.putMessage(HaStores.message(TOPIC, i % QUEUES, "m" + i)).isOk()) {
                Thread.sleep(5);
            }
        }
        while (store.getMaxOffsetInQueue(TOPIC, QUEUES - 1) < PER_QUEUE) {
            Thread.sleep(5);
        }
        for (int g = 0; g < groups; g++) {
            String group = "group" + g;
            new Thread(() -> {
                for (long n = 0; ; n++) {
                    int queue = (int) (n % QUEUES);
                    long offset = Math.min(PER_QUEUE, n / QUEUES + 1);
                    OffsetCommitResult r = store.consumerOffsets().commit(group, TOPIC, queue, offset);
                    if (r.isCommitted()) {
                        say(out, "ACK " + group + " " + queue + " " + offset);
                    }
                }
            }, "committer-" + g).start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /** One line in one write: the store's log lines share the stream. */
    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.print(line + "\n");
            out.flush();
        }
    }
}
