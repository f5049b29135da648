package dev.hangar.store.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageStatus;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitLogScannerTest {
    private static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    private static final int FILE = 4096;

    /** A file-like buffer: records from 0, each stamped with its position, zeros after them. */
    private static final class LogBuilder {
        final ByteBuffer buf = ByteBuffer.allocate(FILE);
        final List<Integer> starts = new ArrayList<>();

        LogBuilder message(String body) {
            MessageEncoder e = new MessageEncoder(FILE);
            assertEquals(PutMessageStatus.PUT_OK, e.encode(new Message("ScanTopic", body.getBytes(StandardCharsets.UTF_8))
                    .queueId(1).tags("T"), STORE_HOST));
            int start = buf.position();
            e.stamp(0, starts.size(), start, 1000L + starts.size());
            e.copyTo(buf);
            starts.add(start);
            return this;
        }

        /** The BLANK record that ends a file: the rest of the file is its length. */
        LogBuilder blank() {
            int start = buf.position();
            buf.putInt(FILE - start).putInt(CommitLogRecordFormat.BLANK_MAGIC_CODE);
            buf.position(start);
            return this;
        }

        int end() {
            return buf.position();
        }
    }

    /** Records every record handed on, as (index, size). */
    private static final class Recorder implements CommitLogScanner.RecordHandler {
        final List<int[]> seen = new ArrayList<>();
        final int stopAfter;

        Recorder(int stopAfter) {
            this.stopAfter = stopAfter;
        }

        @Override
        public boolean onMessage(ByteBuffer buffer, int index, int size) {
            assertEquals(index, (int) buffer.getLong(index + CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET),
                    "the handler gets the record's own start");
            seen.add(new int[] {index, size});
            return seen.size() < stopAfter;
        }
    }

    @Test
    void everyMessageIsHandedOnInOrderAndZerosAfterThemAreTheEnd() {
        LogBuilder log = new LogBuilder().message("one").message("two").message("three");
        Recorder handler = new Recorder(Integer.MAX_VALUE);

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, FILE, true, Long.MAX_VALUE, handler);

        assertEquals(CommitLogScanner.Stop.END, r.stop());
        assertEquals(log.end(), r.index(), "the end lies just after the last record");
        assertEquals(3, r.records());
        assertEquals(3, handler.seen.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(log.starts.get(i), handler.seen.get(i)[0]);
        }
        assertEquals(log.starts.get(1) - log.starts.get(0), handler.seen.get(0)[1], "the record's size");
        assertNull(r.reason());
    }

    @Test
    void aBlankRecordStopsTheScanWithTheLengthOfTheRestOfTheFile() {
        LogBuilder log = new LogBuilder().message("one").message("two").blank();

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, FILE, true, Long.MAX_VALUE, new Recorder(99));

        assertEquals(CommitLogScanner.Stop.BLANK, r.stop());
        assertEquals(log.end(), r.index());
        assertEquals(FILE - log.end(), r.recordSize(), "a roll to the next file goes this far");
        assertEquals(2, r.records());
    }

    @Test
    void aTornRecordInsideTheVisibleBytesIsInvalidWithItsReason() {
        LogBuilder log = new LogBuilder().message("one").message("two");
        int torn = log.starts.get(1);
        // a flipped body byte: the CRC no longer matches
        int bodyAt = torn + CommitLogRecordFormat.bodyOffset(0);
        log.buf.put(bodyAt, (byte) (log.buf.get(bodyAt) ^ 0x55));
        Recorder handler = new Recorder(99);

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, FILE, true, Long.MAX_VALUE, handler);

        assertEquals(CommitLogScanner.Stop.INVALID, r.stop());
        assertEquals(torn, r.index(), "the scan stops at the damaged record, not after it");
        assertEquals(1, r.records());
        assertTrue(r.reason().contains("CRC"), r.reason());

        CommitLogScanner.Result unchecked = CommitLogScanner.scan(log.buf, 0, FILE, false, Long.MAX_VALUE, new Recorder(99));
        assertEquals(CommitLogScanner.Stop.END, unchecked.stop(), "without CRC checks the body is not read");
    }

    @Test
    void aRecordWithABadMagicCodeIsInvalidNotCut() {
        LogBuilder log = new LogBuilder().message("one").message("two");
        int second = log.starts.get(1);
        log.buf.putInt(second + CommitLogRecordFormat.MAGIC_CODE_OFFSET, 0x12345678);

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, second + 20, false, Long.MAX_VALUE,
                new Recorder(99));

        assertEquals(CommitLogScanner.Stop.INVALID, r.stop(), "a foreign magic is damage even when the limit cuts it");
        assertTrue(r.reason().contains("magic"), r.reason());
    }

    @Test
    void aMessageCutByTheVisibleEndIsCutWithItsDeclaredLength() {
        LogBuilder log = new LogBuilder().message("one").message("two");
        int second = log.starts.get(1);
        int secondSize = log.end() - second;

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, second + 30, true, Long.MAX_VALUE,
                new Recorder(99));

        assertEquals(CommitLogScanner.Stop.CUT, r.stop());
        assertEquals(second, r.index());
        assertEquals(secondSize, r.recordSize(), "the reader learns how far it must see to read the record");
        assertEquals(1, r.records());
    }

    @Test
    void aHeaderCutByTheVisibleEndIsCutWithUnknownLength() {
        LogBuilder log = new LogBuilder().message("one").message("two");
        int second = log.starts.get(1);

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, second + 5, true, Long.MAX_VALUE,
                new Recorder(99));

        assertEquals(CommitLogScanner.Stop.CUT, r.stop());
        assertEquals(second, r.index());
        assertEquals(0, r.recordSize());
    }

    @Test
    void aLimitOnARecordBoundaryStopsThereAsLimit() {
        LogBuilder log = new LogBuilder().message("one").message("two").message("three");

        CommitLogScanner.Result r = CommitLogScanner.scan(log.buf, 0, log.starts.get(2), true, Long.MAX_VALUE,
                new Recorder(99));

        assertEquals(CommitLogScanner.Stop.LIMIT, r.stop());
        assertEquals(log.starts.get(2), r.index());
        assertEquals(2, r.records());
    }

    @Test
    void theHandlerAndTheRecordBudgetPauseTheScanAfterWholeRecords() {
        LogBuilder log = new LogBuilder().message("one").message("two").message("three");

        Recorder stopsAfterOne = new Recorder(1);
        CommitLogScanner.Result byHandler = CommitLogScanner.scan(log.buf, 0, FILE, true, Long.MAX_VALUE, stopsAfterOne);
        assertEquals(CommitLogScanner.Stop.PAUSED, byHandler.stop());
        assertEquals(log.starts.get(1), byHandler.index(), "just past the record the handler stopped on");
        assertEquals(1, byHandler.records());

        CommitLogScanner.Result byBudget = CommitLogScanner.scan(log.buf, 0, FILE, true, 2, new Recorder(99));
        assertEquals(CommitLogScanner.Stop.PAUSED, byBudget.stop());
        assertEquals(log.starts.get(2), byBudget.index());
        assertEquals(2, byBudget.records());

        CommitLogScanner.Result resumed = CommitLogScanner.scan(log.buf, byBudget.index(), FILE, true, 2,
                new Recorder(99));
        assertEquals(CommitLogScanner.Stop.END, resumed.stop(), "a paused scan resumes where it stopped");
        assertEquals(1, resumed.records());
    }
}
