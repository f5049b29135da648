package dev.hangar.store.clean;

import dev.hangar.store.TestInternals;
import static dev.hangar.store.clean.RetentionFixture.BODY;
import static dev.hangar.store.clean.RetentionFixture.FILES;
import static dev.hangar.store.clean.RetentionFixture.FILE_SIZE;
import static dev.hangar.store.clean.RetentionFixture.TWO_HOURS;
import static dev.hangar.store.clean.RetentionFixture.age;
import static dev.hangar.store.clean.RetentionFixture.queue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers holding CommitLog regions while retention and the manual clean delete their files, with
 * {@code destroyMapedFileIntervalForcibly=0} so every deletion finds a reader overdue: the files go from the disk,
 * but no mapping is taken away under a reader (that would crash the JVM or return garbage), and every read returns
 * the record that was written.
 */
class RetentionUnderReadersTest {
    private static final int KEPT = 5;

    @TempDir
    Path dir;

    @Test
    void readersHoldingRegionsWhileFilesAreDeletedNeverCrashNorReadTornData() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir,
                "destroyMapedFileIntervalForcibly", "0", "dispatchers", "consume-queue")) {
            MappedFileQueue q = queue(store);
            Path firstFile = q.getFirstMappedFile().path();
            SelectedRegion heldThroughout = TestInternals.commitLog(store).getData(0);
            assertNotNull(heldThroughout);
            byte[] before = bytes(heldThroughout);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong reads = new AtomicLong();
            List<String> failures = new ArrayList<>();
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Random random = new Random(t);
                Thread reader = new Thread(() -> {
                    while (!stop.get()) {
                        String problem = readOnce(store, random);
                        reads.incrementAndGet();
                        if (problem != null) {
                            synchronized (failures) {
                                failures.add(problem);
                            }
                        }
                    }
                }, "retention-reader-" + t);
                readers.add(reader);
                reader.start();
            }
            try {
                age(q, FILES - KEPT, TWO_HOURS);
                TestStores.await("readers under way", () -> reads.get() > 100);
                // the manual clean's first pass only shuts the held first file down; its next passes delete it
                store.executeDeleteFilesManually();
                TestStores.await("retention deleted every expired file", () -> {
                    TestInternals.retention(store).runPass();
                    return q.mappedFiles().size() == KEPT;
                });
                TestStores.await("more reads after the deletions", () -> reads.get() > 1000);
            } finally {
                stop.set(true);
                for (Thread reader : readers) {
                    reader.join(10_000);
                }
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " bad reads, first: " + failures.get(0));

            assertFalse(Files.exists(firstFile), "the held file went from the disk");
            assertArrayEquals(before, bytes(heldThroughout), "and its region still reads what was written");
            heldThroughout.close();
            assertEquals((long) (FILES - KEPT) * FILE_SIZE, store.getMinPhyOffset());
        }
    }

    /** One read of a random file, held across a short pause: null when right (or already gone), else the problem. */
    private static String readOnce(DefaultMessageStore store, Random random) {
        long offset = (long) random.nextInt(FILES) * FILE_SIZE;
        try (SelectedRegion region = TestInternals.commitLog(store).getData(offset)) {
            if (region == null) {
                return null; // deleted before we got there: fine
            }
            byte[] first = bytes(region);
            Thread.yield();
            byte[] again = bytes(region);
            if (!java.util.Arrays.equals(first, again)) {
                return "region at " + offset + " changed under its reader";
            }
        } catch (RuntimeException | InternalError e) {
            return "reading " + offset + " failed: " + e;
        }
        try {
            StoredMessage m = store.lookMessageByOffset(offset);
            if (m != null && !BODY.equals(new String(m.body(), StandardCharsets.UTF_8))) {
                return "a torn body at " + offset;
            }
        } catch (RuntimeException | InternalError e) {
            return "looking up " + offset + " failed: " + e;
        }
        return null;
    }

    private static byte[] bytes(SelectedRegion region) {
        byte[] out = new byte[region.size()];
        region.buffer().duplicate().get(out);
        return out;
    }
}
