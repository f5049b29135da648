package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store remembers its file sizes: its files say what they are, and a contradicting setting is refused. */
class StoreGeometryTest {
    @TempDir
    Path dir;

    /** Writes three messages with TestStores' small files: 64 KiB CommitLog files, 20 000-byte ConsumeQueue files. */
    private void writeSmallFileStore() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int i = 0; i < 3; i++) {
                assertTrue(store.putMessage(TestStores.message("Geo", 0, "m" + i)).isOk());
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
    }

    private StoreConfig withOnly(String... keyValues) {
        StoreConfig.Builder b = StoreConfig.builder().set("storePathRootDir", dir.toString(), "test");
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            b.set(keyValues[i], keyValues[i + 1], "-D");
        }
        return b.build();
    }

    @Test
    void aStoreOpensWithoutItsFileSizesBeingRepeated() {
        writeSmallFileStore();
        DefaultMessageStore store = new DefaultMessageStore(withOnly());
        store.start();
        try {
            assertEquals(64 * 1024, store.config().commitLogFileSize());
            assertEquals(20_000, store.config().consumeQueueFileSize());
            assertTrue(store.config().source(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG).contains("store's files"),
                    store.config().source(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG));
            assertEquals(3, store.getMessage("g", "Geo", 0, 0, 32, null).messages().size());
            assertTrue(store.putMessage(TestStores.message("Geo", 0, "more")).isOk());
        } finally {
            store.shutdown();
        }
    }

    @Test
    void anExplicitCommitLogSizeThatContradictsTheFilesNamesBoth() {
        writeSmallFileStore();
        ConfigException e = assertThrows(ConfigException.class,
                () -> StoreGeometry.resolve(withOnly("mappedFileSizeCommitLog", "131072")));
        assertTrue(e.getMessage().contains("131072") && e.getMessage().contains("65536")
                && e.getMessage().contains("mappedFileSizeCommitLog"), e.getMessage());
    }

    @Test
    void anExplicitConsumeQueueSizeThatContradictsTheFilesNamesBoth() {
        writeSmallFileStore();
        ConfigException e = assertThrows(ConfigException.class,
                () -> StoreGeometry.resolve(withOnly("mappedFileSizeConsumeQueue", "40000")));
        assertTrue(e.getMessage().contains("40000") && e.getMessage().contains("20000")
                && e.getMessage().contains("mappedFileSizeConsumeQueue"), e.getMessage());
    }

    @Test
    void anExplicitSizeThatAgreesWithTheFilesIsKept() {
        writeSmallFileStore();
        StoreConfig config = withOnly("mappedFileSizeCommitLog", "65536", "mappedFileSizeConsumeQueue", "20000");
        assertSame(config, StoreGeometry.resolve(config));
    }

    @Test
    void aNewStoreKeepsTheConfiguredSizes() throws Exception {
        StoreConfig config = withOnly("mappedFileSizeCommitLog", "131072");
        assertSame(config, StoreGeometry.resolve(config));
        Files.createDirectories(dir.resolve("commitlog"));
        Files.createFile(dir.resolve("commitlog").resolve("00000000000000000000"));
        assertSame(config, StoreGeometry.resolve(config), "an empty file left by an interrupted creation says nothing");
    }
}
