package dev.hangar.raft;

import static dev.hangar.raft.RaftChildProcess.ackLines;
import static dev.hangar.raft.RaftChildProcess.awaitLeader;
import static dev.hangar.raft.RaftChildProcess.status;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that restarts while no majority is up still shows what was committed before the crash.
 *
 * <p>Ratis' commit-metadata entries are off (a second replicated, forced round after every entry), so nothing in
 * Ratis' log tells a restarting node how far it was committed: only the snapshot that {@link CommittedOffsetSaver}
 * writes every second. Three processes take puts, stop, and every node saves a snapshot at the committed offset; then
 * all three are killed with kill -9 and one restarts alone. Its readers must see every acknowledged put.
 *
 * <p>Catches: no periodic save (the wait for the snapshot times out, as with Ratis' own snapshots every 100,000
 * entries); a restart that does not take its committed offset from the snapshot (the lone node's committed offset and
 * queues stop short); a save that claims an offset further than what was applied (the dump would show messages no
 * acknowledged put made, and the check of the restarted node's committed offset against the leader's fails).
 */
class RaftRestartAloneTest {
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aNodeRestartedWithoutAMajorityShowsEveryPutCommittedBeforeTheCrash() throws Exception {
        Path base = Files.createDirectories(dir.resolve("alone"));
        String peers = RaftStores.peers(3);
        RaftChildProcess[] nodes = new RaftChildProcess[3];
        try {
            for (int i = 0; i < 3; i++) {
                nodes[i] = new RaftChildProcess(base, peers, "n" + i, "raft");
                nodes[i].launch();
            }
            for (RaftChildProcess n : nodes) {
                n.awaitStarted();
            }
            int leader = awaitLeader(base, nodes, -1);
            RaftStores.await("puts acknowledged", () -> ackLines(base) > 200);
            long committed = RaftChildProcess.pauseAll(nodes);
            for (RaftChildProcess n : nodes) {
                RaftStores.await(n.id + " committed up to " + committed,
                        () -> status(base, n.id).committed() >= committed);
                RaftStores.await(n.id + " saved the committed offset " + committed,
                        () -> savedCommittedOffset(base, n.id) >= committed);
            }
            for (RaftChildProcess n : nodes) {
                n.kill();
            }

            RaftChildProcess alone = nodes[(leader + 1) % 3];
            alone.start();
            RaftStores.await(alone.id + " reports its view", () -> !"UNKNOWN".equals(status(base, alone.id).role()));
            RaftChildProcess.Status s = status(base, alone.id);
            assertTrue(!s.ready(), alone.id + " alone must not take puts: " + s);
            assertTrue(s.committed() == committed, alone.id + " restarted alone with the committed offset "
                    + s.committed() + ", before the crash it was " + committed);

            alone.send("dump " + committed, "DUMPED");
            Set<String> shown = Files.readAllLines(base.resolve(alone.id + ".dump")).stream()
                    .map(l -> l.split(" ", 3)[2]).collect(Collectors.toSet());
            Set<String> acked = new HashSet<>();
            for (RaftChildProcess n : nodes) {
                Path f = base.resolve(n.id + ".acks");
                if (Files.exists(f)) {
                    acked.addAll(Files.readAllLines(f));
                }
            }
            assertTrue(acked.size() > 200, "the harness acknowledged only " + acked.size() + " puts");
            List<String> missing = acked.stream().filter(b -> !shown.contains(b)).sorted().toList();
            assertTrue(missing.isEmpty(), alone.id + ", restarted alone, does not show " + missing.size() + " of "
                    + acked.size() + " acknowledged puts, e.g. " + missing.subList(0, Math.min(5, missing.size())));
        } finally {
            for (RaftChildProcess n : nodes) {
                if (n != null) {
                    n.stop();
                }
            }
        }
    }

    /** The committed offset of the newest snapshot in a child's Ratis state-machine directory, or -1. */
    private static long savedCommittedOffset(Path base, String id) {
        Path sm = base.resolve(id).resolve("raft").resolve(RatisSetup.GROUP_ID.getUuid().toString()).resolve("sm");
        try {
            TinySnapshots.Snapshot s = TinySnapshots.readLatest(sm);
            return s == null ? -1 : s.committedOffset();
        } catch (RuntimeException e) {
            return -1; // a snapshot being renamed: read again
        }
    }
}
