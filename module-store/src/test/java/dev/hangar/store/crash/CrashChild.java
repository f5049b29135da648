package dev.hangar.store.crash;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process a crash test kills: opens a store, puts from several threads forever, and prints one line per
 * acknowledged put: {@code ACK <commitLogOffset> <size> <msgId> <n>}. A line is printed only after the store
 * acknowledged the put, so every line is a promise the store must keep after {@code kill -9}.
 *
 * <p>Arguments: storeDir, flushDiskType, threads, extra key=value config pairs...
 */
public final class CrashChild {
    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", args[0], "args")
                .set("flushDiskType", args[1], "args")
                .set("mappedFileSizeCommitLog", Integer.toString(256 * 1024), "args")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 2000), "args")
                .set("maxHashSlotNum", "2000", "args")
                .set("maxIndexNum", "8000", "args")
                .set("flushIntervalCommitLog", "50", "args");
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            b.set(args[i].substring(0, eq), args[i].substring(eq + 1), "args");
        }
        int threads = Integer.parseInt(args[2]);
        DefaultMessageStore store = new DefaultMessageStore(b.build());
        store.start();
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.println("STARTED");
        out.flush();
        AtomicInteger counter = new AtomicInteger();
        Runnable writer = () -> {
            while (true) {
                int n = counter.getAndIncrement();
                Message m = new Message("Crash", ("crash-body-" + n + "-" + "x".repeat(n % 300))
                        .getBytes(StandardCharsets.UTF_8)).queueId(n % 4).keys("ck-" + n).tags("T" + (n % 3));
                PutMessageResult r = store.putMessage(m);
                if (r.isOk()) {
                    String line = "ACK " + r.appendResult().wroteOffset() + " " + r.appendResult().wroteBytes() + " "
                            + r.appendResult().msgId() + " " + n;
                    synchronized (out) {
                        out.println(line);
                        out.flush();
                    }
                }
            }
        };
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(writer, "crash-writer-" + t);
            th.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
