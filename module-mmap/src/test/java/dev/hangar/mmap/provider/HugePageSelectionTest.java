package dev.hangar.mmap.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.mmap.file.Await;
import dev.hangar.mmap.file.HugePageAdvice;
import dev.hangar.mmap.file.HugePageRegions;
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

    /**
     * A storage whose pretoucher calls any writer fast ({@code flushIntervalCommitLog} of a minute: 2 MiB pages from
     * 280 KB/s) or none ({@code flushIntervalCommitLog} of 1 ms: from 16 GB/s), so the test does not depend on how
     * fast this machine writes.
     */
    private static DefaultMappedStorage storage(int fileSize, boolean everyWriterIsFast) {
        return new DefaultMappedStorage(StoreConfig.builder()
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, fileSize)
                .set(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG, everyWriterIsFast ? 60_000 : 1).build(), false,
                NativeMemory.system());
    }

    /**
     * Appends {@code bytes} in 4 KiB records. After the first 4 MiB it waits until the pretoucher has measured a write
     * rate (it samples every 100 ms), so what the test checks of a slow writer does not depend on how many megabytes
     * this machine writes before the first sample; and every 64 KiB it waits until the pretoucher has touched the
     * page the writer goes on with, so every region is decided before the writer gets there, on a loaded machine too.
     */
    private static void write(DefaultMappedStorage storage, MappedFile file, int bytes) throws InterruptedException {
        HugePageRegions regions = storage.pretoucher().hugePages();
        long samplesBefore = regions.rateSamples();
        byte[] record = new byte[4096];
        for (int i = 0; i < bytes / record.length; i++) {
            assertTrue(file.appendBytes(record, 0, record.length));
            if ((i + 1) * record.length == 4 * 1024 * 1024) {
                Await.until(() -> regions.rateSamples() > samplesBefore, "the pretoucher's first rate sample");
            }
            if (i % 16 == 15) {
                int next = (int) Math.min(file.fileSize(), file.wrotePosition() + 4096L);
                Await.until(() -> storage.pretoucher().touchedUpTo(file) >= next,
                        "the pretoucher to touch up to " + next);
            }
        }
    }

    @Test
    void aCommitLogWrittenFastIsIn2MiBPagesOneWrittenSlowlyOnlyAtItsStartAndConsumeQueuesNever() throws Exception {
        assumeTheKernelAdvises();
        int fileSize = 64 * 1024 * 1024;
        DefaultMappedStorage fast = storage(fileSize, true);
        DefaultMappedStorage slow = storage(fileSize, false);
        fast.start();
        slow.start();
        try {
            assertTrue(fast.commitLogHugePages() && slow.commitLogHugePages());
            MappedFile fastFile = fast.openQueue(dir.resolve("fast"), fileSize, QueueRole.COMMIT_LOG)
                    .getLastMappedFile(0, true);
            MappedFile slowFile = slow.openQueue(dir.resolve("slow"), fileSize, QueueRole.COMMIT_LOG)
                    .getLastMappedFile(0, true);
            write(fast, fastFile, 48 * 1024 * 1024);
            write(slow, slowFile, 48 * 1024 * 1024);
            // a new queue starts in 2 MiB pages for the regions touched until the first sample of the rate (4 MiB
            // written here, plus the touch distance), then a slow writer's regions stay 4 KiB pages
            HugePageRegions slowRegions = slow.pretoucher().hugePages();
            long startRegions = (16L * 1024 * 1024) / HugePageRegions.REGION;
            assertTrue(slowRegions.hugeRegions() <= startRegions, slowRegions.hugeRegions() + " regions advised");
            assertTrue(slowRegions.smallRegions() >= 48 / 2 - startRegions, slowRegions.smallRegions() + " small");
            HugePageRegions fastRegions = fast.pretoucher().hugePages();
            assertEquals(0, fastRegions.smallRegions(), "a fast writer's regions are all advised");
            long pmd = Smaps.kilobytes(fastFile.path(), "FilePmdMapped");
            System.out.println("HugePageSelectionTest: " + pmd + " kB of the 48 MiB written fast in 2 MiB entries, "
                    + Smaps.kilobytes(slowFile.path(), "FilePmdMapped") + " kB of the slowly written one");
            assertTrue(pmd >= 44 * 1024, "all a fast writer wrote is in 2 MiB entries but the regions it wrote before "
                    + "the pretoucher first looked (its first page's region, and the read-around of its fault): " + pmd
                    + " kB");
            MappedFileQueue consumeQueue = fast.openQueue(dir.resolve("cq"), 6000, QueueRole.CONSUME_QUEUE);
            MappedFile unit = consumeQueue.getLastMappedFile(0, true);
            assertTrue(unit.appendBytes(new byte[20], 0, 20));
            assertTrue(unit.appendBytes(new byte[20], 0, 20), "the second unit goes through the mapping");
            assertFalse(hugePageAdvice(unit.path()), "thousands of queues must not take 2 MiB each");
            consumeQueue.shutdown(0);
        } finally {
            fast.shutdown();
            slow.shutdown();
        }
    }

    /**
     * The whole written CommitLog stays in 2 MiB pages across a roll. Caught in the replication benchmark: the
     * pretoucher used to read the next file's head through a channel before the roll, and the kernel's read-ahead then
     * filled that file with small folios far past the head (the file rolled into had 4 of 58 MB in 2 MiB entries, and
     * the async flush paid per 4 KiB page again).
     */
    @Test
    void aRolledIntoFileIsWrittenIn2MiBPages() throws Exception {
        assumeTheKernelAdvises();
        int fileSize = 32 * 1024 * 1024;
        DefaultMappedStorage storage = storage(fileSize, true);
        storage.start();
        try {
            MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), fileSize, QueueRole.COMMIT_LOG);
            MappedFile first = commitLog.getLastMappedFile(0, true);
            // the pretoucher prepares the next file's head through its own mapping while the writer nears the end
            write(storage, first, fileSize);
            MappedFile second = commitLog.getLastMappedFile(fileSize, true);
            assertEquals(fileSize, second.fileFromOffset());
            int written = 16 * 1024 * 1024;
            write(storage, second, written);
            long rolledInto = Smaps.kilobytes(second.path(), "FilePmdMapped");
            assertTrue(rolledInto >= written / 1024, "the file rolled into has " + rolledInto + " kB in 2 MiB entries "
                    + "of the " + written / 1024 + " kB written (the first file: "
                    + Smaps.kilobytes(first.path(), "FilePmdMapped") + " kB)");
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
