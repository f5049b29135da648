package dev.hangar.mmap.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.file.DefaultMappedFile;
import dev.hangar.mmap.file.PooledMappedFile;
import dev.hangar.mmap.file.TestAppends;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;
import dev.hangar.spi.mapped.QueueRole;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.store.AppendMessageStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedStorageProvidersTest {
    private static final int FILE_SIZE = 16 * 4096;

    @TempDir
    Path dir;

    private static StoreConfig config(int poolSize) {
        return StoreConfig.builder()
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                .set(StoreConfigKeys.TRANSIENT_STORE_POOL_SIZE, poolSize)
                .build();
    }

    private static Map<String, MappedStorageProvider> providers() {
        return ServiceLoader.load(MappedStorageProvider.class).stream().map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(MappedStorageProvider::name, Function.identity()));
    }

    @Test
    void bothVariantsAreFoundByTheirLowerCaseNames() {
        Map<String, MappedStorageProvider> found = providers();
        assertInstanceOf(MmapStorageProvider.class, found.get("mmap"));
        assertInstanceOf(TransientPoolStorageProvider.class, found.get("transient-pool"));
        assertInstanceOf(WriteWindowStorageProvider.class, found.get("write-window"));
        assertTrue(found.get("write-window").needsCommitService());
        assertFalse(found.get("mmap").description().isEmpty());
    }

    @Test
    void theMmapVariantWritesEveryRoleIntoTheMapping() throws IOException {
        try (MappedStorage storage = providers().get("mmap").create(config(2))) {
            storage.start();
            assertFalse(storage.usesWriteBuffer());
            assertEquals(-1, storage.availableWriteBuffers());
            MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), FILE_SIZE, QueueRole.COMMIT_LOG);
            MappedFile file = commitLog.getLastMappedFile(0, true);
            assertInstanceOf(DefaultMappedFile.class, file);
            assertFalse(file instanceof PooledMappedFile);
            assertEquals(AppendMessageStatus.PUT_OK, file.append(TestAppends.record("hello", 5)).status());
            assertEquals(5, commitLog.getMaxOffset(), "readable without a commit");
            assertFalse(commitLog.flush(0));
            assertEquals(5, commitLog.getFlushedWhere());
            commitLog.shutdown(0);
            commitLog.destroy();
        }
    }

    @Test
    void theTransientPoolVariantCommitsTheCommitLogAndMapsTheRest() throws IOException {
        MappedStorage storage = providers().get("transient-pool").create(config(3));
        storage.start();
        assertTrue(storage.usesWriteBuffer());
        assertEquals(3, storage.availableWriteBuffers());

        MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), FILE_SIZE, QueueRole.COMMIT_LOG);
        MappedFile file = commitLog.getLastMappedFile(0, true);
        assertInstanceOf(PooledMappedFile.class, file);
        file.append(TestAppends.record("pooled record", 9));
        assertEquals(0, commitLog.getMaxOffset(), "not readable before the commit");
        assertEquals(13, commitLog.getMaxWrotePosition());
        assertFalse(commitLog.commit(0));
        assertEquals(13, commitLog.getCommittedWhere());
        assertEquals(13, commitLog.getMaxOffset());
        assertFalse(commitLog.flush(0));
        assertEquals(13, commitLog.getFlushedWhere());
        try (SelectedRegion region = commitLog.findMappedFileByOffset(0, false).selectMappedBuffer(0)) {
            byte[] read = new byte[region.size()];
            region.buffer().get(read);
            assertEquals("pooled record", new String(read, StandardCharsets.UTF_8));
        }

        MappedFileQueue consumeQueue = storage.openQueue(dir.resolve("cq"), 20 * 10, QueueRole.CONSUME_QUEUE);
        MappedFile unitFile = consumeQueue.getLastMappedFile(0, true);
        assertFalse(unitFile instanceof PooledMappedFile);
        assertTrue(unitFile.appendBytes(new byte[20], 0, 20));
        assertEquals(20, consumeQueue.getMaxOffset());

        assertThrows(IllegalArgumentException.class,
                () -> storage.openQueue(dir.resolve("other"), FILE_SIZE * 2, QueueRole.COMMIT_LOG));
        commitLog.shutdown(0);
        consumeQueue.shutdown(0);
        storage.shutdown();
        assertEquals(0, storage.availableWriteBuffers(), "the pool is freed");
        commitLog.destroy();
        consumeQueue.destroy();
    }

    @Test
    void aFullPooledCommitLogFileGivesItsBufferBackOnceCommitted() throws IOException {
        MappedStorage storage = providers().get("transient-pool").create(config(2));
        storage.start();
        MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), FILE_SIZE, QueueRole.COMMIT_LOG);
        MappedFile file = commitLog.getLastMappedFile(0, true);
        file.appendBytes(new byte[FILE_SIZE], 0, FILE_SIZE);
        // the allocator pre-allocates the next file in the background with the pool's other buffer: wait for
        // it, or it could borrow the buffer this commit gives back and hide the return
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (storage.availableWriteBuffers() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
        assertEquals(0, storage.availableWriteBuffers(), "the file and the pre-allocated next one hold both buffers");
        int freeBefore = storage.availableWriteBuffers();
        assertFalse(commitLog.commit(0));
        assertEquals(freeBefore + 1, storage.availableWriteBuffers());
        commitLog.shutdown(0);
        storage.shutdown();
        commitLog.destroy();
    }

    @Test
    void aStorageShutDownCannotStartAgain() {
        MappedStorage storage = providers().get("mmap").create(config(1));
        storage.start();
        storage.shutdown();
        assertThrows(IllegalStateException.class, storage::start);
    }
}
