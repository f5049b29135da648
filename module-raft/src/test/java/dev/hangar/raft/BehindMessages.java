package dev.hangar.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/** Puts, CommitLog ranges and store copies for the tests of nodes that fell behind (RaftBehind*). */
final class BehindMessages {
    private BehindMessages() {
    }

    /** Puts messages {@code from} to {@code to - 1} (about 420 bytes each, queue {@code i % queues}); all must be PUT_OK. */
    static void put(DefaultMessageStore leader, String topic, int queues, int from, int to) {
        List<CompletableFuture<PutMessageResult>> puts = new ArrayList<>();
        for (int i = from; i < to; i++) {
            puts.add(leader.asyncPutMessage(RaftStores.message(topic, i % queues, topic + "-" + i + "-"
                    + "z".repeat(300))));
        }
        for (CompletableFuture<PutMessageResult> p : puts) {
            PutMessageResult r = p.join();
            assertEquals(PutMessageStatus.PUT_OK, r.status(), () -> "put: " + r);
        }
    }

    /**
     * The leader once every running store follows the same one and it takes puts (after restarts an old leader may
     * still think it leads for a moment).
     */
    static DefaultMessageStore settledLeader(List<DefaultMessageStore> stores) {
        DefaultMessageStore[] found = new DefaultMessageStore[1];
        RaftStores.await("every running node follows one ready leader", () -> {
            found[0] = null;
            String leaderId = null;
            for (DefaultMessageStore s : stores) {
                if (s == null) {
                    continue;
                }
                ConsensusStatus st = RaftStores.status(s);
                if (st.leaderId().isEmpty() || (leaderId != null && !leaderId.equals(st.leaderId()))) {
                    return false;
                }
                leaderId = st.leaderId();
                if (st.selfId().equals(st.leaderId()) && st.leaderReady()) {
                    found[0] = s;
                }
            }
            return found[0] != null;
        });
        return found[0];
    }

    /** Waits until {@code store}'s queues of {@code topic} hold {@code total} messages, as {@link #put} spread them. */
    static void awaitQueues(DefaultMessageStore store, String topic, int queues, int total) {
        RaftStores.await(total + " messages dispatched", () -> {
            long n = 0;
            for (int q = 0; q < queues; q++) {
                n += store.getMaxOffsetInQueue(topic, q);
            }
            return n == total;
        });
    }

    /** The bytes of {@code store}'s CommitLog files in {@code [from, end)}, read from the files. */
    static byte[] commitLog(DefaultMessageStore store, long from, long end) {
        Path commitLog = Path.of(store.config().get(StoreConfigKeys.STORE_PATH_ROOT_DIR)).resolve("commitlog");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Stream<Path> s = Files.list(commitLog)) {
            for (Path file : s.sorted().toList()) {
                long start = Long.parseLong(file.getFileName().toString());
                byte[] all = Files.readAllBytes(file);
                long lo = Math.max(from, start);
                long hi = Math.min(end, start + all.length);
                if (lo < hi) {
                    out.write(all, (int) (lo - start), (int) (hi - lo));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** What an operator does to rebuild a node: its store directory replaced by a copy of a stopped member's. */
    static void replaceWithCopy(Path member, Path node) throws IOException {
        try (Stream<Path> walk = Files.walk(node)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        try (Stream<Path> walk = Files.walk(member)) {
            for (Path p : walk.toList()) {
                if (p.getFileName().toString().equals("lock")) {
                    continue;
                }
                Path target = node.resolve(member.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
