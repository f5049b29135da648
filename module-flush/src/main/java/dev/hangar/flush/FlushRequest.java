package dev.hangar.flush;

import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * The future {@link GroupCommitFlushService#handle} returns, which is also the waiter it registers: one object per
 * put for callers of the future API. The engine uses {@code awaitFlush} and passes a waiter of its own instead.
 */
final class FlushRequest extends CompletableFuture<PutMessageStatus> implements FlushWaiter {

    @Override
    public void flushed(PutMessageStatus status) {
        complete(status);
    }
}
