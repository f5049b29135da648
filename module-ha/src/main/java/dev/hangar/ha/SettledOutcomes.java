package dev.hangar.ha;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * One shared, already completed future per immediate answer of {@code ReplicationService.handle}: an ASYNC_MASTER
 * (or a SYNC_MASTER whose slave already acknowledged) answers every put without allocating. The engine only reads
 * these futures ({@code isDone}, {@code getNow}); nobody may complete or obtrude them, which is why they stay
 * package-private to module-ha and reach the engine only as return values.
 */
final class SettledOutcomes {
    static final CompletableFuture<PutMessageStatus> PUT_OK = CompletableFuture.completedFuture(PutMessageStatus.PUT_OK);
    static final CompletableFuture<PutMessageStatus> SLAVE_NOT_AVAILABLE =
            CompletableFuture.completedFuture(PutMessageStatus.SLAVE_NOT_AVAILABLE);
    static final CompletableFuture<PutMessageStatus> FLUSH_SLAVE_TIMEOUT =
            CompletableFuture.completedFuture(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);

    private SettledOutcomes() {
    }
}
