package dev.hangar.store.crash;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The process {@link TopicDeletionKillNineTest} kills: fills two queues of a topic over several CommitLog files,
 * deletes the topic, prints {@code DELETED}, then puts to queue 0 forever, printing {@code ACK <queueOffset>} after
 * each acknowledged put.
 *
 * <p>Arguments: storeDir, flushDiskType.
 */
public final class TopicDeletionChild {
    static final String TOPIC = "Doomed";
    static final int OLD_PER_QUEUE = 3_000;

    private TopicDeletionChild() {
    }

    static StoreConfig.Builder config(String dir) {
        return StoreConfig.builder()
                .set("storePathRootDir", dir, "args")
                .set("mappedFileSizeCommitLog", Integer.toString(256 * 1024), "args")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 2000), "args")
                .set("maxHashSlotNum", "2000", "args")
                .set("maxIndexNum", "8000", "args");
    }

    public static void main(String[] args) throws Exception {
        DefaultMessageStore store = new DefaultMessageStore(config(args[0])
                .set("flushDiskType", args[1], "args")
                .set("flushIntervalCommitLog", "50", "args").build());
        store.start();
        for (int queue = 0; queue < 2; queue++) {
            for (int i = 0; i < OLD_PER_QUEUE; i += 100) {
                List<Message> batch = new ArrayList<>();
                for (int j = i; j < i + 100; j++) {
                    batch.add(new Message(TOPIC, ("old" + j).getBytes(StandardCharsets.UTF_8)).queueId(queue));
                }
                if (!store.putMessages(batch).isOk()) {
                    throw new IllegalStateException("old puts failed");
                }
            }
        }
        while (store.dispatchBehindBytes() > 0) {
            Thread.sleep(5);
        }
        store.deleteTopic(TOPIC);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.print("DELETED\n");
        out.flush();
        for (int n = 0; ; n++) {
            PutMessageResult r = store.putMessage(new Message(TOPIC, ("new" + n).getBytes(StandardCharsets.UTF_8))
                    .queueId(0));
            if (r.isOk()) {
                out.print("ACK " + r.logicsOffset() + "\n");
                out.flush();
            }
        }
    }
}
