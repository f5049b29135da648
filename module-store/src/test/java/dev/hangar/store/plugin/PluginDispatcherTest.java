package dev.hangar.store.plugin;

import dev.hangar.store.TestInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.DirectorySnapshot;
import dev.hangar.store.TestStores;
import dev.hangar.store.assembly.ProviderInfo;
import dev.hangar.store.assembly.ProviderRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginDispatcherTest {
    @TempDir
    Path dir;

    @Test
    void aThirdPartyDispatcherReceivesEveryRecordInOrder() {
        RecordingDispatcherProvider.RECEIVED.clear();
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,index,test-recording")) {
            for (int i = 0; i < 50; i++) {
                store.putMessage(TestStores.message("Plug", i % 3, "p" + i));
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            // a plugin follows the log on its own thread: wait for it, not only for the built-ins
            TestStores.await("the plugin caught up", () -> RecordingDispatcherProvider.RECEIVED.size() >= 50
                    && TestInternals.plugins(store).maxLagBytes() == 0);
            List<DispatchRequest> got = RecordingDispatcherProvider.RECEIVED;
            assertEquals(50, got.size());
            for (int i = 1; i < got.size(); i++) {
                assertEquals(got.get(i - 1).nextOffset(), got.get(i).commitLogOffset(), "in commit-log order, none skipped");
            }
        }
    }

    @Test
    void aPluginKeepingWhatItWasHandedKeepsStableCopiesWhileTheRequestItselfIsReused() {
        RetainingDispatcherProvider.KEPT.clear();
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,index,test-retaining")) {
            for (int i = 0; i < 40; i++) {
                dev.hangar.spi.message.Message m = TestStores.message("Keep", i % 2, "p" + i)
                        .keys("k-" + i, "x-" + i).tags("tag-" + i);
                m.property(dev.hangar.spi.message.MessageConst.UNIQ_KEY, "U-" + i);
                assertTrue(store.putMessage(m).isOk());
            }
            TestStores.await("the plugin caught up", () -> RetainingDispatcherProvider.KEPT.size() >= 40
                    && TestInternals.plugins(store).maxLagBytes() == 0);
            List<RetainingDispatcherProvider.Kept> kept = RetainingDispatcherProvider.KEPT;
            assertEquals(40, kept.size());
            for (int i = 0; i < kept.size(); i++) {
                RetainingDispatcherProvider.Kept k = kept.get(i);
                assertEquals("Keep", k.topic());
                assertEquals("k-" + i + " x-" + i, k.keys(), "the keys String stays the record's own");
                assertEquals("U-" + i, k.uniqKey());
                assertEquals("tag-" + i, k.tag());
                assertEquals("tag-" + i, k.properties().get("TAGS"));
                assertEquals(List.of("k-" + i, "x-" + i), k.keysFromBytes());
                assertEquals("k-" + i + " x-" + i, k.copy().keys(), "copy() holds every value");
                assertEquals(("tag-" + i).hashCode(), k.copy().tagsCode());
                assertEquals(i / 2, k.copy().consumeQueueOffset());
                assertTrue(k.thread().startsWith("hangar-plugin-"), "the plugin runs on its own thread: " + k.thread());
                assertEquals(kept.get(0).thread(), k.thread(), "always the same thread");
                // as documented: the request object is the plugin cursor's one view, re-pointed at every record
                assertTrue(k.request() == kept.get(0).request(), "one reused view per plugin cursor");
            }
            assertEquals(kept.get(39).copy().commitLogOffset(), kept.get(0).request().commitLogOffset(),
                    "a request kept past dispatch() describes whatever record came last");
        }
    }

    @Test
    void aThrowingThirdPartyDispatcherIsCountedAndDoesNotStopTheBuiltIns() {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-throwing,index")) {
            for (int i = 0; i < 20; i++) {
                assertTrue(store.putMessage(TestStores.message("Plug", 0, "p" + i).keys("k" + i)).isOk());
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(20, store.getMaxOffsetInQueue("Plug", 0));
            assertEquals(1, store.queryMessage("Plug", "k19", 5, 0, Long.MAX_VALUE).messages().size(),
                    "the index after the broken plugin still gets every record");
            TestStores.await("the plugin saw every record", () -> TestInternals.plugins(store).maxLagBytes() == 0);
            assertEquals(20L, TestInternals.dispatchers(store).failures().get("test-throwing"));
            assertTrue(TestInternals.runningFlags(store).isWritable(), "a plugin failure does not stop writes");
        }
    }

    @Test
    void writersThatOutrunDispatchWaitSoTheLagStaysBounded() {
        int limit = 4096;
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue,test-slow",
                "maxDispatchBehindBytes", Integer.toString(limit))) {
            long worst = 0;
            for (int i = 0; i < 300; i++) {
                var r = store.putMessage(TestStores.message("Fast", 0, "p" + i));
                assertTrue(r.isOk());
                worst = Math.max(worst, store.dispatchBehindBytes() - r.appendResult().wroteBytes());
            }
            assertTrue(worst <= limit, "dispatch lag before a put stayed within the limit: " + worst);
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(300, store.getMaxOffsetInQueue("Fast", 0));
        }
    }

    @Test
    void anUnknownProviderNameFailsBeforeAnyFileIsTouchedAndListsTheNamesFound() {
        existingStore();
        DirectorySnapshot before = DirectorySnapshot.of(dir);
        ConfigException e = assertThrows(ConfigException.class,
                () -> new DefaultMessageStore(TestStores.config(dir, "dispatchers", "consume-queue,nope")));
        assertTrue(e.getMessage().contains("dispatchers") && e.getMessage().contains("'nope'")
                && e.getMessage().contains("consume-queue") && e.getMessage().contains("test-recording"), e.getMessage());
        assertEquals(before, DirectorySnapshot.of(dir), "no file was created, changed or removed");
        ConfigException lock = assertThrows(ConfigException.class,
                () -> new DefaultMessageStore(TestStores.config(dir, "putMessageLock", "spinn")));
        assertTrue(lock.getMessage().contains("reentrant") && lock.getMessage().contains("spin"), lock.getMessage());
        assertEquals(before, DirectorySnapshot.of(dir), "no file was created, changed or removed");
    }

    @Test
    void twoProvidersWithOneNameFailNamingBothOrigins() {
        existingStore();
        DirectorySnapshot before = DirectorySnapshot.of(dir);
        ConfigException e = assertThrows(ConfigException.class,
                () -> new DefaultMessageStore(TestStores.config(dir, "dispatchers", "consume-queue,test-duplicate")));
        assertTrue(e.getMessage().contains("two CommitLogDispatcherProvider providers are named 'test-duplicate'"),
                e.getMessage());
        assertTrue(e.getMessage().contains("DuplicateADispatcherProvider in classpath")
                && e.getMessage().contains("DuplicateBDispatcherProvider in classpath"), e.getMessage());
        assertEquals(before, DirectorySnapshot.of(dir), "no file was created, changed or removed");
    }

    @Test
    void theRegistryFindsEveryBuiltInProviderWithItsOrigin() {
        List<ProviderInfo> all = ProviderRegistry.discover(null).all();
        List<String> names = all.stream().map(p -> p.spi() + "/" + p.name()).toList();
        for (String expected : List.of("PutMessageLockProvider/spin", "PutMessageLockProvider/reentrant",
                "MappedStorageProvider/mmap", "MappedStorageProvider/transient-pool",
                "FlushCommitLogServiceProvider/realtime", "FlushCommitLogServiceProvider/commit-realtime",
                "FlushCommitLogServiceProvider/group-commit", "CommitLogDispatcherProvider/consume-queue",
                "CommitLogDispatcherProvider/index")) {
            assertTrue(names.contains(expected), expected + " in " + names);
        }
        assertTrue(all.stream().allMatch(p -> !p.module().isEmpty()));
    }

    /** A store with data, shut down: a refused start must leave every one of its files as it was. */
    private void existingStore() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int i = 0; i < 10; i++) {
                assertTrue(store.putMessage(TestStores.message("Existing", 0, "e" + i).keys("k" + i)).isOk());
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
    }
}
