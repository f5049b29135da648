package dev.hangar.dispatch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.message.MessageSysFlag;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index takes its file's write lock once per batch of records ({@code endBatch} lets go): a query from another
 * thread never sees part of a record's keys; it waits until the batch ends, or until the next record (which ends
 * the batch early for it); a batch may run across a file roll.
 */
class IndexBatchTest {
    private static final String TOPIC = "Batched";
    private static final long BASE_TIME = 1_700_000_000_000L;
    private static final int MSG_SIZE = 100;

    @TempDir
    Path root;
    private DispatchFixture fixture;
    private CommitLogDispatcher dispatcher;
    private KeyIndexView view;
    private final ExecutorService queries = Executors.newSingleThreadExecutor();

    @BeforeEach
    void open() {
        fixture = new DispatchFixture(root).with(StoreConfigKeys.MAX_HASH_SLOT_NUM, 100)
                .with(StoreConfigKeys.MAX_INDEX_NUM, 400);
        dispatcher = fixture.open("index", true);
        view = dispatcher.view(KeyIndexView.class).orElseThrow();
    }

    @AfterEach
    void close() {
        queries.shutdownNow();
        dispatcher.close();
        fixture.close();
    }

    @Test
    void aQueryFromAnotherThreadWaitsForTheBatchAndThenSeesAllOfIt() throws Exception {
        dispatch(0, "first");
        dispatcher.endBatch();
        dispatch(1, "same");
        dispatch(2, "same");

        Future<List<Long>> during = queryWhileTheBatchHoldsTheFile("same");
        dispatcher.endBatch();

        assertEquals(List.of(phy(2), phy(1)), during.get(30, TimeUnit.SECONDS), "the whole batch");
        assertEquals(List.of(phy(0)), view.queryOffsets(TOPIC, "first", 100, 0, Long.MAX_VALUE));
    }

    @Test
    void aWaitingQueryEndsTheBatchAtTheNextRecordInsteadOfWaitingForItsEnd() throws Exception {
        dispatch(1, "same");
        dispatch(2, "same");
        Future<List<Long>> during = queryWhileTheBatchHoldsTheFile("same");

        // the next record publishes the two before it and lets the query in before its own keys
        dispatch(3, "same");
        assertEquals(List.of(phy(2), phy(1)), during.get(30, TimeUnit.SECONDS));
        dispatcher.endBatch();
        assertEquals(List.of(phy(3), phy(2), phy(1)), view.queryOffsets(TOPIC, "same", 100, 0, Long.MAX_VALUE));
    }

    /** Starts a query on another thread and returns once it waits for the file's lock. */
    private Future<List<Long>> queryWhileTheBatchHoldsTheFile(String key) throws InterruptedException {
        AtomicReference<Thread> queryThread = new AtomicReference<>();
        Future<List<Long>> during = queries.submit(() -> {
            queryThread.set(Thread.currentThread());
            return view.queryOffsets(TOPIC, key, 100, 0, Long.MAX_VALUE);
        });
        awaitBlocked(queryThread);
        assertFalse(during.isDone(), "the query waits while the batch holds the file");
        return during;
    }

    @Test
    void headerValuesReachOtherThreadsAtTheEndOfTheBatch() throws Exception {
        dispatch(0, "a");
        dispatcher.endBatch();
        dispatch(1, "b");
        assertEquals(phy(0), CompletableFuture.supplyAsync(dispatcher::durableOffset, queries).get(30, TimeUnit.SECONDS),
                "inside the batch other threads read the header of the last batch end");
        dispatcher.endBatch();
        assertEquals(phy(1), CompletableFuture.supplyAsync(dispatcher::durableOffset, queries).get(30, TimeUnit.SECONDS));
    }

    @Test
    void aBatchRunsAcrossAFileRollAndEveryKeyIsFound() {
        // 100 slots and 400 entries: 399 keys per file, 2 keys per record, so 450 records fill two files
        for (int i = 0; i < 450; i++) {
            dispatcher.dispatch(fixture.request(TOPIC, 0, i, phy(i), MSG_SIZE, BASE_TIME + i * 1000L, "k" + i,
                    "U" + i, MessageSysFlag.TRANSACTION_NOT_TYPE));
        }
        dispatcher.endBatch();
        assertEquals(3, ((IndexDispatcher) dispatcher).files().size());
        for (int i = 0; i < 450; i += 7) {
            assertEquals(List.of(phy(i)), view.queryOffsets(TOPIC, "k" + i, 10, 0, Long.MAX_VALUE), "k" + i);
            assertEquals(List.of(phy(i)), view.queryOffsets(TOPIC, "U" + i, 10, 0, Long.MAX_VALUE), "U" + i);
        }
        assertEquals(phy(449), dispatcher.durableOffset());
    }

    private void dispatch(long i, String key) {
        dispatcher.dispatch(fixture.request(TOPIC, 0, i, phy(i), MSG_SIZE, BASE_TIME + i * 1000L, key, null,
                MessageSysFlag.TRANSACTION_NOT_TYPE));
    }

    private static long phy(long i) {
        return i * MSG_SIZE;
    }

    /** Waits (up to 30 s) until the query thread parks on the file's lock. */
    private static void awaitBlocked(AtomicReference<Thread> thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Thread t = thread.get();
            if (t != null && t.getState() == Thread.State.WAITING) {
                return;
            }
            Thread.yield(); // a condition polled, not a timed sleep: the query thread parks within microseconds
        }
        assertTrue(false, "the query thread never waited for the batch");
    }
}
