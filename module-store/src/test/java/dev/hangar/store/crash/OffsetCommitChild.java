package dev.hangar.store.crash;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The process {@link OffsetKillNineTest} kills: fills a topic, then one thread per group commits ever larger offsets
 * (cycling through the queues) forever. Before a commit it prints {@code TRY <group> <queue> <offset>}, after an
 * acknowledged one {@code ACK <group> <queue> <offset>}: every ACK line is a promise the store must keep.
 *
 * <p>Arguments: storeDir, flushDiskType, groups, extra key=value config pairs...
 */
public final class OffsetCommitChild {
    static final String TOPIC = "Offsets";
    static final int QUEUES = 4;
    static final int PER_QUEUE = 2_000;

    private OffsetCommitChild() {
    }

    public static void main(String[] args) throws Exception {
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", args[0], "args")
                .set("flushDiskType", args[1], "args")
                .set("mappedFileSizeCommitLog", Integer.toString(256 * 1024), "args")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 2000), "args")
                .set("maxHashSlotNum", "2000", "args")
                .set("maxIndexNum", "8000", "args")
                .set("flushIntervalCommitLog", "50", "args")
                .set("flushConsumerOffsetInterval", "100", "args");
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            b.set(args[i].substring(0, eq), args[i].substring(eq + 1), "args");
        }
        int groups = Integer.parseInt(args[2]);
        DefaultMessageStore store = new DefaultMessageStore(b.build());
        store.start();
        if (store.getMaxOffsetInQueue(TOPIC, QUEUES - 1) < PER_QUEUE) {
            for (int i = 0; i < QUEUES * PER_QUEUE; i++) {
                store.putMessage(new Message(TOPIC, ("m" + i).getBytes(StandardCharsets.UTF_8)).queueId(i % QUEUES));
            }
            while (store.dispatchBehindBytes() > 0 || store.getMaxOffsetInQueue(TOPIC, QUEUES - 1) < PER_QUEUE) {
                Thread.sleep(5);
            }
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.println("STARTED");
        out.flush();
        for (int g = 0; g < groups; g++) {
            String group = "group" + g;
            int salt = g;
            Thread th = new Thread(() -> {
                // each run starts above what earlier runs committed, so a queue's offsets only grow across kills
                long base = store.consumerOffsets().offsetsOf(group).stream().mapToLong(o -> o.offset()).max().orElse(0);
                for (long n = 1; ; n++) {
                    int queue = (int) ((n + salt) % QUEUES);
                    long offset = Math.min(PER_QUEUE, base + n / QUEUES + 1);
                    say(out, "TRY " + group + " " + queue + " " + offset);
                    OffsetCommitResult r = store.consumerOffsets().commit(group, TOPIC, queue, offset);
                    if (r.isCommitted()) {
                        say(out, "ACK " + group + " " + queue + " " + offset);
                    }
                }
            }, "committer-" + g);
            th.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * One line in one write to {@code System.out}: the store's log lines go to the same stream, and a line written
     * as text then newline could get one of them in between (losing a TRY line would fail the test wrongly).
     */
    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.print(line + "\n");
            out.flush();
        }
    }
}
