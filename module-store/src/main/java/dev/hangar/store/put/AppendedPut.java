package dev.hangar.store.put;

import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import java.util.List;

/**
 * What the two results of an appended put ({@link StoredPut}, {@link PendingPut}) read alike from their one
 * {@link PutDetail} slot and their flat figures. An interface, not a base class, because {@link PendingPut} already
 * extends {@code CompletableFuture}: each keeps its own fields, so neither grows by a byte (see
 * {@code PutAllocationTest}).
 */
interface AppendedPut extends PutMessageResult {

    /** The {@link PutDetail} slot: the store's {@link PutCompletion} or a detail; only this package reads it. */
    Object slot();

    @Override
    default String reason() {
        return PutDetail.reason(slot());
    }

    @Override
    default AppendMessageResult appendResult() {
        return PutDetail.appendResult(slot(), wroteOffset(), wroteBytes(), storeTimestamp(), logicsOffset());
    }

    @Override
    default boolean appended() {
        return true;
    }

    @Override
    default int messageCount() {
        return PutDetail.messageCount(slot());
    }

    @Override
    default List<String> msgIds() {
        return PutDetail.msgIds(slot(), wroteOffset());
    }

    /** The text of {@code toString()} with the outcome named. */
    default String describe() {
        return PutDetail.describe(status(), slot(), wroteOffset(), wroteBytes(), storeTimestamp(), logicsOffset());
    }
}
