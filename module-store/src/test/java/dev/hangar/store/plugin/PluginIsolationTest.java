package dev.hangar.store.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestInternals;
import dev.hangar.store.TestStores;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Third-party dispatchers run on a thread and cursor of their own: a slow one holds up neither puts nor the
 * built-in dispatch and catches up later; one that throws an Error, fails to load or cannot tell its durable
 * offset is disabled with the reason in {@code stat}, and the store goes on.
 */
class PluginIsolationTest {
    private static final int MESSAGES = 20_000;

    @TempDir
    Path dir;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plugin(DefaultMessageStore store, String name) {
        Map<String, Object> dispatch = (Map<String, Object>) store.statsSnapshot().toMap().get("dispatch");
        return ((Map<String, Map<String, Object>>) dispatch.get("plugins")).get(name);
    }

    /** Puts {@link #MESSAGES} messages and returns the ms until all are readable through the ConsumeQueue. */
    private static long putAndTimeReadability(DefaultMessageStore store) {
        long begin = System.nanoTime();
        for (int i = 0; i < MESSAGES; i++) {
            assertEquals(PutMessageStatus.PUT_OK, store.putMessage(TestStores.message("Iso", i % 4, "m" + i)).status());
        }
        TestStores.await("all readable", () -> store.dispatchBehindBytes() == 0
                && store.getMaxOffsetInQueue("Iso", 0) + store.getMaxOffsetInQueue("Iso", 1)
                + store.getMaxOffsetInQueue("Iso", 2) + store.getMaxOffsetInQueue("Iso", 3) == MESSAGES);
        return (System.nanoTime() - begin) / 1_000_000;
    }

    @Test
    void aSlowPluginHoldsUpNeitherPutsNorBuiltInDispatchAndCatchesUpLater() {
        IsolationTestPlugins.Slow.RECEIVED.set(0);
        IsolationTestPlugins.Slow.NEXT.set(0);
        try (DefaultMessageStore warmUp = TestStores.started(dir.resolve("warm-up"),
                "mappedFileSizeCommitLog", Integer.toString(1024 * 1024), "dispatchers", "consume-queue,index")) {
            putAndTimeReadability(warmUp); // JIT: the first store put would otherwise look slowest
        }
        long without;
        try (DefaultMessageStore store = TestStores.started(dir.resolve("without"),
                "mappedFileSizeCommitLog", Integer.toString(1024 * 1024), "dispatchers", "consume-queue,index")) {
            without = putAndTimeReadability(store);
        }
        try (DefaultMessageStore store = TestStores.started(dir.resolve("with"),
                "mappedFileSizeCommitLog", Integer.toString(1024 * 1024),
                "dispatchers", "consume-queue,index,test-slow-200us")) {
            long with = putAndTimeReadability(store);
            long lagAtReadable = (Long) plugin(store, "test-slow-200us").get("lagBytes");
            long receivedAtReadable = IsolationTestPlugins.Slow.RECEIVED.get();
            assertTrue(receivedAtReadable < MESSAGES && lagAtReadable > 0,
                    "the built-in dispatch finished while the plugin was still behind (" + receivedAtReadable
                            + " records, " + lagAtReadable + " bytes behind)");
            System.out.printf("plugin isolation: %d messages readable after %d ms without the 200 us/record plugin, "
                            + "%d ms with it (%.2fx); the plugin then had %d of them, %d bytes behind (noisy, shared "
                            + "machine)%n", MESSAGES, without, with, (double) with / Math.max(1, without),
                    receivedAtReadable, lagAtReadable);
            // at least 4 s of plugin work; generous, as the machine running the tests may be starved of CPU
            TestStores.await("the plugin caught up", () -> IsolationTestPlugins.Slow.RECEIVED.get() == MESSAGES,
                    180_000);
            assertEquals(0L, plugin(store, "test-slow-200us").get("lagBytes"));
            assertEquals("running", plugin(store, "test-slow-200us").get("state"));
        }
    }

    @Test
    void anErrorFromAPluginDisablesItWithTheReasonAndTheStoreGoesOn() {
        IsolationTestPlugins.ThrowsError.RECEIVED.set(0);
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-error,index")) {
            for (int i = 0; i < 20; i++) {
                assertTrue(store.putMessage(TestStores.message("Err", 0, "e" + i).keys("k" + i)).isOk());
            }
            TestStores.await("the plugin disabled", () -> "disabled".equals(plugin(store, "test-error").get("state")));
            Map<String, Object> p = plugin(store, "test-error");
            assertTrue(String.valueOf(p.get("disabledReason")).contains("LinkageError")
                    && String.valueOf(p.get("disabledReason")).contains("plugin class missing on purpose"), p.toString());
            assertEquals(1L, p.get("failures"));
            assertEquals(2, IsolationTestPlugins.ThrowsError.RECEIVED.get(), "never called again after the Error");
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(20, store.getMaxOffsetInQueue("Err", 0));
            assertEquals(1, store.queryMessage("Err", "k19", 5, 0, Long.MAX_VALUE).messages().size());
            assertTrue(TestInternals.runningFlags(store).isWritable());
            assertTrue(store.putMessage(TestStores.message("Err", 0, "after")).isOk());
        }
    }

    @Test
    void aPluginWhoseLoadFailsIsDisabledWithTheReasonAndNeverCalled() {
        IsolationTestPlugins.FailingLoad.RECEIVED.set(0);
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-failing-load")) {
            for (int i = 0; i < 10; i++) {
                assertTrue(store.putMessage(TestStores.message("Load", 0, "l" + i)).isOk());
            }
            TestStores.await("dispatched", () -> store.getMaxOffsetInQueue("Load", 0) == 10);
            Map<String, Object> p = plugin(store, "test-failing-load");
            assertEquals("disabled", p.get("state"));
            assertTrue(String.valueOf(p.get("disabledReason")).contains("load() failed")
                    && String.valueOf(p.get("disabledReason")).contains("cannot open my files on purpose"), p.toString());
            assertEquals(1L, p.get("failures"));
            assertEquals(0, IsolationTestPlugins.FailingLoad.RECEIVED.get());
        }
    }

    @Test
    void aPluginWhoseDurableOffsetThrowsIsDisabledWithTheReasonNotSilentlySkipped() {
        IsolationTestPlugins.ThrowingOffset.RECEIVED.set(0);
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-throwing-offset")) {
            for (int i = 0; i < 10; i++) {
                assertTrue(store.putMessage(TestStores.message("Off", 0, "o" + i)).isOk());
            }
            TestStores.await("dispatched", () -> store.getMaxOffsetInQueue("Off", 0) == 10);
            Map<String, Object> p = plugin(store, "test-throwing-offset");
            assertEquals("disabled", p.get("state"));
            assertTrue(String.valueOf(p.get("disabledReason")).contains("durableOffset() threw")
                    && String.valueOf(p.get("disabledReason")).contains("unreadable on purpose"), p.toString());
            assertTrue((Long) p.get("failures") >= 1);
        }
    }

    @Test
    void aPluginResumesFromItsOwnDurableOffsetWhileTheBuiltInsDoNotRedispatch() {
        IsolationTestPlugins.Resuming.DURABLE.set(Long.MAX_VALUE);
        long tenth;
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-resuming")) {
            long off = 0;
            for (int i = 0; i < 30; i++) {
                var r = store.putMessage(TestStores.message("Res", 0, "r" + i));
                if (i == 10) {
                    off = r.appendResult().wroteOffset();
                }
            }
            tenth = off;
            TestStores.await("the plugin caught up", () -> IsolationTestPlugins.Resuming.RECEIVED.get() == 30);
        }
        IsolationTestPlugins.Resuming.RECEIVED.set(0);
        IsolationTestPlugins.Resuming.FIRST_OFFSET.set(-1);
        IsolationTestPlugins.Resuming.DURABLE.set(tenth);
        long dispatchedBefore;
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-resuming")) {
            TestStores.await("the plugin re-read from its durable offset",
                    () -> IsolationTestPlugins.Resuming.RECEIVED.get() == 20);
            assertEquals(tenth, IsolationTestPlugins.Resuming.FIRST_OFFSET.get());
            dispatchedBefore = TestInternals.stats(store).dispatched();
            assertEquals(0, dispatchedBefore, "a clean restart re-dispatched nothing to the built-ins");
            assertEquals(30, store.getMaxOffsetInQueue("Res", 0));
        }
    }
}
