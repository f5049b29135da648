package dev.hangar.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.ha.ReplicatedLog;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.StateMachineEntryProto;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two ways {@link CommitLogStateMachine} cuts the CommitLog back, each of which may only remove bytes that no entry
 * of the Raft log covers.
 *
 * <p>A new leader cuts the bytes past its committed offset before it takes puts (they belong to no entry). Ratis tells it
 * "ready" on its updater thread and the cut runs later on the leadership thread; by then the node may have stepped down
 * and appended a newer leader's entries as a follower. Those bytes are in its Raft log and may have been counted in a
 * majority: a cut then would lose them and leave the Raft log naming bytes the CommitLog no longer has (the follower
 * stops at its next entry, "bytes are missing"). {@link CommitLogStateMachine#cutUncoveredTail} cuts only while this node
 * still leads in the term it was ready in.
 *
 * <p>Ratis' truncation of its log (a new leader's entries replace this node's uncommitted ones) cuts the CommitLog to the
 * end of the last entry kept, which must be known exactly: after a restart it often is not.
 */
class StateMachineCutsTest {
    @TempDir
    Path dir;

    private final MemoryLog log = new MemoryLog();
    /** The term this node leads now, -1 while it follows. */
    private final AtomicLong leading = new AtomicLong(-1);

    private CommitLogStateMachine stateMachine() {
        return new CommitLogStateMachine(log, new TinySnapshots(dir), new CommitLogStateMachine.Events() {
            @Override
            public void committed(long offset) {
            }

            @Override
            public void leaderReady(long term) {
            }

            @Override
            public void leaderChanged(org.apache.ratis.protocol.RaftPeerId leaderId) {
            }
        }, term -> leading.get() == term);
    }

    @Test
    void aLateCutAfterSteppingDownLeavesTheNewLeadersEntriesInPlace() throws Exception {
        CommitLogStateMachine sm = stateMachine();
        // ready as leader of term 2 (the cut is queued), then deposed: term 3's leader sends its first entry
        byte[] bytes = filled(300, (byte) 7);
        sm.write(followerEntry(3, 1, 0, bytes), null).get(10, TimeUnit.SECONDS);
        assertEquals(300, log.maxOffset(), "the follower appended the new leader's entry");

        assertEquals(-1, sm.cutUncoveredTail(2), "term 2's cut ran though this node no longer leads term 2");
        assertEquals(300, log.maxOffset(), "the late cut removed bytes of a newer leader's entry");
        assertEquals(0, log.truncations());
        // the next entry of term 3 continues the log: nothing is missing
        sm.write(followerEntry(3, 2, 300, filled(100, (byte) 8)), null).get(10, TimeUnit.SECONDS);
        assertEquals(400, log.maxOffset());
    }

    @Test
    void aLeaderStillInItsTermCutsWhatNoEntryCovers() {
        CommitLogStateMachine sm = stateMachine();
        leading.set(2);
        log.put(500); // puts of an earlier leadership whose range never reached a majority
        assertEquals(0, sm.cutUncoveredTail(2));
        assertEquals(0, log.maxOffset(), "the uncovered tail stayed");
        assertEquals(0, sm.appendedEnd(), "the next entry must start where the cut left the log");
    }

    @Test
    void aLeaderOfALaterTermDoesNotRunAnEarlierTermsCut() {
        CommitLogStateMachine sm = stateMachine();
        // led term 2, stepped down, leads term 4 now but is not ready in it yet: its log may hold term 3's entries,
        // not yet committed, whose bytes term 2's cut would remove
        leading.set(4);
        log.put(200);
        assertEquals(-1, sm.cutUncoveredTail(2));
        assertEquals(200, log.maxOffset());
    }

    /**
     * After a restart the state machine knows only the snapshot's entry (here: none) and the entries it writes or
     * applies from then on. A new leader's first append makes Ratis drop this node's uncommitted last entry, 3; the
     * entries before it (1 and 2, [0, 300)) were written before the restart and are not applied yet, so where entry 2
     * ends is unknown here. Cutting at the last known end (the committed offset, 0) removed committed bytes that Ratis'
     * log still lists: the next entry then found "bytes are missing" and the node's log worker failed for good.
     */
    @Test
    void aTruncationAfterARestartCutsNothingBelowTheEntriesTheRaftLogKeeps() throws Exception {
        log.put(400); // entries 1-3 before the restart: [0, 100), [100, 300), [300, 400)
        CommitLogStateMachine sm = stateMachine();
        sm.truncate(3).get(10, TimeUnit.SECONDS);
        assertEquals(400, log.maxOffset(), "the cut reached below the end of entry 2, which the Raft log keeps");
        // the new leader's entry 3 starts where entry 2 ends: its append cuts the old entry 3 and continues there
        sm.write(followerEntry(4, 3, 300, filled(50, (byte) 9)), null).get(10, TimeUnit.SECONDS);
        assertEquals(350, log.maxOffset());
    }

    @Test
    void aTruncationOfEntriesWrittenInThisProcessCutsAtTheEndOfTheEntryBefore() throws Exception {
        CommitLogStateMachine sm = stateMachine();
        sm.write(followerEntry(2, 1, 0, filled(100, (byte) 1)), null).get(10, TimeUnit.SECONDS);
        // entry 2 is a configuration entry (no bytes, no write); entry 3 has bytes
        sm.write(followerEntry(2, 3, 100, filled(200, (byte) 3)), null).get(10, TimeUnit.SECONDS);
        sm.truncate(3).get(10, TimeUnit.SECONDS);
        assertEquals(100, log.maxOffset(), "entry 3's bytes stayed though the Raft log dropped it");
    }

    /**
     * A put admitted just before this node stopped leading can take the put lock between a follower append's cut and
     * its append. The append then failed ("do not continue"), and a failed write stops Ratis' log worker for good.
     */
    @Test
    void aFollowerAppendCutsAPutThatSlippedInBeforeIt() throws Exception {
        CommitLogStateMachine sm = stateMachine();
        log.strayPuts = 2;
        byte[] bytes = filled(120, (byte) 5);
        sm.write(followerEntry(3, 1, 0, bytes), null).get(10, TimeUnit.SECONDS);
        assertEquals(120, log.maxOffset());
        ByteBuffer back = ByteBuffer.allocate(120);
        log.read(0, back);
        assertEquals(ByteBuffer.wrap(bytes), back.flip(), "the entry's bytes are not what the CommitLog holds");
    }

    private static byte[] filled(int n, byte value) {
        byte[] b = new byte[n];
        Arrays.fill(b, value);
        return b;
    }

    private static LogEntryProto followerEntry(long term, long index, long start, byte[] data) {
        int crc = RaftEntryFormat.crc(ByteBuffer.wrap(data));
        return LogEntryProto.newBuilder().setTerm(term).setIndex(index)
                .setStateMachineLogEntry(StateMachineLogEntryProto.newBuilder()
                        .setLogData(ByteString.copyFrom(RaftEntryFormat.encode(start, data.length, crc)))
                        .setStateMachineEntry(StateMachineEntryProto.newBuilder()
                                .setStateMachineData(ByteString.copyFrom(data))))
                .build();
    }

    /** A CommitLog in memory: one file, bytes from offset 0, counting its cuts. */
    private static final class MemoryLog implements ReplicatedLog {
        private final byte[] bytes = new byte[1 << 20];
        private long end;
        private int truncations;
        /** Puts that land just before the next appends, one each. */
        int strayPuts;

        @Override
        public int fileSize() {
            return bytes.length;
        }

        @Override
        public synchronized long minOffset() {
            return end == 0 ? -1 : 0;
        }

        @Override
        public synchronized long maxOffset() {
            return end;
        }

        @Override
        public synchronized int read(long offset, ByteBuffer target) {
            int n = (int) Math.max(0, Math.min(target.remaining(), end - offset));
            target.put(bytes, (int) offset, n);
            return n;
        }

        @Override
        public synchronized void appendAt(long offset, ByteBuffer data) {
            if (strayPuts > 0) {
                strayPuts--;
                end += 50; // a put admitted before the step-down took the lock first
            }
            if (offset != end) {
                throw new IllegalStateException("append at " + offset + " but the log ends at " + end);
            }
            int n = data.remaining();
            data.get(bytes, (int) offset, n);
            end += n;
        }

        /** A leader's put of {@code n} bytes. */
        synchronized void put(int n) {
            end += n;
        }

        @Override
        public synchronized void truncate(long offset) {
            if (offset < end) {
                truncations++;
                end = offset;
            }
        }

        synchronized int truncations() {
            return truncations;
        }

        @Override
        public void force(long offset) {
        }

        @Override
        public void committedMoved() {
        }
    }
}
