package dev.hangar.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reput thread builds the ConsumeQueue and the index for every record without allocating per record: the
 * dispatch request is a reusable view over the record's bytes, tags, keys and the unique key are hashed in place.
 * Allocation is counted, not timed ({@code getThreadAllocatedBytes} of the reput thread), so the bound holds on a
 * loaded machine; it leaves room for JIT differences. With the per-record {@code DispatchRequest} record, copied
 * properties and key Strings of before, the same run allocated about 340 B per record.
 */
class DispatchAllocationTest {
    private static final int WARM_UP = 50_000;
    private static final int MEASURED = 200_000;
    private static final double MAX_BYTES_PER_RECORD = 16;
    private static final int BATCH = 500;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    @Test
    void theReputThreadAllocatesAlmostNothingPerDispatchedRecord() {
        try (DefaultMessageStore store = started()) {
            long[] reput = reputThreadIds();
            put(store, 0, WARM_UP);
            TestStores.await("the warm-up dispatched", () -> store.dispatchBehindBytes() == 0, 120_000);
            long before = allocatedBy(reput);
            put(store, WARM_UP, MEASURED);
            TestStores.await("every record dispatched", () -> store.dispatchBehindBytes() == 0, 120_000);
            long allocated = allocatedBy(reput) - before;
            double perRecord = (double) allocated / MEASURED;
            System.out.printf("%d dispatch thread(s): %d bytes for %d records, %.1f B per record%n", reput.length,
                    allocated, MEASURED, perRecord);
            assertTrue(perRecord <= MAX_BYTES_PER_RECORD, String.format(
                    "the reput thread allocated %d bytes for %d records: %.1f B per record, allowed %.0f",
                    allocated, MEASURED, perRecord, MAX_BYTES_PER_RECORD));
            // the records were really indexed: a key of the last one is found
            int last = WARM_UP + MEASURED - 1;
            assertTrue(store.queryMessage("Alloc", "order-" + last, 1, 0, Long.MAX_VALUE).messages().size() == 1,
                    "the last record's key is in the index");
        }
    }

    /**
     * One record per reput pass, as with one writer of sync puts: each put is dispatched before the next is made, so
     * whatever a pass allocates counts whole per record. The pass reads its file through a view kept per file
     * ({@code HeldFileWindow}); with a CommitLog region and buffer slice made per pass this measured ~100 B per
     * record.
     */
    @Test
    void aPassCarryingOneRecordAllocatesAlmostNothing() {
        try (DefaultMessageStore store = started()) {
            long[] reput = reputThreadIds();
            putOneByOne(store, 0, 2_000);
            long before = allocatedBy(reput);
            int measured = 5_000;
            putOneByOne(store, 2_000, measured);
            long allocated = allocatedBy(reput) - before;
            double perRecord = (double) allocated / measured;
            System.out.printf("%d dispatch thread(s), one record per pass: %d bytes for %d records, %.1f B per record%n",
                    reput.length, allocated, measured, perRecord);
            assertTrue(perRecord <= MAX_BYTES_PER_RECORD, String.format(
                    "the reput thread allocated %d bytes for %d one-record passes: %.1f B per record, allowed %.0f",
                    allocated, measured, perRecord, MAX_BYTES_PER_RECORD));
        }
    }

    /** A store whose files hold every record of a test, so no file roll or index rollover is measured. */
    private DefaultMessageStore started() {
        return TestStores.started(dir, "mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024),
                "mappedFileSizeConsumeQueue", Integer.toString(300_000 * 20),
                "maxHashSlotNum", "500000", "maxIndexNum", "2000000");
    }

    private static void putOneByOne(DefaultMessageStore store, int from, int count) {
        byte[] body = "one record per pass".getBytes(StandardCharsets.UTF_8);
        for (int i = from; i < from + count; i++) {
            Message m = new Message("Alloc", body).queueId(i & 3).tags("TagA").keys("single-" + i);
            assertTrue(store.putMessage(m).isOk(), "put " + i);
            TestStores.await("put " + i + " dispatched", () -> store.dispatchBehindBytes() == 0, 60_000);
        }
    }

    /**
     * Records as a client sends them: a tag, two keys and a unique key. Put in batches of {@link #BATCH} (one queue
     * per batch) so that each reput pass carries many records: what a pass costs (the CommitLog region and its
     * buffer, about 150 B) is then spread thin, and the bound measures what a record costs however the reput thread
     * is scheduled against the writer.
     */
    private static void put(DefaultMessageStore store, int from, int count) {
        byte[] body = "a small body of a few dozen bytes, as many messages are".getBytes(StandardCharsets.UTF_8);
        for (int start = from; start < from + count; start += BATCH) {
            List<Message> batch = new ArrayList<>(BATCH);
            for (int i = start; i < Math.min(start + BATCH, from + count); i++) {
                Message m = new Message("Alloc", body).queueId((start / BATCH) & 3).tags("TagA")
                        .keys("order-" + i, "user-" + (i % 97));
                m.property(MessageConst.UNIQ_KEY, "UNIQ-" + i);
                batch.add(m);
            }
            assertTrue(store.putMessages(batch).isOk(), "put the batch from " + start);
        }
    }

    /**
     * The dispatch threads: {@code hangar-reput}, and with {@code dispatchThreads=per-dispatcher} also
     * {@code hangar-reput-index} (the surefire execution "dispatch-thread-per-dispatcher" runs this test that way).
     */
    private static long[] reputThreadIds() {
        long[] ids = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("hangar-reput") || t.getName().startsWith("hangar-reput-"))
                .mapToLong(Thread::getId).toArray();
        if (ids.length == 0) {
            throw new AssertionError("no hangar-reput thread");
        }
        return ids;
    }

    /** Bytes the dispatch threads allocated so far, all of them together. */
    private static long allocatedBy(long[] threads) {
        long sum = 0;
        for (long id : threads) {
            sum += THREADS.getThreadAllocatedBytes(id);
        }
        return sum;
    }
}
