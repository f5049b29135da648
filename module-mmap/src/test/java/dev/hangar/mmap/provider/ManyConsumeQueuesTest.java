package dev.hangar.mmap.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.file.MappingBudget;
import dev.hangar.mmap.file.OnDemandMappedFile;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.QueueRole;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of ConsumeQueues: their files take disk blocks only for the units written (not their full length),
 * and no more of them stay mapped than the budget allows, while every unit stays readable.
 */
class ManyConsumeQueuesTest {
    /** RocketMQ's ConsumeQueue file: 300 000 units of 20 bytes. */
    private static final int CQ_FILE_SIZE = 300_000 * 20;
    private static final int UNIT = 20;

    @TempDir
    Path dir;

    private static StoreConfig config(int mappingBudget) {
        return StoreConfig.builder()
                .set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, 1 << 20)
                .set(StoreConfigKeys.MAX_MAPPED_CONSUME_QUEUE_FILES, mappingBudget)
                .build();
    }

    private static byte[] unit(int queue, int index) {
        return ByteBuffer.allocate(UNIT).putLong(queue).putInt(index).putLong((long) queue * 1_000_003 + index).array();
    }

    private static void append(MappedFileQueue queue, int queueId, int index) {
        MappedFile file = queue.getLastMappedFile((long) index * UNIT, true);
        assertNotNull(file, "no file for queue " + queueId);
        assertTrue(file.appendBytes(unit(queueId, index), 0, UNIT), "append to queue " + queueId);
    }

    private static void assertUnit(MappedFileQueue queue, int queueId, int index) {
        MappedFile file = queue.findMappedFileByOffset((long) index * UNIT, false);
        assertNotNull(file, "queue " + queueId + " unit " + index);
        try (SelectedRegion region = file.selectMappedBuffer((int) ((long) index * UNIT - file.fileFromOffset()),
                UNIT)) {
            assertNotNull(region, "queue " + queueId + " unit " + index + " not readable");
            byte[] read = new byte[UNIT];
            region.buffer().get(read);
            assertEquals(ByteBuffer.wrap(unit(queueId, index)), ByteBuffer.wrap(read),
                    "queue " + queueId + " unit " + index);
        }
    }

    /** Blocks the file system allocated under {@code path}, in bytes (st_blocks, not the apparent length). */
    private static long diskUsed(Path path) throws IOException, InterruptedException {
        Process du = new ProcessBuilder("du", "-s", "-B1", path.toString()).redirectErrorStream(true).start();
        String out = new String(du.getInputStream().readAllBytes()).trim();
        assertTrue(du.waitFor(60, TimeUnit.SECONDS), "du did not finish");
        assertEquals(0, du.exitValue(), out);
        return Long.parseLong(out.split("\\s+")[0]);
    }

    @Test
    void consumeQueueFilesTakeBlocksOnlyForTheUnitsWritten() throws Exception {
        int queues = 400;
        int unitsPerQueue = 512;
        DefaultMappedStorage storage = new DefaultMappedStorage(config(1024), false, NativeMemory.system());
        storage.start();
        List<MappedFileQueue> all = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            all.add(storage.openQueue(dir.resolve("consumequeue").resolve("T").resolve(Integer.toString(q)),
                    CQ_FILE_SIZE, QueueRole.CONSUME_QUEUE));
        }
        for (int i = 0; i < unitsPerQueue; i++) {
            for (int q = 0; q < queues; q++) {
                append(all.get(q), q, i);
            }
        }
        for (MappedFileQueue queue : all) {
            queue.flush(0);
        }
        long written = (long) queues * unitsPerQueue * UNIT;
        long used = diskUsed(dir.resolve("consumequeue"));
        long apparent = (long) queues * CQ_FILE_SIZE;
        assertTrue(used <= 2 * written, "consumequeue/ uses " + used + " bytes on disk for " + written
                + " bytes of units (files of " + apparent + " bytes in all)");
        all.forEach(q -> q.shutdown(0));
        storage.shutdown();
    }

    @Test
    void theCommitLogStillReservesItsBlocks() throws Exception {
        RecordingLibC libc = RecordingLibC.succeeding();
        DefaultMappedStorage storage = new DefaultMappedStorage(config(16), false, new NativeMemory(libc, null));
        storage.start();
        MappedFileQueue commitLog = storage.openQueue(dir.resolve("commitlog"), 1 << 20, QueueRole.COMMIT_LOG);
        MappedFileQueue consumeQueue = storage.openQueue(dir.resolve("cq"), CQ_FILE_SIZE, QueueRole.CONSUME_QUEUE);
        assertNotNull(commitLog.getLastMappedFile(0, true));
        append(consumeQueue, 0, 0);
        // the allocation service may also reserve the next CommitLog file ahead, so count by directory
        assertTrue(libc.opened.stream().anyMatch(p -> p.startsWith(dir.resolve("commitlog").toString())),
                "the CommitLog file is fallocated: " + libc.opened);
        assertTrue(libc.opened.stream().noneMatch(p -> p.startsWith(dir.resolve("cq").toString())),
                "no ConsumeQueue file is fallocated: " + libc.opened);
        commitLog.shutdown(0);
        consumeQueue.shutdown(0);
        storage.shutdown();
    }

    @Test
    void moreQueuesThanTheMappingBudgetKeepWorkingWithinIt() throws Exception {
        int budget = 8;
        int queues = 100;
        int rounds = 30;
        DefaultMappedStorage storage = new DefaultMappedStorage(config(budget), false, NativeMemory.system());
        storage.start();
        MappingBudget mappings = storage.consumeQueueMappings();
        List<MappedFileQueue> all = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            all.add(storage.openQueue(dir.resolve("cq").resolve(Integer.toString(q)), UNIT * 16,
                    QueueRole.CONSUME_QUEUE));
        }
        int maxSeen = 0;
        for (int i = 0; i < rounds; i++) {
            for (int q = 0; q < queues; q++) {
                append(all.get(q), q, i);
                maxSeen = Math.max(maxSeen, mappings.mappedFiles());
            }
        }
        assertTrue(maxSeen <= budget + 1, "at most one file over the budget while mapping, saw " + maxSeen);
        assertTrue(mappings.parkedCount() > 0, "idle files were unmapped");
        for (int q = 0; q < queues; q++) {
            assertTrue(all.get(q).mappedFiles().size() > 1, "files rolled");
            for (int i = 0; i < rounds; i++) {
                assertUnit(all.get(q), q, i);
            }
            all.get(q).flush(0);
        }
        assertTrue(mappings.mappedFiles() <= budget, mappings.mappedFiles() + " mapped");
        all.forEach(q -> q.shutdown(0));
        assertEquals(0, mappings.mappedFiles(), "shutdown unmaps every file");

        // the units written through mappings that were later unmapped are on disk
        List<MappedFileQueue> reopened = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            MappedFileQueue queue = storage.openQueue(dir.resolve("cq").resolve(Integer.toString(q)), UNIT * 16,
                    QueueRole.CONSUME_QUEUE);
            assertTrue(queue.load());
            assertInstanceOf(OnDemandMappedFile.class, queue.getFirstMappedFile());
            for (int i = 0; i < rounds; i++) {
                assertUnit(queue, q, i);
            }
            reopened.add(queue);
        }
        assertTrue(mappings.mappedFiles() <= budget, "loading maps nothing beyond the budget");
        reopened.forEach(q -> q.shutdown(0));
        storage.shutdown();
    }

    @Test
    void readersRacingTheWriterNeverTouchAnUnmappedFile() throws Exception {
        int queues = 64;
        int units = 2_000;
        DefaultMappedStorage storage = new DefaultMappedStorage(config(4), false, NativeMemory.system());
        storage.start();
        List<MappedFileQueue> all = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            all.add(storage.openQueue(dir.resolve("cq").resolve(Integer.toString(q)), UNIT * 64,
                    QueueRole.CONSUME_QUEUE));
        }
        AtomicLong written = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong reads = new AtomicLong();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Thread reader = new Thread(() -> {
                try {
                    while (!done.get()) {
                        long upTo = written.get();
                        if (upTo == 0) {
                            continue;
                        }
                        long n = ThreadLocalRandom.current().nextLong(upTo);
                        assertUnit(all.get((int) (n % queues)), (int) (n % queues), (int) (n / queues));
                        reads.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            reader.start();
            readers.add(reader);
        }
        for (int i = 0; i < units / queues * queues; i++) {
            int q = i % queues;
            append(all.get(q), q, i / queues);
            written.set(i + 1);
        }
        done.set(true);
        for (Thread reader : readers) {
            reader.join(TimeUnit.MINUTES.toMillis(2));
        }
        if (failure.get() != null) {
            throw new AssertionError("a reader failed", failure.get());
        }
        assertTrue(reads.get() > 0);
        assertTrue(storage.consumeQueueMappings().remappedCount() > 0, "parked files were mapped again");
        all.forEach(q -> q.shutdown(0));
        storage.shutdown();
    }
}
