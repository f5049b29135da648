package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flat put result: what its accessors say is what {@code appendResult()} says and what the store holds, for a
 * single put, a batch, an asynchronous put (whose future is its own result) and a refusal. Catches a result whose
 * figures were copied from the reused append view after another put changed it, or read from the wrong slot.
 */
class PutResultTest {
    @TempDir
    Path dir;

    private static void assertSameFigures(PutMessageResult r) {
        AppendMessageResult a = r.appendResult();
        assertEquals(AppendMessageStatus.PUT_OK, a.status());
        assertEquals(r.wroteOffset(), a.wroteOffset());
        assertEquals(r.wroteBytes(), a.wroteBytes());
        assertEquals(r.storeTimestamp(), a.storeTimestamp());
        assertEquals(r.logicsOffset(), a.logicsOffset());
        assertEquals(r.messageCount(), a.messageCount());
        assertEquals(r.msgIds(), a.msgIds());
        assertEquals(r.msgId(), a.msgId());
    }

    @Test
    void eachPutsFlatFiguresAreItsOwnAndMatchItsAppendResult() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            PutMessageResult first = store.putMessage(TestStores.message("Flat", 0, "one"));
            PutMessageResult second = store.putMessage(TestStores.message("Flat", 0, "two"));
            assertTrue(first.isOk() && second.isOk(), first + " / " + second);
            assertTrue(first.appended());
            assertEquals(0, first.logicsOffset());
            assertEquals(1, second.logicsOffset());
            assertEquals(first.wroteOffset() + first.wroteBytes(), second.wroteOffset());
            assertEquals(1, first.messageCount());
            assertEquals(List.of(first.msgId()), first.msgIds());
            assertSameFigures(first);
            assertSameFigures(second);
            assertEquals(first.wroteOffset(), store.lookMessageByMsgId(first.msgId()).commitLogOffset());
            assertNull(first.reason());
        }
    }

    @Test
    void aBatchResultNamesEveryMessage() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            store.putMessage(TestStores.message("Flat", 1, "before"));
            List<Message> batch = List.of(TestStores.message("Flat", 1, "a"), TestStores.message("Flat", 1, "bb"),
                    TestStores.message("Flat", 1, "ccc"));
            PutMessageResult r = store.putMessages(batch);
            assertTrue(r.isOk(), r.toString());
            assertEquals(3, r.messageCount());
            assertEquals(1, r.logicsOffset());
            assertEquals(3, r.msgIds().size());
            assertSameFigures(r);
            for (int i = 0; i < 3; i++) {
                StoredMessage m = store.lookMessageByMsgId(r.msgIds().get(i));
                assertEquals(1 + i, m.queueOffset(), "message " + i);
            }
        }
    }

    @Test
    void anAsyncPutsFutureIsCompletedWithItselfAndCarriesItsFigures() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH")) {
            CompletableFuture<PutMessageResult> f1 = store.asyncPutMessage(TestStores.message("Flat", 2, "x"));
            CompletableFuture<PutMessageResult> f2 = store.asyncPutMessage(TestStores.message("Flat", 2, "y"));
            PutMessageResult r1 = f1.get();
            PutMessageResult r2 = f2.get();
            assertSame(f1, r1, "the future is the result");
            assertTrue(r1.isOk() && r2.isOk(), r1 + " / " + r2);
            assertEquals(0, r1.logicsOffset());
            assertEquals(1, r2.logicsOffset());
            assertSameFigures(r1);
            assertSameFigures(r2);
            assertEquals(r2.wroteOffset(), store.lookMessageByMsgId(r2.msgId()).commitLogOffset());
        }
    }

    @Test
    void aRefusalWroteNothingAndSaysWhy() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            PutMessageResult r = store.putMessage(TestStores.message("bad topic", 0, "x"));
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, r.status());
            assertFalse(r.appended());
            assertNull(r.appendResult());
            assertNull(r.msgId());
            assertTrue(r.msgIds().isEmpty());
            assertEquals(0, r.messageCount());
            assertTrue(r.reason() != null && r.reason().contains("topic"), r.reason());
        }
    }
}
