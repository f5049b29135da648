package dev.hangar.store.assembly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreAssemblyTest {
    private static final ProviderRegistry REGISTRY = ProviderRegistry.discover(null);

    /** A third-party mapped-file variant with a write buffer: the engine knows it only by what it answers. */
    private static final MappedStorageProvider WRITE_BUFFER_PLUGIN = new MappedStorageProvider() {
        @Override
        public String name() {
            return "someone-elses-buffer";
        }

        @Override
        public MappedStorage create(StoreConfig config) {
            throw new UnsupportedOperationException("never created by these tests");
        }

        @Override
        public boolean needsCommitService() {
            return true;
        }
    };

    private static StoreConfig config(String... keyValues) {
        StoreConfig.Builder b = StoreConfig.builder();
        for (int i = 0; i < keyValues.length; i += 2) {
            b.set(keyValues[i], keyValues[i + 1], "-D");
        }
        return b.build();
    }

    private static String flushChosenFor(String... keyValues) {
        return StoreAssembly.select(config(keyValues), REGISTRY).flush().name();
    }

    @Test
    void theFlushServiceIsTheProviderThatSaysItServesTheFlushTypeAndTheStorage() {
        assertEquals("realtime", flushChosenFor("flushDiskType", "ASYNC_FLUSH"));
        assertEquals("group-commit", flushChosenFor("flushDiskType", "SYNC_FLUSH"));
        assertEquals("commit-realtime", flushChosenFor("flushDiskType", "ASYNC_FLUSH", "mappedFile", "transient-pool"));
    }

    @Test
    void exactlyOneBuiltInFlushServiceServesEachCombination() {
        for (boolean sync : new boolean[] {false, true}) {
            for (boolean commits : new boolean[] {false, true}) {
                long defaults = REGISTRY.providers(FlushCommitLogServiceProvider.class).stream()
                        .filter(p -> p.isDefaultFor(sync, commits)).count();
                assertEquals(1, defaults, "sync=" + sync + " commits=" + commits);
            }
        }
    }

    @Test
    void aNamedFlushServiceWinsOverTheDefault() {
        assertEquals("group-commit", flushChosenFor("flushDiskType", "ASYNC_FLUSH", "flushService", "group-commit"));
    }

    @Test
    void onlyTheStorageSaysWhetherItNeedsACommitService() {
        assertFalse(REGISTRY.providers(MappedStorageProvider.class).stream()
                .filter(p -> p.name().equals("mmap")).findFirst().orElseThrow().needsCommitService());
        assertTrue(REGISTRY.providers(MappedStorageProvider.class).stream()
                .filter(p -> p.name().equals("transient-pool")).findFirst().orElseThrow().needsCommitService());
        assertEquals("commit-realtime",
                StoreAssembly.selectFlush(config("flushDiskType", "ASYNC_FLUSH"), WRITE_BUFFER_PLUGIN, REGISTRY).name());
    }

    @Test
    void aStorageWithAWriteBufferGetsTheGroupCommitThatCommitsBeforeItForcesUnderSyncFlush() {
        assertEquals("group-commit",
                StoreAssembly.selectFlush(config("flushDiskType", "SYNC_FLUSH"), WRITE_BUFFER_PLUGIN, REGISTRY).name());
        assertEquals("group-commit", flushChosenFor("flushDiskType", "SYNC_FLUSH", "mappedFile", "transient-pool"));
    }

    /** Built here, with the providers, since StoreConfig no longer names "transient-pool" (was StoreConfigTest). */
    @Test
    void aWriteBufferWithSyncFlushIsAcceptedBeforeOpeningSinceTheGroupCommitCommitsIt() {
        ProviderCombinations.check(StoreConfig.builder()
                .set("mappedFile", "transient-pool", "-D").set("flushDiskType", "SYNC_FLUSH", "-D").build(), REGISTRY);
        ProviderCombinations.check(config("mappedFile", "transient-pool", "flushDiskType", "ASYNC_FLUSH"), REGISTRY);
        ProviderCombinations.check(config("mappedFile", "mmap", "flushDiskType", "SYNC_FLUSH"), REGISTRY);
    }

    @Test
    void withoutAFlushServiceThatCommitsAWriteBufferWithSyncFlushIsRefusedNamingTheKeyTheValueAndTheInPlaceStorages() {
        List<FlushCommitLogServiceProvider> withoutGroupCommit = REGISTRY.providers(FlushCommitLogServiceProvider.class)
                .stream().filter(p -> !p.name().equals("group-commit")).toList();
        List<MappedStorageProvider> storages = REGISTRY.providers(MappedStorageProvider.class);
        ConfigException e = assertThrows(ConfigException.class, () -> ProviderCombinations
                .refuseSyncFlushWithCommitService(config("mappedFile", "transient-pool", "flushDiskType", "SYNC_FLUSH"),
                        WRITE_BUFFER_PLUGIN, withoutGroupCommit, storages));
        assertTrue(e.getMessage().contains("mappedFile=someone-elses-buffer") && e.getMessage().contains("SYNC_FLUSH")
                && e.getMessage().contains("(mmap") && e.getMessage().contains("ASYNC_FLUSH"), e.getMessage());
        // the controls: a named flushService, or ASYNC_FLUSH, is left alone
        ProviderCombinations.refuseSyncFlushWithCommitService(config("flushDiskType", "SYNC_FLUSH", "flushService",
                "commit-realtime"), WRITE_BUFFER_PLUGIN, withoutGroupCommit, storages);
        ProviderCombinations.refuseSyncFlushWithCommitService(config("flushDiskType", "ASYNC_FLUSH"),
                WRITE_BUFFER_PLUGIN, withoutGroupCommit, storages);
    }
}
