package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.RaftTestAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A put whose CommitLog was cut back between its append and its wait for the group is refused, never acknowledged.
 * Without the check, a put appended under one leadership and waiting under a later one (its thread stalled across
 * two elections) waited for an offset that the later leadership refilled with other puts' bytes after cutting its
 * own: it was answered PUT_OK for a message that no node holds. The engine reads the cut count before the append
 * (PutPipeline) and the raft service compares it when the put starts to wait.
 */
class RaftCutPutTest {
    @TempDir
    Path dir;

    @Test
    void aPutWhoseLogWasCutSinceItsAppendIsRefusedAndOneWithTheCurrentCountWaitsAsBefore() throws Exception {
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            RaftStores.startAll(dir, RaftStores.peers(3), stores);
            DefaultMessageStore leader = RaftStores.leader(stores);
            PutMessageResult put = leader.putMessage(message("Cut", 0, "first"));
            assertEquals(PutMessageStatus.PUT_OK, put.status(), put.toString());
            long end = put.appendResult().wroteOffset() + put.appendResult().wroteBytes();
            ReplicationService replication = RaftTestAccess.replication(leader);
            long cuts = RaftTestAccess.commitLogCuts(leader);

            CompletableFuture<PutMessageStatus> current = replication.handle(end, false, cuts);
            assertEquals(PutMessageStatus.PUT_OK, current.get(), "committed bytes, no cut since: acknowledged");
            CompletableFuture<PutMessageStatus> stale = replication.handle(end, false, cuts - 1);
            assertTrue(stale.isDone(), "a put whose log was cut since its append does not wait");
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, stale.get());

            PutMessageResult after = leader.putMessage(message("Cut", 0, "second"));
            assertEquals(PutMessageStatus.PUT_OK, after.status(), "ordinary puts read the current count");
        } finally {
            RaftStores.closeAll(stores);
        }
    }
}
