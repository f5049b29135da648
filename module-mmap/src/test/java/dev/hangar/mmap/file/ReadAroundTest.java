package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store into a CommitLog file being written brings only its own page into the page cache ({@link ReadAround}):
 * counted with {@code mincore} over the whole mapping after one store into the middle of a fresh file. Without
 * the advice (the negative control, same test) the kernel's read-around zero-fills the pages around the fault on
 * the storing thread (8 MiB per fault on this project's VM: 20-50 ms inside one put, docs/PERFORMANCE.md).
 */
class ReadAroundTest {
    private static final int PAGE = DirtyPages.OS_PAGE_SIZE;
    private static final int FILE_SIZE = 64 << 20;
    /** A large folio may come in whole; read-around brings in at least 128 KiB (32 pages) on any usual device. */
    private static final int AT_MOST_ITS_FOLIO = 16;
    private static final int READ_AROUND_AT_LEAST = 32;

    @TempDir
    Path dir;

    @Test
    void aStoreIntoAFileBeingWrittenBringsInOnlyItsOwnPageAndReadAroundReturnsOnceItIsWritten() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "needs the C library: " + nativeMemory.lastFailure());
        DefaultMappedFile written = ReadAround.whileWritten(new DefaultMappedFile(dir.resolve("written"), 0,
                FILE_SIZE, nativeMemory));
        DefaultMappedFile plain = new DefaultMappedFile(dir.resolve("plain"), 0, FILE_SIZE, nativeMemory);
        try {
            assertTrue(ReadAround.isOff(written));
            long writtenResident = residentAfterAStoreAt(written, FILE_SIZE / 2);
            long plainResident = residentAfterAStoreAt(plain, FILE_SIZE / 2);

            System.out.printf("pages in the cache after one store: file being written %d, plain %d%n",
                    writtenResident, plainResident);
            assertTrue(plainResident >= READ_AROUND_AT_LEAST, "negative control: without the advice one store "
                    + "should read pages around it, but " + plainResident + " pages are in the cache");
            assertTrue(writtenResident >= 1 && writtenResident <= AT_MOST_ITS_FOLIO, "one store into a file being "
                    + "written brought " + writtenResident + " pages into the cache (without the advice "
                    + plainResident + ")");

            ReadAround.afterWritten(written);
            assertFalse(ReadAround.isOff(written));
            long before = resident(written);
            long after = residentAfterAStoreAt(written, FILE_SIZE / 4);
            assertTrue(after - before >= READ_AROUND_AT_LEAST, "after the roll a cold reader should get read-around "
                    + "again, but one store brought in " + (after - before) + " pages");
        } finally {
            written.shutdown(0);
            plain.shutdown(0);
        }
    }

    @Test
    void theQueueTurnsReadAroundBackOnForTheFileItRollsPast() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        int fileSize = 64 * 1024;
        DefaultMappedFileQueue queue = new DefaultMappedFileQueue(dir.resolve("commitlog"), fileSize,
                (d, offset, size) -> ReadAround.whileWritten(new DefaultMappedFile(d, offset, size, nativeMemory)),
                (d, offset, size) -> new DefaultMappedFile(d, offset, size, nativeMemory), null);
        try {
            MappedFile first = queue.getLastMappedFile(0, true);
            assertNotNull(first);
            assertTrue(ReadAround.isOff(first), "a new CommitLog file is written without read-around");
            byte[] chunk = new byte[PAGE];
            while (!first.isFull()) {
                assertTrue(first.appendBytes(chunk, 0, chunk.length));
            }

            MappedFile second = queue.getLastMappedFile(fileSize, true);

            assertNotNull(second);
            assertSame(first, queue.getFirstMappedFile());
            assertFalse(ReadAround.isOff(first), "the full file keeps MADV_RANDOM: cold readers lose read-around");
            assertTrue(ReadAround.isOff(second));
        } finally {
            queue.shutdown(0);
        }
    }

    private static long residentAfterAStoreAt(DefaultMappedFile file, int position) {
        MappedByteBuffer mapping = file.mappingForPretouch();
        mapping.put(position, (byte) 1);
        return resident(file);
    }

    private static long resident(DefaultMappedFile file) {
        long resident = file.nativeMemory().residentPages(file.mappingForPretouch(), file.fileSize());
        assertTrue(resident >= 0, "mincore failed: " + file.nativeMemory().lastFailure());
        return resident;
    }
}
