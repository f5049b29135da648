package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.await;
import static dev.hangar.raft.RaftStores.message;
import static dev.hangar.raft.RaftStores.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Online changes to a raft group under load, leadership transfer, and hostile bytes on the Raft port. */
class RaftMembershipTest {
    @TempDir
    Path dir;

    @Test
    void aDeadPeerIsReplacedByAFreshNodeWhileAWriterPuts() throws Exception {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong acknowledged = new AtomicLong();
        Thread writer = null;
        try {
            RaftStores.startAll(dir, peers, stores);
            DefaultMessageStore leader = RaftStores.leader(stores);
            String leaderId = status(leader).selfId();
            DefaultMessageStore dead = stores.stream().filter(s -> s != leader).findFirst().orElseThrow();
            String deadId = status(dead).selfId();
            writer = new Thread(() -> {
                int i = 0;
                while (writing.get()) {
                    PutMessageResult r = leader.putMessage(message("M", i % 2, "m-" + i++));
                    if (r.status() == PutMessageStatus.PUT_OK) {
                        acknowledged.incrementAndGet();
                    }
                }
            });
            writer.start();
            await("puts before the change", () -> acknowledged.get() > 20);
            dead.close();
            stores.remove(dead);
            leader.consensus().orElseThrow().removePeer(deadId).get(60, TimeUnit.SECONDS);
            await("the group has two members", () -> status(leader).peers().size() == 2);
            long afterRemoval = acknowledged.get();
            await("puts go on with two members", () -> acknowledged.get() > afterRemoval + 20);
            // the replacement: a fresh directory, a new id and port, the group as it will be
            String survivors = List.of(peers.split(",")).stream().filter(p -> !p.startsWith(deadId + "@"))
                    .reduce((a, b) -> a + "," + b).orElseThrow();
            String fresh = "n3@127.0.0.1:" + RaftStores.freePort();
            DefaultMessageStore replacement = RaftStores.start(dir.resolve("n3"), survivors + "," + fresh, "n3");
            stores.add(replacement);
            leader.consensus().orElseThrow().addPeer(fresh).get(120, TimeUnit.SECONDS);
            await("the group has three members again", () -> status(leader).peers().size() == 3);
            long afterAdd = acknowledged.get();
            await("puts go on with three members", () -> acknowledged.get() > afterAdd + 20);
            writing.set(false);
            writer.join();
            long end = leader.getMaxPhyOffset();
            for (DefaultMessageStore s : stores) {
                await(status(s).selfId() + " committed " + end, () -> status(s).committedOffset() >= end);
            }
            byte[] expected = RaftStores.commitLogBytes(dir.resolve(leaderId), end);
            for (DefaultMessageStore s : stores) {
                String id = status(s).selfId();
                assertArrayEquals(expected, RaftStores.commitLogBytes(dir.resolve(id), end), id);
            }
            assertEquals(leader.getMaxOffsetInQueue("M", 0), replacement.getMaxOffsetInQueue("M", 0));
            ExecutionCheck.failsWith(IllegalArgumentException.class,
                    () -> leader.consensus().orElseThrow().addPeer("not a peer").join());
        } finally {
            writing.set(false);
            if (writer != null) {
                writer.join();
            }
            RaftStores.closeAll(stores);
        }
    }

    @Test
    void leadershipMovesWhereTheOperatorSays() throws Exception {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            RaftStores.startAll(dir, peers, stores);
            DefaultMessageStore leader = RaftStores.leader(stores);
            DefaultMessageStore target = stores.stream().filter(s -> s != leader).findFirst().orElseThrow();
            String targetId = status(target).selfId();
            assertEquals(PutMessageStatus.PUT_OK, leader.putMessage(message("L", 0, "before")).status());
            leader.consensus().orElseThrow().transferLeader(targetId).get(60, TimeUnit.SECONDS);
            await(targetId + " leads and takes puts", () -> status(target).leaderReady());
            assertEquals(PutMessageStatus.PUT_OK, target.putMessage(message("L", 0, "after")).status());
            await("the old leader follows", () -> !status(leader).leaderReady());
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, leader.putMessage(message("L", 0, "refused")).status());
            await("the old leader reads both", () -> leader.getMaxOffsetInQueue("L", 0) == 2);
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    @Test
    void hostileBytesOnTheRaftPortChangeNothing() throws Exception {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            RaftStores.startAll(dir, peers, stores);
            DefaultMessageStore leader = RaftStores.leader(stores);
            assertEquals(PutMessageStatus.PUT_OK, leader.putMessage(message("H", 0, "before")).status());
            Random random = new Random(7);
            for (String peer : peers.split(",")) {
                int port = Integer.parseInt(peer.substring(peer.lastIndexOf(':') + 1));
                for (int attempt = 0; attempt < 5; attempt++) {
                    try (Socket s = new Socket("127.0.0.1", port)) {
                        OutputStream out = s.getOutputStream();
                        byte[] junk = new byte[1 + random.nextInt(64 * 1024)];
                        random.nextBytes(junk);
                        if (attempt == 0) {
                            junk = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4\0\0\0\0\0".getBytes();
                        }
                        out.write(junk);
                        out.flush();
                    } catch (java.io.IOException e) {
                        // the server may close on us: that is what it should do
                    }
                }
            }
            DefaultMessageStore stillLeader = RaftStores.leader(stores);
            assertEquals(PutMessageStatus.PUT_OK, stillLeader.putMessage(message("H", 0, "after")).status());
            long end = stillLeader.getMaxPhyOffset();
            for (DefaultMessageStore s : stores) {
                await("every node committed " + end, () -> status(s).committedOffset() >= end);
                assertTrue(s.getMaxOffsetInQueue("H", 0) >= 0);
            }
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    /** Asserts that a call fails with an exception of a type, directly or as the cause of a completion. */
    static final class ExecutionCheck {
        static void failsWith(Class<? extends Throwable> type, Runnable call) {
            Throwable t = assertThrows(Throwable.class, call::run);
            Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            assertTrue(type.isInstance(cause), "expected " + type.getSimpleName() + ", got " + t);
        }
    }
}
