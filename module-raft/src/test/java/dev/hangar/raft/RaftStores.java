package dev.hangar.raft;

import dev.hangar.spi.config.DeclaredKey;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.message.Message;
import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Raft groups of real stores for the tests: small files, short election timeouts, free loopback ports. */
final class RaftStores {
    static final int FILE_SIZE = 64 * 1024;

    private RaftStores() {
    }

    /** {@code n0@127.0.0.1:P0,...} with {@code count} free ports. */
    static String peers(int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add("n" + i + "@127.0.0.1:" + freePort());
        }
        return String.join(",", out);
    }

    /** Ports this JVM handed out already: never twice, even once their first user let go of them. */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A port nothing listens on, below the kernel's ephemeral range ({@code ip_local_port_range}). A port from
     * {@code new ServerSocket(0)} lies inside that range, where the automatic local port of any outgoing connection (a
     * relay's, a peer's) may take it before the child process binds it: a clean-clone CI run failed that way once
     * ("Failed to bind to address /127.0.0.1:45669: Address already in use").
     */
    static int freePort() {
        int ephemeralFrom = ephemeralRangeStart();
        int from = 10_000;
        java.util.Random random = java.util.concurrent.ThreadLocalRandom.current();
        for (int tries = 0; tries < 2_000 && ephemeralFrom > from + 1_000; tries++) {
            int port = from + random.nextInt(ephemeralFrom - from);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new java.net.InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException e) {
                // in use: try another
            }
        }
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int ephemeralRangeStart() {
        try {
            String[] range = java.nio.file.Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768; // Linux's default
        }
    }

    static StoreConfig config(Path dir, String peers, String self, String... extra) {
        StoreConfig.Builder b = StoreConfig.builder();
        for (var key : RaftSettings.keys()) {
            b.declare(new DeclaredKey(key, "raft", "module-raft"));
        }
        b.set("storePathRootDir", dir.toString(), "test")
                .set("mappedFileSizeCommitLog", Integer.toString(FILE_SIZE), "test")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 1000), "test")
                .set("maxHashSlotNum", "1000", "test")
                .set("maxIndexNum", "4000", "test")
                .set("flushIntervalCommitLog", "10", "test")
                .set("flushIntervalConsumeQueue", "10", "test")
                .set("syncFlushTimeout", "10000", "test")
                .set("haService", "raft", "test")
                .set("raft.peers", peers, "test")
                .set("raft.selfId", self, "test")
                .set("raft.electionTimeoutMin", "300", "test")
                .set("raft.electionTimeoutMax", "600", "test");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            b.set(extra[i], extra[i + 1], "test");
        }
        return b.build();
    }

    static DefaultMessageStore start(Path dir, String peers, String self, String... extra) {
        DefaultMessageStore store = new DefaultMessageStore(config(dir, peers, self, extra));
        store.start();
        return store;
    }

    /** Starts one store per member of {@code peers} (ids n0, n1, ...) under {@code dir}, adding each to {@code into}. */
    static void startAll(Path dir, String peers, List<DefaultMessageStore> into) {
        int members = peers.split(",").length;
        for (int i = 0; i < members; i++) {
            into.add(start(dir.resolve("n" + i), peers, "n" + i));
        }
    }

    static ConsensusStatus status(DefaultMessageStore store) {
        return store.consensus().orElseThrow().status();
    }

    /** The one store of {@code stores} that leads and takes puts, waiting up to 60 s for it. */
    static DefaultMessageStore leader(List<DefaultMessageStore> stores) {
        DefaultMessageStore[] found = new DefaultMessageStore[1];
        await("a ready leader among " + stores.size() + " stores", () -> {
            for (DefaultMessageStore s : stores) {
                if (s != null && status(s).leaderReady()) {
                    found[0] = s;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    static Message message(String topic, int queueId, String body) {
        return new Message(topic, body.getBytes(StandardCharsets.UTF_8)).queueId(queueId).keys("k-" + body);
    }

    /** Waits up to 60 s for {@code condition}; fails with {@code what} otherwise. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what);
            }
        }
    }

    /** The CommitLog bytes of a store directory from offset 0 up to {@code end}, the files concatenated. */
    static byte[] commitLogBytes(Path storeDir, long end) {
        try (Stream<Path> s = Files.list(storeDir.resolve("commitlog"))) {
            List<Path> files = s.sorted().collect(Collectors.toList());
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (Path f : files) {
                long start = Long.parseLong(f.getFileName().toString());
                if (start >= end) {
                    break;
                }
                byte[] all = Files.readAllBytes(f);
                out.write(all, 0, (int) Math.min(all.length, end - start));
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void closeAll(List<DefaultMessageStore> stores) {
        for (DefaultMessageStore s : stores) {
            if (s != null) {
                try {
                    s.close();
                } catch (RuntimeException e) {
                    // the test's own failure matters more
                }
            }
        }
    }
}
