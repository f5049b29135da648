package dev.hangar.mmap.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.QueueRole;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warmMapedFileEnable} selects the CommitLog pretoucher of the mmap variant, and nothing else. */
class PretoucherSelectionTest {
    private static final int FILE_SIZE = 1 << 20;

    @TempDir
    Path dir;

    private static StoreConfig config(boolean warm) {
        return StoreConfig.builder()
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                .set(StoreConfigKeys.TRANSIENT_STORE_POOL_SIZE, 2)
                .set(StoreConfigKeys.WARM_MAPPED_FILE_ENABLE, warm)
                .set(StoreConfigKeys.PRETOUCH_AHEAD_BYTES, 64 * 4096)
                .build();
    }

    @Test
    void warmMapedFileEnableRunsThePretoucherAheadOfTheCommitLogWriter() throws Exception {
        DefaultMappedStorage storage = new DefaultMappedStorage(config(true), false, NativeMemory.system());
        storage.start();
        try {
            assertNotNull(storage.pretoucher(), "warmMapedFileEnable selects the pretoucher");
            assertTrue(storage.pretoucher().isRunning());
            MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), FILE_SIZE, QueueRole.COMMIT_LOG);
            MappedFile file = commitLog.getLastMappedFile(0, true);
            assertTrue(file.appendBytes(new byte[100], 0, 100));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (storage.pretoucher().touchedUpTo(file) < 64 * 4096) {
                assertTrue(System.nanoTime() < deadline, "the pretoucher never got 64 pages ahead");
                Thread.sleep(5);
            }
            commitLog.shutdown(0);
        } finally {
            storage.shutdown();
        }
        assertFalse(storage.pretoucher().isRunning(), "stopped with the storage");
    }

    @Test
    void theMmapVariantRunsThePretoucherByDefault() {
        StoreConfig defaults = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE).build();
        assertNotNull(new DefaultMappedStorage(defaults, false, NativeMemory.system()).pretoucher(),
                "warmMapedFileEnable is on unless set to false");
    }

    @Test
    void aSlaveRunsNoPretoucherUnlessTheKeyIsSetForIt() {
        StoreConfig.Builder slave = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                .set(StoreConfigKeys.BROKER_ROLE, "SLAVE");
        assertNull(new DefaultMappedStorage(slave.build(), false, NativeMemory.system()).pretoucher(),
                "a slave writes its CommitLog with pwrite: touching it through the mapping first only costs");
        assertNotNull(new DefaultMappedStorage(slave.set(StoreConfigKeys.WARM_MAPPED_FILE_ENABLE, true).build(), false,
                NativeMemory.system()).pretoucher(), "warmMapedFileEnable=true set for the slave keeps it");
        StoreConfig syncMaster = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                .set(StoreConfigKeys.BROKER_ROLE, "SYNC_MASTER").build();
        assertNotNull(new DefaultMappedStorage(syncMaster, false, NativeMemory.system()).pretoucher(),
                "a master's put threads write through the mapping: the default stays on");
    }

    /** The read-ahead distance without huge pages on the CommitLog, where pretouchReadAheadBytes applies. */
    private static int readAheadWith(Integer readAhead, int touchAhead) {
        return readAheadWith(readAhead, touchAhead, false);
    }

    private static int readAheadWith(Integer readAhead, int touchAhead, boolean hugePages) {
        StoreConfig.Builder b = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                .set(StoreConfigKeys.PRETOUCH_AHEAD_BYTES, touchAhead)
                .set(StoreConfigKeys.TRANSPARENT_HUGE_PAGES, hugePages);
        if (readAhead != null) {
            b.set(StoreConfigKeys.PRETOUCH_READ_AHEAD_BYTES, readAhead);
        }
        return new DefaultMappedStorage(b.build(), false, NativeMemory.system()).pretoucher().readAheadBytes();
    }

    @Test
    void theReadAheadDistanceIsPretouchReadAheadBytesOffByDefaultAndNeverShorterThanTheTouchDistance() {
        assertEquals(0, readAheadWith(null, 4 << 20), "off by default");
        assertEquals(32 << 20, readAheadWith(32 << 20, 4 << 20));
        assertEquals(64 << 20, readAheadWith(64 << 20, 4 << 20));
        assertEquals(0, readAheadWith(0, 4 << 20), "0 turns reading ahead off");
        assertEquals(8 << 20, readAheadWith(1 << 20, 8 << 20), "raised to the touch distance");
    }

    @Test
    void withHugePagesOnTheCommitLogNothingIsReadAhead() {
        boolean hugePages = DefaultMappedStorage.commitLogHugePages(StoreConfig.builder().build(),
                DefaultMappedStorage.CommitLogWrites.THROUGH_MAPPING) && dev.hangar.mmap.file.HugePageAdvice.of(
                NativeMemory.system()).effective();
        assertEquals(hugePages ? 0 : 32 << 20, readAheadWith(32 << 20, 4 << 20, true),
                "reading ahead through a channel would fill the CommitLog with small pages: ignored (and logged)");
    }

    @Test
    void withoutTheKeyOrWithTheWriteBufferPoolThereIsNoPretoucher() {
        assertNull(new DefaultMappedStorage(config(false), false, NativeMemory.system()).pretoucher());
        assertNull(new DefaultMappedStorage(config(true), true, NativeMemory.system()).pretoucher(),
                "transient-pool appends go into pooled buffers touched when the pool is built");
    }
}
