package dev.hangar.raft;

import static dev.hangar.raft.RaftChildProcess.awaitLeader;
import static dev.hangar.raft.RaftChildProcess.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A network partition with real processes: three nodes, each behind a {@link TcpRelay} (raft.peers names the relays,
 * each node binds its own port with raft.listen), four writers on whichever leads. The relays cut the leader off from
 * both others, both ways, while its writers keep putting. The old leader must acknowledge nothing it cannot commit,
 * the other two elect a leader that takes puts, and no node's queues, index or long polls may show a byte past the
 * committed offset. After healing, the old leader follows and cuts its uncommitted tail: the CommitLogs are
 * byte-identical up to the committed offset, every acknowledged put is there once, and no body that only the cut-off
 * leader appended is found anywhere, by queue or by key, nor was ever read. The negative control (a leader that
 * acknowledges before a majority has the bytes) must be caught losing the puts it acknowledged while cut off.
 */
class RaftPartitionTest {
    /** Puts the cut-off leader begins at once after the cut. */
    private static final int BURST = 16;

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aLeaderCutOffAcknowledgesNothingItCannotCommitAndItsUncommittedTailVanishes() throws Exception {
        Outcome o = run("raft");
        System.out.println("raft partition: " + o);
        assertTrue(o.acknowledged > 0, "nothing was acknowledged: the harness did not put");
        assertTrue(o.cutTail > 0, "the leader was cut off with no uncommitted bytes: the test saw no tail to cut");
        assertTrue(o.cutBodies > 0, "no put of the cut-off leader was cut: its burst after the cut was refused");
        assertEquals(0, o.ackedAfterCut, "the cut-off leader acknowledged puts it took after the cut: " + o.problems);
        assertEquals(0, o.lost, "acknowledged puts lost: " + o.problems);
        assertEquals(0, o.divergent, "nodes diverge or showed uncommitted messages: " + o.problems);
        assertEquals(List.of(), o.problems);
    }

    @Test
    void negativeControlAcknowledgingBeforeAMajorityIsCaughtLosingPuts() throws Exception {
        Outcome o = run("raft-ack-early");
        System.out.println("raft partition negative control: " + o);
        assertTrue(o.lost > 0, "the partition did not catch a leader that acknowledges before a majority has the "
                + "bytes: " + o);
        assertTrue(o.ackedAfterCut > 0, "the harness did not see the cut-off leader acknowledge puts it began after "
                + "the cut: " + o);
    }

    /**
     * @param acknowledged distinct puts acknowledged by any node
     * @param lost         the most acknowledged puts one node lacks at the end
     * @param divergent    differences between the nodes, and messages shown that are not in the final log
     * @param cutTail      bytes the cut-off leader held past its committed offset while cut off
     * @param cutBodies    bodies the cut-off leader tried to put that are in no final log
     * @param ackedAfterCut puts the cut-off leader began after the cut and acknowledged (it cannot commit them)
     * @param problems     what went wrong, in words
     * @param phases       how long each phase took (ms), for the report
     */
    private record Outcome(long acknowledged, long lost, long divergent, long cutTail, long cutBodies,
                           long ackedAfterCut,
                           List<String> problems, String phases) {
    }

    private Outcome run(String provider) throws Exception {
        ConnectionOwners.requireProc(ProcessHandle.current().pid());
        Path base = Files.createDirectories(dir.resolve(provider));
        ConnectionOwners owners = new ConnectionOwners();
        TcpRelay.Partition partition = new TcpRelay.Partition();
        int[] nodePorts = new int[3];
        List<String> peers = new ArrayList<>();
        TcpRelay[] relays = new TcpRelay[3];
        RaftChildProcess[] nodes = new RaftChildProcess[3];
        List<String> problems = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodePorts[i] = RaftStores.freePort();
                int relayPort = RaftStores.freePort();
                relays[i] = new TcpRelay("n" + i, relayPort, nodePorts[i], owners, partition);
                peers.add("n" + i + "@127.0.0.1:" + relayPort);
            }
            Phases phases = new Phases();
            for (int i = 0; i < 3; i++) {
                String id = "n" + i;
                nodes[i] = new RaftChildProcess(base, String.join(",", peers), id, provider,
                        "raft.listen=127.0.0.1:" + nodePorts[i]);
                nodes[i].onLaunch = p -> owners.register(id, p.pid());
                nodes[i].launch();
            }
            for (RaftChildProcess n : nodes) {
                n.awaitStarted();
            }
            phases.mark("started");
            int leader = awaitLeader(base, nodes, -1);
            String old = nodes[leader].id;
            RaftStores.await("puts acknowledged by " + old, () -> lines(base.resolve(old + ".acks")).size() > 50);
            // the two that stay must hold what the leader committed, or they cannot elect one of them
            long committed = status(base, old).committed();
            for (RaftChildProcess n : nodes) {
                RaftStores.await(n.id + " caught up to " + committed,
                        () -> status(base, n.id).committed() >= committed);
            }

            phases.mark("led and caught up");
            partition.isolate(old);
            // every put the old leader begins from here on lacks a majority: none may be acknowledged (counted after
            // the cut, so a put begun just before it counts as before)
            int triedBeforeCut = lines(base.resolve(old + ".tried")).size();
            // its writers wait on the puts they began before the cut; these it appends now, and no one else will have
            // them: the tail that healing must cut (sent at once, while it still believes it leads)
            nodes[leader].send("burst " + BURST, "BURST");
            int next = awaitLeader(base, nodes, leader);
            phases.mark("new leader");
            String now = nodes[next].id;
            long newLeaderAcks = lines(base.resolve(now + ".acks")).size();
            RaftStores.await("the new leader " + now + " acknowledges puts",
                    () -> lines(base.resolve(now + ".acks")).size() > newLeaderAcks + 10);
            RaftStores.await(old + ", cut off, holds bytes past its committed offset", () -> {
                RaftChildProcess.Status s = status(base, old);
                return s.maxOffset() > s.committed() && s.committed() >= 0;
            });
            RaftChildProcess.Status cutOff = status(base, old);
            long cutTail = cutOff.maxOffset() - cutOff.committed();
            // while cut off, no node (the old leader least of all) may show a message at or past its committed offset
            for (RaftChildProcess n : nodes) {
                String probe = n.send("probe", "PROBED");
                if (!probe.startsWith("PROBED 0 of")) {
                    problems.add(n.id + " showed uncommitted messages while " + old + " was cut off: " + probe);
                }
            }
            if (!problems.isEmpty()) {
                throw new AssertionError("while " + old + " was cut off: " + problems);
            }
            phases.mark("probed");
            partition.heal();
            long groupCommitted = status(base, now).committed();
            RaftStores.await(old + " rejoins as a follower past " + groupCommitted, () -> {
                RaftChildProcess.Status s = status(base, old);
                return "FOLLOWER".equals(s.role()) && !s.ready() && s.committed() >= groupCommitted;
            });
            phases.mark("rejoined");
            long paused = RaftChildProcess.pauseAll(nodes);
            String last = nodes[awaitLeader(base, nodes, -1)].id;
            // the end: the leader's committed offset once everything it appended is committed and every node knows it
            // (a leader that acknowledges early still commits after its puts were answered)
            RaftStores.await("every node committed all " + last + " appended", () -> {
                RaftChildProcess.Status s = status(base, last);
                return s.committed() >= paused && s.committed() == s.maxOffset() && Arrays.stream(nodes)
                        .allMatch(n -> status(base, n.id).committed() == s.committed());
            });
            long end = status(base, last).committed();
            for (RaftChildProcess n : nodes) {
                n.send("dump " + end, "DUMPED");
            }
            for (TcpRelay r : relays) {
                problems.addAll(r.problems());
            }
            long refused = Arrays.stream(relays).mapToLong(TcpRelay::refused).sum();
            if (refused == 0) {
                problems.add("the relays cut no connection: " + Arrays.toString(relays));
            }
            phases.mark("dumped");
            return check(base, nodes, old, end, cutTail, triedBeforeCut, problems, phases);
        } catch (AssertionError e) {
            // the temp directory is kept when the test fails (CleanupMode.ON_SUCCESS), but a CI clone is not
            throw new AssertionError(e.getMessage() + "\nrelays: " + Arrays.toString(relays)
                    + RaftChildProcess.explain(base, nodes), e);
        } finally {
            for (RaftChildProcess n : nodes) {
                if (n != null) {
                    n.stop();
                }
            }
            for (TcpRelay r : relays) {
                if (r != null) {
                    r.close();
                }
            }
        }
    }

    private Outcome check(Path base, RaftChildProcess[] nodes, String old, long committed, long cutTail,
                          int triedBeforeCut, List<String> problems, Phases phases) throws IOException {
        Set<String> acked = new HashSet<>();
        for (RaftChildProcess n : nodes) {
            acked.addAll(lines(base.resolve(n.id + ".acks")));
        }
        List<String> reference = lines(base.resolve(nodes[0].id + ".dump"));
        Set<String> finalBodies = reference.stream().map(l -> l.split(" ", 3)[2]).collect(Collectors.toSet());
        // what the cut-off leader tried to put and no node kept: appended only by it (or refused before the append)
        List<String> cut = lines(base.resolve(old + ".tried")).stream().filter(b -> !finalBodies.contains(b)).toList();
        // the burst began after the cut: one of it in the final log means the relays let the cut-off leader through
        long burstKept = finalBodies.stream().filter(b -> b.startsWith(old + "-") && b.contains("-burst-")).count();
        if (burstKept > 0) {
            problems.add(burstKept + " of the puts " + old + " began after it was cut off reached the others");
        }
        Path cutFile = Files.write(base.resolve("cut-bodies"), cut);
        byte[] referenceBytes = RaftStores.commitLogBytes(base.resolve(nodes[0].id), committed);
        long lost = 0;
        long divergent = 0;
        for (RaftChildProcess n : nodes) {
            List<String> dump = lines(base.resolve(n.id + ".dump"));
            if (!dump.equals(reference)) {
                divergent++;
                problems.add(n.id + "'s queues differ from " + nodes[0].id + "'s");
            }
            if (!Arrays.equals(referenceBytes, RaftStores.commitLogBytes(base.resolve(n.id), committed))) {
                divergent++;
                problems.add(n.id + "'s CommitLog differs from " + nodes[0].id + "'s below " + committed);
            }
            List<String> bodies = dump.stream().map(l -> l.split(" ", 3)[2]).toList();
            if (new HashSet<>(bodies).size() != bodies.size()) {
                divergent++;
                problems.add(n.id + " holds a body twice");
            }
            long missing = acked.stream().filter(b -> !bodies.contains(b)).count();
            if (missing > 0) {
                problems.add(n.id + " lacks " + missing + " acknowledged puts");
            }
            lost = Math.max(lost, missing);
            Set<String> finalLines = new HashSet<>(dump);
            for (String shown : List.of(".reads", ".polls")) {
                long phantom = lines(base.resolve(n.id + shown)).stream().filter(l -> !finalLines.contains(l)).count();
                if (phantom > 0) {
                    divergent += phantom;
                    problems.add(n.id + "'s " + shown.substring(1) + " showed " + phantom
                            + " messages that are not in the final log there");
                }
            }
            String keys = n.send("keys " + cutFile, "KEYS");
            if (!keys.startsWith("KEYS 0 of")) {
                divergent++;
                problems.add(n.id + " finds by key bodies only the cut-off leader appended: " + keys);
            }
        }
        phases.mark("checked");
        List<String> tried = lines(base.resolve(old + ".tried"));
        Set<String> ackedByOld = new HashSet<>(lines(base.resolve(old + ".acks")));
        long ackedAfterCut = tried.subList(Math.min(triedBeforeCut, tried.size()), tried.size()).stream()
                .filter(ackedByOld::contains).count();
        if (ackedAfterCut > 0) {
            problems.add(old + " acknowledged " + ackedAfterCut + " puts it began after it was cut off");
        }
        return new Outcome(acked.size(), lost, divergent, cutTail, cut.size(), ackedAfterCut, problems,
                phases.toString());
    }

    /** Milliseconds from one mark to the next. */
    private static final class Phases {
        private final StringBuilder out = new StringBuilder();
        private long last = System.nanoTime();

        void mark(String phase) {
            long now = System.nanoTime();
            out.append(out.length() == 0 ? "" : ", ").append(phase).append(' ').append((now - last) / 1_000_000);
            last = now;
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }

    private static List<String> lines(Path file) {
        try {
            return !Files.exists(file) ? List.of()
                    : Files.readAllLines(file).stream().filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
