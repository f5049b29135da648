package dev.hangar.store.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.dispatch.DispatcherVerification;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.verify.VerifyReport.Severity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify} leaves each dispatcher's files to its provider's verify hook. */
class DispatcherVerifyHookTest {
    @TempDir
    Path dir;

    /** A third-party dispatcher's check: it reads the first record through the hook and reports one finding. */
    private static final class CheckingProvider implements CommitLogDispatcherProvider {
        DispatcherVerification.RecordHeader seen;
        long maxOffsetSeen = -1;

        @Override
        public String name() {
            return "checking";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            throw new UnsupportedOperationException("verify must not build a dispatcher");
        }

        @Override
        public void verify(DispatcherVerification v) {
            maxOffsetSeen = v.commitLogMaxOffset();
            try {
                seen = v.record(0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            v.count("checkingFiles", 3);
            v.warning(v.storeRoot().resolve("checking"), -1, "my own finding");
        }
    }

    @Test
    void eachDispatcherChecksItsOwnFilesAndTheEngineNone() {
        StoreConfig config = TestStores.config(dir, "dispatchers", "consume-queue,index");
        PutMessageResult put;
        try (DefaultMessageStore store = new DefaultMessageStore(config)) {
            store.start();
            put = store.putMessage(TestStores.message("Hooked", 0, "hello").keys("k"));
            assertTrue(put.isOk(), put.toString());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
        CheckingProvider checking = new CheckingProvider();

        VerifyReport onlyMine = StoreVerifier.verify(dir, config, List.of(checking));

        assertEquals(put.appendResult().wroteBytes(), checking.maxOffsetSeen, "the hook sees the CommitLog's end");
        assertNotNull(checking.seen);
        assertTrue(checking.seen.messageStart());
        assertEquals("Hooked", checking.seen.topic());
        assertEquals(3, onlyMine.count("checkingFiles"));
        assertTrue(onlyMine.problems(Severity.WARNING).stream()
                .anyMatch(p -> p.file().equals("checking") && p.message().equals("my own finding")), onlyMine.toString());
        assertEquals(0, onlyMine.count("consumeQueues"), "the engine itself checks no ConsumeQueue");
        assertEquals(0, onlyMine.units());

        VerifyReport all = StoreVerifier.verify(dir, config);
        assertTrue(all.healthy(), all.toString());
        assertEquals(1, all.count("consumeQueues"), "the consume-queue provider's hook checked its queue");
        assertEquals(1, all.units());
        assertEquals(1, all.count("indexFiles"), "the index provider's hook checked its file");
    }
}
