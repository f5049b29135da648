package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.await;
import static dev.hangar.raft.RaftStores.message;
import static dev.hangar.raft.RaftStores.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.RaftTestAccess;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.clean.DiskUsageProbe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose disk fills (simulated through the store's disk probe, as module-store's DiskFullTest does): as leader
 * it refuses puts with the reason and hands leadership to a member with room, as follower it stores and acknowledges
 * nothing, the majority goes on, and once space is freed it catches up by itself, byte-identical.
 */
class RaftBehindDiskFullTest {
    private static final String TOPIC = "Full";
    private static final int QUEUES = 2;

    @TempDir
    Path dir;

    /**
     * Catches: a full leader that takes puts it cannot store, or that keeps leading so the group takes none (no hand
     * over); a full follower that acknowledges entries it did not store (a put answered PUT_OK while the only other
     * member's disk is full: a lost write if the leader dies), or whose CommitLog grows while full; and a follower that
     * never recovers once space is freed (an entry refusal that breaks Ratis' log for good, as a failed write future
     * does).
     */
    @Test
    void aFullLeaderHandsOverAndAsAFollowerAcknowledgesNothingUntilSpaceIsFreedThenCatchesUp() {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                // a put that waits for the full node must outlive the test's refusals
                stores.add(RaftStores.start(dir.resolve("n" + i), peers, "n" + i, "syncFlushTimeout", "60000"));
            }
            DefaultMessageStore full = RaftStores.leader(stores);
            BehindMessages.put(full, TOPIC, QUEUES, 0, 100);
            long before = full.getMaxPhyOffset();

            DiskSpaceMonitor disk = RaftTestAccess.diskMonitor(full);
            disk.useProbe(DiskUsageProbe.fixedRatio(0.95));
            disk.check();
            PutMessageResult refused = full.putMessage(message(TOPIC, 0, "to a full leader"));
            assertNotEquals(PutMessageStatus.PUT_OK, refused.status(), refused.toString());
            // at once the disk is named; should the hand-over have come first, the refusal names the new leader
            assertTrue(refused.reason().contains("disk full") || refused.reason().contains("follower"),
                    refused.toString());

            DefaultMessageStore[] next = new DefaultMessageStore[1];
            await("a member with room leads", () -> {
                for (DefaultMessageStore s : stores) {
                    if (s != full && status(s).leaderReady()) {
                        next[0] = s;
                        return true;
                    }
                }
                return false;
            });
            DefaultMessageStore leader = next[0];
            await("the full node follows", () -> !status(full).isLeader());
            BehindMessages.put(leader, TOPIC, QUEUES, 100, 200);
            HeldWrites held = ((RaftReplicationService) RaftTestAccess.replication(full)).heldWrites();
            await("the full node holds the new leader's entries", () -> held.waiting() > 0);
            assertEquals(before, full.getMaxPhyOffset(), "the full node stored nothing");

            // with the third member gone, a put needs the full node's acknowledgement
            DefaultMessageStore third = stores.stream().filter(s -> s != full && s != leader).findFirst().orElseThrow();
            third.close();
            stores.set(stores.indexOf(third), null);
            CompletableFuture<PutMessageResult> waiting = leader.asyncPutMessage(message(TOPIC, 0, "needs the full node"));
            // at least 5 s (50 checks of 100 ms): past the leader's 3 s request timeout and its resend
            long checks = held.checksWhileFull();
            await("the full node checked its disk 50 more times", () -> held.checksWhileFull() >= checks + 50);
            assertFalse(waiting.isDone(), () -> "answered without the full node storing it: " + waiting.join());
            assertEquals(before, full.getMaxPhyOffset(), "the full node stored nothing");

            disk.useProbe(DiskUsageProbe.fixedRatio(0.50));
            disk.check();
            PutMessageResult acknowledged = waiting.join();
            assertEquals(PutMessageStatus.PUT_OK, acknowledged.status(), acknowledged.toString());
            long end = leader.getMaxPhyOffset();
            await("the once full node caught up to " + end, () -> status(full).committedOffset() >= end);
            BehindMessages.awaitQueues(full, TOPIC, QUEUES, 201);
            // a retention pass while the disk was full may have deleted the full node's oldest files, as on a lone store
            long from = Math.max(full.getMinPhyOffset(), leader.getMinPhyOffset());
            assertArrayEquals(BehindMessages.commitLog(leader, from, end), BehindMessages.commitLog(full, from, end),
                    "the once full node's CommitLog from " + from + " differs from the leader's");
        } finally {
            RaftStores.closeAll(stores);
        }
    }
}
