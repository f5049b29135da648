package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.await;
import static dev.hangar.raft.RaftStores.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.RaftTestAccess;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.clean.DiskUsageProbe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower that was down while the others wrote on: retention keeps the CommitLog files it still needs, and when
 * a nearly full disk forces them away, the group goes on, names the follower that must be rebuilt, and the follower
 * rejoins byte-identical once its store directory is replaced with a copy of a current member's.
 */
class RaftBehindFollowerTest {
    private static final String TOPIC = "Behind";
    private static final int QUEUES = 2;

    @TempDir
    Path dir;

    /**
     * Catches: the leader's retention deleting files a stopped follower still needs while the disk has room (a
     * {@code retainFrom} that ignores a follower, or keeps nothing back), or keeping every file (retention that never
     * deletes below the follower's progress); and a follower that cannot catch up from what the leader kept.
     */
    @Test
    void retentionWithoutPressureKeepsTheFilesAStoppedFollowerNeedsAndItCatchesUp() {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                // every file has expired at once: only the followers' progress keeps one
                stores.add(RaftStores.start(dir.resolve("n" + i), peers, "n" + i, "fileReservedTime", "0"));
            }
            DefaultMessageStore leader = RaftStores.leader(stores);
            int f = (index(leader) + 1) % 3;
            BehindMessages.put(leader, TOPIC, QUEUES, 0, 400);
            long stoppedAt = leader.getMaxPhyOffset();
            await("n" + f + " holds " + stoppedAt, () -> status(stores.get(f)).committedOffset() >= stoppedAt);
            stores.get(f).close();
            stores.set(f, null);
            BehindMessages.put(leader, TOPIC, QUEUES, 400, 1000);
            long end = leader.getMaxPhyOffset();
            assertTrue(end > stoppedAt + 4L * RaftStores.FILE_SIZE, "the others wrote several files on: " + end);

            int deleted = leader.executeDeleteFilesManually();
            long min = leader.getMinPhyOffset();
            assertTrue(deleted > 0 && min > 0, "the files wholly below the follower's progress went: " + deleted);
            assertTrue(min <= stoppedAt, "the leader kept from " + stoppedAt + " (the follower's end), not " + min);

            DefaultMessageStore back = RaftStores.start(dir.resolve("n" + f), peers, "n" + f);
            stores.set(f, back);
            await("n" + f + " caught up to " + end, () -> status(back).committedOffset() >= end);
            BehindMessages.awaitQueues(back, TOPIC, QUEUES, 1000);
            assertArrayEquals(BehindMessages.commitLog(leader, min, end), BehindMessages.commitLog(back, min, end),
                    "the follower's CommitLog differs from the leader's");
            assertEquals("", leader.replicationStatus().problem(), "no follower needs a rebuild");
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    /**
     * Catches: a far-behind follower that silently stays behind (nothing names it, nothing says what to do) or
     * counts as a follower in contact (it answers heartbeats, but takes nothing), one
     * that takes bytes past a gap (a CommitLog that is not a prefix of the group's), a group that stops taking puts
     * because one member cannot catch up, and a node rebuilt from a copy of a member's store that does not rejoin
     * byte-identically (a copied Raft state that does not match the copied CommitLog, or a log that starts past 0).
     */
    @Test
    void aFollowerWhoseFilesTheLeaderDeletedIsNamedAndRejoinsFromACopyOfAMembersStore() throws Exception {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            RaftStores.startAll(dir, peers, stores);
            DefaultMessageStore first = RaftStores.leader(stores);
            int f = (index(first) + 1) % 3;
            int g = (index(first) + 2) % 3;
            String fId = "n" + f;
            BehindMessages.put(first, TOPIC, QUEUES, 0, 200);
            long stoppedAt = first.getMaxPhyOffset();
            await(fId + " holds " + stoppedAt, () -> status(stores.get(f)).committedOffset() >= stoppedAt);
            stores.get(f).close();
            stores.set(f, null);
            byte[] early = BehindMessages.commitLog(first, 0, stoppedAt);
            BehindMessages.put(RaftStores.leader(stores), TOPIC, QUEUES, 200, 1200);

            // the disk of both live members passes diskSpaceCleanForciblyRatio (85%): retention deletes files the
            // stopped follower needs (on both, so whichever leads later cannot send them either)
            for (int i : new int[] {index(first), g}) {
                DiskSpaceMonitor disk = RaftTestAccess.diskMonitor(stores.get(i));
                disk.useProbe(DiskUsageProbe.fixedRatio(0.88));
                assertTrue(stores.get(i).executeDeleteFilesManually() > 0, "n" + i + " deleted files");
                assertTrue(stores.get(i).getMinPhyOffset() > stoppedAt, "n" + i + " deleted what " + fId + " needs");
                disk.useProbe(DiskUsageProbe.fixedRatio(0.50));
                disk.check();
            }

            DefaultMessageStore behind = RaftStores.start(dir.resolve(fId), peers, fId);
            stores.set(f, behind);
            String[] problem = new String[1];
            await("the leader names " + fId + " as needing a rebuild", () -> {
                problem[0] = RaftStores.leader(stores).replicationStatus().problem();
                return problem[0].contains(fId) && problem[0].contains("rebuild");
            });
            assertTrue(problem[0].contains("copy"), problem[0]);
            // it answers heartbeats but can take nothing: once the leader has just heard from it (so by its last
            // contact alone it would count), only the other member counts as a follower in contact
            DefaultMessageStore leaderNow = RaftStores.leader(stores);
            await("the leader heard from " + fId + " within 300 ms", () -> status(leaderNow).peers().stream()
                    .anyMatch(p -> p.id().equals(fId) && p.lastContactMillis() >= 0 && p.lastContactMillis() < 300));
            assertEquals(1, leaderNow.replicationStatus().connectedSlaves(),
                    "followers in contact while " + fId + " cannot catch up");
            BehindMessages.put(RaftStores.leader(stores), TOPIC, QUEUES, 1200, 1300);
            long own = behind.getMaxPhyOffset();
            assertTrue(status(behind).committedOffset() <= stoppedAt && own <= stoppedAt,
                    fId + " took nothing past the gap: " + own);
            assertArrayEquals(Arrays.copyOf(early, (int) own), BehindMessages.commitLog(behind, 0, own),
                    fId + " holds a prefix of the group's log");
            long keptFrom = stores.get(g).getMinPhyOffset();
            assertTrue(keptFrom > own, "the gap is real: the members start at " + keptFrom);

            // the operator's rebuild: stop the behind node and a current member, copy the member's store, start both
            behind.close();
            stores.set(f, null);
            stores.get(g).close();
            stores.set(g, null);
            // as with an operator's copy, which takes longer than an election timeout: the leader, alone, steps
            // down, and the rebuilt node catches up under a later term's leader (RaftBehindRebuiltUnderSameLeaderTest
            // covers the leader that stays)
            int alone = 3 - f - g;
            await("n" + alone + ", alone, stepped down", () -> !status(stores.get(alone)).isLeader());
            BehindMessages.replaceWithCopy(dir.resolve("n" + g), dir.resolve(fId));
            stores.set(g, RaftStores.start(dir.resolve("n" + g), peers, "n" + g));
            DefaultMessageStore rebuilt = RaftStores.start(dir.resolve(fId), peers, fId);
            stores.set(f, rebuilt);

            DefaultMessageStore leader = BehindMessages.settledLeader(stores);
            BehindMessages.put(leader, TOPIC, QUEUES, 1300, 1400);
            long end = leader.getMaxPhyOffset();
            long from = Arrays.stream(new int[] {0, 1, 2}).mapToLong(i -> stores.get(i).getMinPhyOffset()).max()
                    .orElseThrow();
            await(fId + " caught up to " + end, () -> status(rebuilt).committedOffset() >= end);
            BehindMessages.awaitQueues(rebuilt, TOPIC, QUEUES, 1400);
            byte[] leaderBytes = BehindMessages.commitLog(leader, from, end);
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(leaderBytes, BehindMessages.commitLog(stores.get(i), from, end),
                        "the CommitLog of n" + i + " from " + from + " differs from the leader's");
            }
            await("the leader no longer names a follower to rebuild",
                    () -> RaftStores.leader(stores).replicationStatus().problem().isEmpty());
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    private static int index(DefaultMessageStore store) {
        return Integer.parseInt(status(store).selfId().substring(1));
    }
}
