package dev.hangar.ha;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process an HA crash test kills. Arguments: storeDir, then key=value config pairs. Prints {@code HA <address>}
 * for a master, {@code STARTED}; a master with {@code writers=N} then puts from N threads forever and prints
 * {@code ACK <commitLogOffset> <size> <msgId> <n>} for every put answered PUT_OK: under SYNC_MASTER each line is
 * a promise that a slave holds the message.
 */
public final class HaChild {
    private HaChild() {
    }

    public static void main(String[] args) throws Exception {
        int writers = 0;
        java.util.List<String> pairs = new java.util.ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (args[i].startsWith("writers=")) {
                writers = Integer.parseInt(args[i].substring(eq + 1));
            } else {
                pairs.add(args[i].substring(0, eq));
                pairs.add(args[i].substring(eq + 1));
            }
        }
        DefaultMessageStore store = HaStores.started(Path.of(args[0]), pairs.toArray(new String[0]));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        if (store.replicationStatus() != null && store.role().isMaster()) {
            out.println("HA " + HaStores.haAddress(store));
        }
        out.println("STARTED");
        out.flush();
        AtomicInteger counter = new AtomicInteger();
        Runnable writer = () -> {
            while (true) {
                int n = counter.getAndIncrement();
                Message m = HaStores.message("Crash", n % 4, "ha-body-" + n + "-" + "y".repeat(n % 500)).keys("hk-" + n);
                PutMessageResult r = store.putMessage(m);
                if (r.isOk()) {
                    synchronized (out) {
                        out.println("ACK " + r.appendResult().wroteOffset() + " " + r.appendResult().wroteBytes() + " "
                                + r.appendResult().msgId() + " " + n);
                        out.flush();
                    }
                }
            }
        };
        for (int t = 0; t < writers; t++) {
            new Thread(writer, "ha-writer-" + t).start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
