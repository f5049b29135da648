package dev.hangar.store.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.flush.FlushTarget;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A consensus follower forces its CommitLog on Ratis' log worker while its appends, and the cuts a new leader's entries
 * cause, run on another thread. A cut below the offset being forced shuts the file down whose force is under way: the
 * flushed position stops short of the old end for good. The force must then end at the new end, not wait for the old
 * one (it spun forever, and the follower never acknowledged again: RaftPartitionTest's negative control timed out
 * waiting for every node to commit).
 */
class ForceThroughTest {
    /** Ends with the log forced through its end after a cut during the force. */
    @Test
    void aCutDuringTheForceEndsItAtTheNewEnd() throws IOException {
        CutDuringFlush target = new CutDuringFlush(342_031, 327_680, 0);
        CommitLogReplicaPort.forceThrough(target, 342_031);
        assertEquals(1, target.flushes, "the force went on after the cut had moved the end below the flushed position");
    }

    @Test
    void withoutACutItFlushesUntilTheOffset() throws IOException {
        CutDuringFlush target = new CutDuringFlush(1000, 0, -1);
        CommitLogReplicaPort.forceThrough(target, 600);
        assertEquals(600, Math.min(600, target.flushed));
    }

    /**
     * A CommitLog whose end is {@code end}, flushed through {@code flushed}; the first flush finds its file shut down by
     * a cut to {@code cutTo} (no progress, the end moves back), unless {@code cutTo} is negative: then each flush moves
     * 100 bytes. Counts flushes, and refuses to be flushed a thousand times (a force that never ends).
     */
    private static final class CutDuringFlush implements FlushTarget {
        private long end;
        private long flushed;
        private final long cutTo;
        int flushes;

        CutDuringFlush(long end, long flushed, long cutTo) {
            this.end = end;
            this.flushed = flushed;
            this.cutTo = cutTo;
        }

        @Override
        public boolean flush(int leastPages) {
            if (++flushes > 1000) {
                throw new AssertionError("flushed " + flushes + " times without reaching the end: the force spins");
            }
            if (cutTo >= 0) {
                end = cutTo; // the cut shut the file down: this flush did nothing
                flushed = Math.min(flushed, end);
            } else {
                flushed = Math.min(end, flushed + 100);
            }
            return false;
        }

        @Override
        public boolean commit(int leastPages) {
            return true;
        }

        @Override
        public long flushedWhere() {
            return flushed;
        }

        @Override
        public long committedWhere() {
            return end;
        }

        @Override
        public long maxWrotePosition() {
            return end;
        }

        @Override
        public long storeTimestamp() {
            return 0;
        }
    }
}
