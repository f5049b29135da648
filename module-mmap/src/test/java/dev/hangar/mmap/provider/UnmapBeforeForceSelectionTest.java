package dev.hangar.mmap.provider;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.hangar.mmap.file.UnmapBeforeForceMappedFile;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.QueueRole;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mmap variant's CommitLog files unmap the pages a force covers under SYNC_FLUSH (unless
 * {@code syncFlushUnmapForcedPages=false}), under ASYNC_FLUSH only with {@code asyncFlushUnmapForcedPages=true}, and
 * never for other queues.
 */
class UnmapBeforeForceSelectionTest {
    private static final int FILE_SIZE = 1 << 20;

    @TempDir
    Path dir;

    private MappedFile firstFile(StoreConfig.Builder config, QueueRole role) throws IOException {
        DefaultMappedStorage storage = new DefaultMappedStorage(
                config.set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                        .set(StoreConfigKeys.WARM_MAPPED_FILE_ENABLE, false).build(),
                false, NativeMemory.system());
        MappedFileQueue queue = storage.openQueue(dir.resolve(role.name() + config.hashCode()), FILE_SIZE, role);
        MappedFile file = queue.getLastMappedFile(0, true);
        queue.shutdown(0);
        return file;
    }

    @Test
    void syncFlushCommitLogFilesUnmapForcedPages() throws IOException {
        assertInstanceOf(UnmapBeforeForceMappedFile.class, firstFile(
                StoreConfig.builder().set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH"), QueueRole.COMMIT_LOG));
    }

    @Test
    void asyncFlushCommitLogFilesUnmapForcedPagesWhenAsked() throws IOException {
        assertInstanceOf(UnmapBeforeForceMappedFile.class, firstFile(StoreConfig.builder()
                .set(StoreConfigKeys.ASYNC_FLUSH_UNMAP_FORCED_PAGES, true), QueueRole.COMMIT_LOG));
    }

    @Test
    void asyncFlushTheKeyOffAndOtherQueuesKeepThePlainForce() throws IOException {
        assertFalse(firstFile(StoreConfig.builder(), QueueRole.COMMIT_LOG) instanceof UnmapBeforeForceMappedFile,
                "ASYNC_FLUSH");
        assertFalse(firstFile(StoreConfig.builder().set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH")
                        .set(StoreConfigKeys.SYNC_FLUSH_UNMAP_FORCED_PAGES, false), QueueRole.COMMIT_LOG)
                instanceof UnmapBeforeForceMappedFile, "syncFlushUnmapForcedPages=false");
        assertFalse(firstFile(StoreConfig.builder().set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH"),
                QueueRole.CONSUME_QUEUE) instanceof UnmapBeforeForceMappedFile, "ConsumeQueue files");
    }
}
