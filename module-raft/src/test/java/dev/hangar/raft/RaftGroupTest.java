package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.await;
import static dev.hangar.raft.RaftStores.message;
import static dev.hangar.raft.RaftStores.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three stores in one JVM form a Raft group: one leads, all hold the same bytes, followers refuse puts. */
class RaftGroupTest {
    @TempDir
    Path dir;

    @Test
    void threeStoresHoldIdenticalCommitLogsQueuesAndKeys() {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            RaftStores.startAll(dir, peers, stores);
            DefaultMessageStore leader = RaftStores.leader(stores);
            int count = 600; // spans several 64 KiB files
            for (int i = 0; i < count; i++) {
                PutMessageResult r = leader.putMessage(message("Orders", i % 4, "order-" + i + "-" + "x".repeat(200)));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), () -> "put: " + r);
            }
            long end = leader.getMaxPhyOffset();
            for (DefaultMessageStore s : stores) {
                await("every node committed " + end, () -> status(s).committedOffset() == end);
                await("every node dispatched its queues", () -> s.getMaxOffsetInQueue("Orders", 0) == count / 4);
            }
            byte[] leaderBytes = RaftStores.commitLogBytes(dir.resolve(status(leader).selfId()), end);
            assertEquals(end, leaderBytes.length);
            for (int i = 0; i < 3; i++) {
                DefaultMessageStore s = stores.get(i);
                assertArrayEquals(leaderBytes, RaftStores.commitLogBytes(dir.resolve("n" + i), end),
                        "the CommitLog of n" + i + " differs from the leader's");
                for (int q = 0; q < 4; q++) {
                    assertEquals(count / 4, s.getMaxOffsetInQueue("Orders", q), "queue " + q + " on n" + i);
                }
                GetMessageResult read = s.getMessage("g", "Orders", 1, 0, 32, MessageFilter.ALL);
                assertEquals(32, read.messages().size(), "a read on n" + i);
                StoredMessage first = read.messages().get(0);
                assertTrue(new String(first.body(), StandardCharsets.UTF_8).startsWith("order-1-"));
                assertEquals(1, s.queryMessage("Orders", "k-" + "order-5-" + "x".repeat(200), 4, 0, Long.MAX_VALUE)
                        .messages().size(), "a query by key on n" + i);
            }
            for (DefaultMessageStore s : stores) {
                if (s != leader) {
                    PutMessageResult refused = s.putMessage(message("Orders", 0, "to a follower"));
                    assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status());
                    assertTrue(refused.toString().contains(status(leader).selfId()),
                            "the refusal names the leader: " + refused);
                }
            }
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    @Test
    void aNodeStartedLateWithAnEmptyDirectoryCatchesUpFromTheLeader() {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            stores.add(RaftStores.start(dir.resolve("n0"), peers, "n0"));
            stores.add(RaftStores.start(dir.resolve("n1"), peers, "n1"));
            DefaultMessageStore leader = RaftStores.leader(stores);
            List<java.util.concurrent.CompletableFuture<PutMessageResult>> puts = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                puts.add(leader.asyncPutMessage(message("Late", i % 2, "late-" + i + "-" + "y".repeat(300))));
            }
            puts.forEach(f -> assertEquals(PutMessageStatus.PUT_OK, f.join().status()));
            long end = leader.getMaxPhyOffset();
            DefaultMessageStore late = RaftStores.start(dir.resolve("n2"), peers, "n2");
            stores.add(late);
            await("the late node committed " + end, () -> status(late).committedOffset() >= end);
            await("the late node dispatched", () -> late.getMaxOffsetInQueue("Late", 1) == 1000);
            assertArrayEquals(RaftStores.commitLogBytes(dir.resolve(status(leader).selfId()), end),
                    RaftStores.commitLogBytes(dir.resolve("n2"), end));
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    @Test
    void aMissingOrWrongRaftSettingStopsTheStoreBeforeAnyFileIsCreated() {
        Path store = dir.resolve("bad");
        var noPeers = dev.hangar.spi.config.StoreConfig.builder()
                .set("storePathRootDir", store.toString(), "test").set("haService", "raft", "test").build();
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.hangar.spi.config.ConfigException.class,
                () -> new DefaultMessageStore(noPeers));
        assertTrue(e.getMessage().contains("raft.peers"), e.getMessage());
        var strangerSelf = RaftStores.config(store, RaftStores.peers(3), "n9");
        e = org.junit.jupiter.api.Assertions.assertThrows(dev.hangar.spi.config.ConfigException.class,
                () -> new DefaultMessageStore(strangerSelf));
        assertTrue(e.getMessage().contains("raft.selfId"), e.getMessage());
        var withRole = RaftStores.config(store, RaftStores.peers(3), "n0", "brokerRole", "SYNC_MASTER");
        e = org.junit.jupiter.api.Assertions.assertThrows(dev.hangar.spi.config.ConfigException.class,
                () -> new DefaultMessageStore(withRole));
        assertTrue(e.getMessage().contains("brokerRole") && e.getMessage().contains("haService=raft"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertFalse(java.nio.file.Files.exists(store), "nothing was created");
    }

    @Test
    void raftListenIsAHostAndPortAndDefaultsToTheNodesOwnPeerAddress() {
        Path store = dir.resolve("listen");
        String peers = RaftStores.peers(3);
        for (String bad : List.of("9870", "host:", ":9870", "host:0", "host:70000", "a b:9870", "n0@host:9870")) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(dev.hangar.spi.config.ConfigException.class,
                    () -> new DefaultMessageStore(RaftStores.config(store, peers, "n0", "raft.listen", bad)));
            assertTrue(e.getMessage().contains("raft.listen") && e.getMessage().contains("host:port"),
                    bad + ": " + e.getMessage());
        }
        org.junit.jupiter.api.Assertions.assertFalse(java.nio.file.Files.exists(store), "nothing was created");
        RaftSettings given = RaftSettings.from(RaftStores.config(store, peers, "n1", "raft.listen", "0.0.0.0:9870"));
        assertEquals(new RaftSettings.HostPort("0.0.0.0", 9870), given.listen());
        RaftSettings byDefault = RaftSettings.from(RaftStores.config(store, peers, "n1"));
        assertEquals(byDefault.self().address(), byDefault.listen().toString());
    }
}
