package dev.hangar.mmap.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.mmap.file.HugePageAdvice;
import dev.hangar.mmap.file.Smaps;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.provider.DefaultMappedStorage.CommitLogWrites;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.QueueRole;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transparentHugePages}: which CommitLog mappings the mmap storage advises huge pages (written in place,
 * forced now and then: ASYNC_FLUSH over {@code mmap} on a master), which it does not (SYNC_FLUSH, a SLAVE, a write
 * buffer, unmapped forces, the key off, ConsumeQueue files), and the plugins' own mappings it advises on request.
 */
class HugePageSelectionTest {
    private static final int FILE_SIZE = 4 * 1024 * 1024;

    @TempDir
    Path dir;

    private static StoreConfig.Builder config() {
        return StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, FILE_SIZE)
                .set(StoreConfigKeys.WARM_MAPPED_FILE_ENABLE, false);
    }

    @Test
    void onlyAnAsyncFlushedCommitLogWrittenThroughTheMappingOfAMasterGetsHugePages() {
        assertTrue(DefaultMappedStorage.commitLogHugePages(config().build(), CommitLogWrites.THROUGH_MAPPING),
                "the default: ASYNC_FLUSH over mmap on an ASYNC_MASTER");
        assertTrue(DefaultMappedStorage.commitLogHugePages(config().set(StoreConfigKeys.BROKER_ROLE, "SYNC_MASTER")
                .build(), CommitLogWrites.THROUGH_MAPPING), "a SYNC_MASTER's put threads write through the mapping");
        assertFalse(DefaultMappedStorage.commitLogHugePages(config().set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH")
                .build(), CommitLogWrites.THROUGH_MAPPING), "SYNC_FLUSH: each force would write 2 MiB again");
        assertFalse(DefaultMappedStorage.commitLogHugePages(config().set(StoreConfigKeys.BROKER_ROLE, "SLAVE")
                .build(), CommitLogWrites.THROUGH_MAPPING), "a slave writes its CommitLog with pwrite");
        assertFalse(DefaultMappedStorage.commitLogHugePages(config().set(StoreConfigKeys.ASYNC_FLUSH_UNMAP_FORCED_PAGES,
                true).build(), CommitLogWrites.THROUGH_MAPPING), "forced pages leave the mapping anyway");
        assertFalse(DefaultMappedStorage.commitLogHugePages(config().set(StoreConfigKeys.TRANSPARENT_HUGE_PAGES, false)
                .build(), CommitLogWrites.THROUGH_MAPPING), "the key turns it off");
        assertFalse(DefaultMappedStorage.commitLogHugePages(config().build(), CommitLogWrites.POOLED_BUFFER),
                "transient-pool writes its CommitLog with pwrite");
        assertFalse(DefaultMappedStorage.commitLogHugePages(config().build(), CommitLogWrites.PRIVATE_MAPPING),
                "write-window writes into a private mapping");
    }

    private static boolean hugePageAdvice(Path file) throws IOException {
        return Smaps.vmFlags(file).contains("hg");
    }

    private static void assumeTheKernelAdvises() {
        HugePageAdvice advice = HugePageAdvice.of(NativeMemory.system());
        assumeTrue(advice.effective(), "SKIPPED: " + advice.describe() + " on this machine: nothing to observe");
    }

    @Test
    void newAndExistingCommitLogFilesAreAdvisedAndConsumeQueueFilesAreNot() throws IOException {
        assumeTheKernelAdvises();
        DefaultMappedStorage storage = new DefaultMappedStorage(config().build(), false, NativeMemory.system());
        storage.start();
        Path commitLogDir = dir.resolve("commitlog");
        try {
            assertTrue(storage.commitLogHugePages());
            MappedFileQueue commitLog = storage.openQueue(commitLogDir, FILE_SIZE, QueueRole.COMMIT_LOG);
            MappedFile first = commitLog.getLastMappedFile(0, true);
            assertTrue(hugePageAdvice(first.path()), "a new CommitLog file: flags " + Smaps.vmFlags(first.path()));
            assertTrue(first.appendBytes(new byte[4096], 0, 4096));
            MappedFileQueue consumeQueue = storage.openQueue(dir.resolve("cq"), 6000, QueueRole.CONSUME_QUEUE);
            MappedFile unit = consumeQueue.getLastMappedFile(0, true);
            assertTrue(unit.appendBytes(new byte[20], 0, 20));
            assertTrue(unit.appendBytes(new byte[20], 0, 20), "the second unit goes through the mapping");
            assertFalse(hugePageAdvice(unit.path()), "thousands of queues must not take 2 MiB each");
            commitLog.shutdown(0);
            consumeQueue.shutdown(0);
        } finally {
            storage.shutdown();
        }

        DefaultMappedStorage restarted = new DefaultMappedStorage(config().build(), false, NativeMemory.system());
        restarted.start();
        try {
            MappedFileQueue commitLog = restarted.openQueue(commitLogDir, FILE_SIZE, QueueRole.COMMIT_LOG);
            assertTrue(commitLog.load());
            MappedFile loaded = commitLog.getLastMappedFile();
            assertTrue(hugePageAdvice(loaded.path()), "a CommitLog file mapped again at start is advised too");
            commitLog.shutdown(0);
        } finally {
            restarted.shutdown();
        }
    }

    /**
     * The whole written CommitLog stays in 2 MiB pages across a roll, with the pretoucher on as by default. Caught
     * in the replication benchmark: the pretoucher used to read the next file's head through a channel before the
     * roll, and the kernel's read-ahead then filled that file with small folios far past the head (a third of the
     * file's mapping was still 2 MiB entries, and the async flush paid per 4 KiB page again).
     */
    @Test
    void aRolledIntoFileIsWrittenIn2MiBPagesWithThePretoucherOn() throws Exception {
        assumeTheKernelAdvises();
        int fileSize = 32 * 1024 * 1024;
        DefaultMappedStorage storage = new DefaultMappedStorage(StoreConfig.builder()
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, fileSize).build(), false, NativeMemory.system());
        storage.start();
        try {
            assertTrue(storage.pretoucher() != null && storage.commitLogHugePages());
            MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), fileSize, QueueRole.COMMIT_LOG);
            byte[] record = new byte[4096];
            MappedFile first = commitLog.getLastMappedFile(0, true);
            for (int i = 0; i < fileSize / record.length; i++) {
                assertTrue(first.appendBytes(record, 0, record.length));
                if (i % 64 == 0) {
                    Thread.sleep(1); // the pretoucher and the allocation service work while the file fills
                }
            }
            MappedFile second = commitLog.getLastMappedFile(fileSize, true);
            assertEquals(fileSize, second.fileFromOffset());
            int written = 16 * 1024 * 1024;
            for (int i = 0; i < written / record.length; i++) {
                assertTrue(second.appendBytes(record, 0, record.length));
            }
            long kb = Smaps.kilobytes(first.path(), "FilePmdMapped");
            assumeTrue(kb > 0, "SKIPPED: this file system gives no 2 MiB pages to a file mapping (an advised, "
                    + "fully written file has none mapped)");
            long rolledInto = Smaps.kilobytes(second.path(), "FilePmdMapped");
            assertTrue(rolledInto >= written / 1024, "the file rolled into has " + rolledInto + " kB in 2 MiB entries "
                    + "of the " + written / 1024 + " kB written (the first file: " + kb + " kB)");
            commitLog.shutdown(0);
        } finally {
            storage.shutdown();
        }
    }

    @Test
    void syncFlushAndSlaveCommitLogFilesAreNotAdvised() throws IOException {
        assumeTheKernelAdvises();
        for (StoreConfig config : new StoreConfig[] {config().set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH").build(),
                config().set(StoreConfigKeys.BROKER_ROLE, "SLAVE").build(),
                config().set(StoreConfigKeys.TRANSPARENT_HUGE_PAGES, false).build()}) {
            DefaultMappedStorage storage = new DefaultMappedStorage(config, false, NativeMemory.system());
            assertFalse(storage.commitLogHugePages());
            MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog-" + config.hashCode()), FILE_SIZE,
                    QueueRole.COMMIT_LOG);
            MappedFile file = commitLog.getLastMappedFile(0, true);
            assertFalse(hugePageAdvice(file.path()), config.toString());
            commitLog.shutdown(0);
            storage.shutdown();
        }
    }

    @Test
    void aPluginsOwnWritableMappingIsAdvisedOnRequestAndAReadOnlyOneOrOneWithTheKeyOffIsNot() throws IOException {
        assumeTheKernelAdvises();
        Path file = dir.resolve("index-like");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer writable = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_SIZE);
            DefaultMappedStorage off = new DefaultMappedStorage(config().set(StoreConfigKeys.TRANSPARENT_HUGE_PAGES,
                    false).build(), false, NativeMemory.system());
            assertFalse(off.adviseHugePages(writable, FILE_SIZE), "transparentHugePages=false");
            assertFalse(hugePageAdvice(file));
            DefaultMappedStorage on = new DefaultMappedStorage(config().build(), false, NativeMemory.system());
            assertTrue(on.adviseHugePages(writable, FILE_SIZE));
            assertTrue(hugePageAdvice(file), "flags " + Smaps.vmFlags(file));
            assertEquals(FILE_SIZE, Files.size(file));
        }
        Path other = dir.resolve("read-only");
        Files.write(other, new byte[FILE_SIZE]);
        try (FileChannel channel = FileChannel.open(other, StandardOpenOption.READ)) {
            MappedByteBuffer readOnly = channel.map(FileChannel.MapMode.READ_ONLY, 0, FILE_SIZE);
            assertFalse(new DefaultMappedStorage(config().build(), false, NativeMemory.system())
                    .adviseHugePages(readOnly, FILE_SIZE), "a read-only mapping is never written: no advice");
        }
    }
}
