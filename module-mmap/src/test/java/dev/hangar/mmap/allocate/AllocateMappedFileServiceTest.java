package dev.hangar.mmap.allocate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.file.DefaultMappedFile;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.file.PooledMappedFile;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import dev.hangar.mmap.pool.TransientStorePool;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.mapped.MappedFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllocateMappedFileServiceTest {
    private static final int FILE_SIZE = 64 * 1024;
    private static final long POLL_LIMIT_MS = 20_000;

    @TempDir
    Path dir;
    private AllocateMappedFileService service;

    @AfterEach
    void stopService() {
        if (service != null) {
            service.shutdown();
        }
    }

    private static MappedFileFactory plain(NativeMemory memory) {
        return (d, offset, size) -> new DefaultMappedFile(d, offset, size, memory);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + POLL_LIMIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void theFileAfterTheNextIsCreatedAheadAndHandedOutOnTheNextRoll() throws Exception {
        Map<Long, MappedFile> created = new ConcurrentHashMap<>();
        MappedFileFactory recording = (d, offset, size) -> {
            MappedFile file = new DefaultMappedFile(d, offset, size, NativeMemory.system());
            created.put(offset, file);
            return file;
        };
        service = new AllocateMappedFileService(recording, null, false, false, 0, 5000);
        service.start();

        MappedFile first = service.putRequestAndReturnMappedFile(dir, 0, FILE_SIZE, FILE_SIZE);
        assertNotNull(first);
        assertEquals(0, first.fileFromOffset());
        awaitTrue(() -> Files.exists(dir.resolve(String.format("%020d", FILE_SIZE))), "the next file exists");
        awaitTrue(() -> created.containsKey((long) FILE_SIZE), "the next file is mapped");

        MappedFile second = service.putRequestAndReturnMappedFile(dir, FILE_SIZE, 2L * FILE_SIZE, FILE_SIZE);
        assertSame(created.get((long) FILE_SIZE), second, "the file created ahead is handed out");
        Path third = dir.resolve(String.format("%020d", 2 * FILE_SIZE));
        awaitTrue(() -> Files.exists(third), "the one after is created ahead too");

        service.shutdown();
        assertFalse(Files.exists(third), "a file created ahead but never used is deleted at shutdown");
        assertTrue(Files.exists(second.path()));
        first.destroy(0);
        second.destroy(0);
    }

    @Test
    void withoutARunningServiceTheFileIsCreatedInPlace() {
        service = new AllocateMappedFileService(plain(NativeMemory.system()), null, false, false, 0, 5000);
        MappedFile file = service.putRequestAndReturnMappedFile(dir, 0, FILE_SIZE, FILE_SIZE);
        assertNotNull(file);
        assertFalse(Files.exists(dir.resolve(String.format("%020d", FILE_SIZE))), "nothing is created ahead");
        file.destroy(0);
    }

    @Test
    void aRequesterThatWaitsTooLongCreatesTheFileItselfUnlessTheServiceIsOnIt() throws Exception {
        Path slowDir = dir.resolve("slow");
        Path fastDir = dir.resolve("fast");
        CountDownLatch diskStuck = new CountDownLatch(1);
        CountDownLatch slowStarted = new CountDownLatch(1);
        MappedFileFactory factory = (d, offset, size) -> {
            if (d.equals(slowDir)) {
                slowStarted.countDown();
                try {
                    diskStuck.await(POLL_LIMIT_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new DefaultMappedFile(d, offset, size, NativeMemory.system());
        };
        service = new AllocateMappedFileService(factory, null, false, false, 0, 200);
        service.start();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<MappedFile> slow = other.submit(() ->
                    service.putRequestAndReturnMappedFile(slowDir, 0, FILE_SIZE, FILE_SIZE));
            assertTrue(slowStarted.await(POLL_LIMIT_MS, TimeUnit.MILLISECONDS));

            MappedFile fast = service.putRequestAndReturnMappedFile(fastDir, 0, FILE_SIZE, FILE_SIZE);
            assertNotNull(fast, "the service was busy, so the request was cancelled and done in place");
            assertEquals(fastDir.resolve(String.format("%020d", 0)), fast.path());

            assertNull(slow.get(POLL_LIMIT_MS, TimeUnit.MILLISECONDS),
                    "a file the service is creating is never created twice");
            diskStuck.countDown();
            fast.destroy(0);
        } finally {
            diskStuck.countDown();
            other.shutdownNow();
        }
        awaitTrue(() -> Files.exists(slowDir.resolve(String.format("%020d", 0))), "the slow file is done");
        MappedFile late = service.putRequestAndReturnMappedFile(slowDir, 0, FILE_SIZE, FILE_SIZE);
        assertNotNull(late, "the late file is handed out on the next request");
        late.destroy(0);
    }

    @Test
    void withFastFailANewFileIsRefusedWhenThePoolHasNoBufferForIt() {
        NativeMemory memory = new NativeMemory(RecordingLibC.succeeding(), null);
        TransientStorePool pool = new TransientStorePool(1, FILE_SIZE, memory);
        pool.init();
        MappedFileFactory pooled = (d, offset, size) -> new PooledMappedFile(d, offset, size, pool, memory);
        service = new AllocateMappedFileService(pooled, pool, true, false, 0, 5000);
        service.start();
        ByteBuffer taken = pool.borrowBuffer();

        assertNull(service.putRequestAndReturnMappedFile(dir, 0, FILE_SIZE, FILE_SIZE));
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 0))));

        pool.returnBuffer(taken);
        MappedFile file = service.putRequestAndReturnMappedFile(dir, 0, FILE_SIZE, FILE_SIZE);
        assertNotNull(file);
        assertTrue(((PooledMappedFile) file).hasWriteBuffer());
        file.destroy(0);
        pool.destroy();
    }

    @Test
    void warmedFilesAreLockedAndUnlockedWhenTheQueueRollsPastThem() {
        RecordingLibC libc = RecordingLibC.succeeding();
        NativeMemory memory = new NativeMemory(libc, null);
        service = new AllocateMappedFileService(plain(memory), null, false, true, 4, 5000);
        service.start();
        DefaultMappedFileQueue queue = new DefaultMappedFileQueue(dir, FILE_SIZE, plain(memory), plain(memory),
                service);

        DefaultMappedFile first = (DefaultMappedFile) queue.getLastMappedFile(0, true);
        assertTrue(first.isMemoryLocked(), "warmed and locked before it was handed out");
        int locksSoFar = libc.mlocks.get();
        assertTrue(locksSoFar >= 1);
        first.appendBytes(new byte[FILE_SIZE], 0, FILE_SIZE);

        DefaultMappedFile second = (DefaultMappedFile) queue.getLastMappedFile(0, true);
        assertEquals(FILE_SIZE, second.fileFromOffset());
        assertFalse(first.isMemoryLocked(), "rolled past: unlocked");
        assertEquals(1, libc.munlocks.get());
        assertTrue(second.isMemoryLocked());
        service.shutdown();
        queue.destroy();
    }

    @Test
    void warmUpWithAFailingMlockOnlyWarns() {
        NativeMemory memory = new NativeMemory(RecordingLibC.failing(), null);
        service = new AllocateMappedFileService(plain(memory), null, false, true, 4, 5000);
        service.start();
        MappedFile file = service.putRequestAndReturnMappedFile(dir, 0, FILE_SIZE, FILE_SIZE);
        assertNotNull(file);
        assertFalse(((DefaultMappedFile) file).isMemoryLocked());
        assertTrue(memory.failures() >= 1);
        assertTrue(file.appendBytes(new byte[] {1}, 0, 1));
        file.destroy(0);
    }
}
