package dev.hangar.ha;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** Master and slave stores for the replication tests: small files, short HA intervals, an ephemeral HA port. */
final class HaStores {
    static final int FILE_SIZE = 64 * 1024;

    private HaStores() {
    }

    static StoreConfig config(Path dir, String... extra) {
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "test")
                .set("mappedFileSizeCommitLog", Integer.toString(FILE_SIZE), "test")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 1000), "test")
                .set("maxHashSlotNum", "1000", "test")
                .set("maxIndexNum", "4000", "test")
                .set("flushIntervalCommitLog", "10", "test")
                .set("flushIntervalConsumeQueue", "10", "test")
                .set("haListenPort", "0", "test")
                .set("haSendHeartbeatInterval", "200", "test")
                .set("haHousekeepingInterval", "3000", "test")
                .set("syncFlushTimeout", "10000", "test");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            b.set(extra[i], extra[i + 1], "test");
        }
        return b.build();
    }

    static DefaultMessageStore started(Path dir, String... extra) {
        DefaultMessageStore store = new DefaultMessageStore(config(dir, extra));
        store.start();
        return store;
    }

    static DefaultMessageStore master(Path dir, String role, String... extra) {
        String[] all = concat(new String[] {"brokerRole", role}, extra);
        return started(dir, all);
    }

    static DefaultMessageStore slave(Path dir, String masterAddress, String... extra) {
        return started(dir, concat(new String[] {"brokerRole", "SLAVE", "haMasterAddress", masterAddress}, extra));
    }

    static String haAddress(DefaultMessageStore master) {
        return master.replicationStatus().listenAddress();
    }

    static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static Message message(String topic, int queueId, String body) {
        return new Message(topic, body.getBytes(StandardCharsets.UTF_8)).queueId(queueId);
    }

    /** Waits up to 60 s for {@code condition}; fails with {@code what} otherwise. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what);
            }
        }
    }

    /** CommitLog file names of {@code dir}, sorted, holding bytes below {@code end}. */
    static List<Path> commitLogFiles(Path storeDir, long end) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(storeDir.resolve("commitlog"))) {
            s.sorted().forEach(p -> {
                if (Long.parseLong(p.getFileName().toString()) < end) {
                    out.add(p);
                }
            });
        }
        return out;
    }

    /** The bytes of {@code file} from its start up to {@code end} (a physical offset), or the whole file. */
    static byte[] bytesBelow(Path file, long end) {
        try {
            byte[] all = Files.readAllBytes(file);
            long start = Long.parseLong(file.getFileName().toString());
            int n = (int) Math.min(all.length, end - start);
            byte[] out = new byte[n];
            System.arraycopy(all, 0, out, 0, n);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
