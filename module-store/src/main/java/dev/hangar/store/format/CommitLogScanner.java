package dev.hangar.store.format;

import java.nio.ByteBuffer;

/**
 * Walks the CommitLog records in a stretch of a buffer, front to back, handing each complete record to a
 * {@link RecordHandler}, and says why it stopped. It is the one loop over records: recovery
 * ({@code recovery/CommitLogRecovery}), dispatch ({@code reput/CommitLogCursor}) and {@code verify} differ only in
 * what they do with a record and with the place the walk stops.
 *
 * <p>Each record is checked with {@link RecordDecoder#check}. The walk stops at the first record that is not a
 * MESSAGE (see {@link Stop}), when the handler asks, after {@code maxRecords} records, or at the limit. A record
 * cut by the limit is told apart from a damaged one ({@link Stop#CUT}), because a reader that sees only part of
 * the file (the dispatch limit, a slave receiving its master's log, a read window) must wait or read further
 * rather than call it damage.
 *
 * <p>Stateless and thread-safe; reads with absolute gets, the buffer's position is not moved.
 */
public final class CommitLogScanner {

    private CommitLogScanner() {
    }

    /** Receives each complete, consistent record of a scan. */
    @FunctionalInterface
    public interface RecordHandler {
        /**
         * @param buffer the scanned buffer (absolute reads only)
         * @param index  where the record starts in {@code buffer}
         * @param size   the record's length in bytes
         * @return true to go on with the next record, false to stop after this one
         */
        boolean onMessage(ByteBuffer buffer, int index, int size);
    }

    /** Why a scan stopped. */
    public enum Stop {
        /** Every byte up to the limit was a whole record: the next record lies at or past the limit. */
        LIMIT,
        /** The handler returned false, or {@code maxRecords} records were handed on. */
        PAUSED,
        /** A BLANK end-of-file record: the log goes on at the next file. */
        BLANK,
        /** Nothing was ever written here (zeros, or no bytes left). */
        END,
        /** A torn, truncated or corrupted record, which does not run past the limit. */
        INVALID,
        /**
         * A record the limit cuts: fewer than 8 bytes of header that are not all zero, or a message whose declared
         * length runs past the limit. Complete (or damaged) only the bytes past the limit can tell.
         */
        CUT
    }

    /**
     * How a scan ended. Mutable so that a reader that scans many times (the reput loop, once per pass) can pass
     * the same one to {@link #scan(ByteBuffer, int, int, boolean, long, RecordHandler, Result)} and allocate
     * nothing per pass; valid until it is passed to the next scan.
     */
    public static final class Result {
        private Stop stop;
        private int index;
        private long records;
        private int recordSize;
        private String reason;

        private Result set(Stop stop, int index, long records, int recordSize, String reason) {
            this.stop = stop;
            this.index = index;
            this.records = records;
            this.recordSize = recordSize;
            this.reason = reason;
            return this;
        }

        /** Why the scan stopped. */
        public Stop stop() {
            return stop;
        }

        /**
         * Buffer index of the first record not handed on (where the stop lies); after {@link Stop#PAUSED}, just
         * past the last record handed on.
         */
        public int index() {
            return index;
        }

        /** Records handed on. */
        public long records() {
            return records;
        }

        /**
         * At BLANK the blank's length, at CUT the declared length of the cut message (0 when only part of the
         * header is visible), else 0.
         */
        public int recordSize() {
            return recordSize;
        }

        /** Why INVALID or CUT, else null. */
        public String reason() {
            return reason;
        }

        @Override
        public String toString() {
            return "Result[stop=" + stop + ", index=" + index + ", records=" + records + ", recordSize=" + recordSize
                    + ", reason=" + reason + "]";
        }
    }

    /**
     * Scans {@code buffer} from {@code from} up to (not including) {@code limit}.
     *
     * @param checkCrc   also verify each body CRC
     * @param maxRecords hand on at most this many records
     */
    public static Result scan(ByteBuffer buffer, int from, int limit, boolean checkCrc, long maxRecords,
                              RecordHandler handler) {
        return scan(buffer, from, limit, checkCrc, maxRecords, handler, new Result());
    }

    /** {@link #scan(ByteBuffer, int, int, boolean, long, RecordHandler)} into {@code into}, which it returns. */
    public static Result scan(ByteBuffer buffer, int from, int limit, boolean checkCrc, long maxRecords,
                              RecordHandler handler, Result into) {
        int index = from;
        long records = 0;
        while (true) {
            if (index >= limit) {
                return into.set(Stop.LIMIT, index, records, 0, null);
            }
            if (records >= maxRecords) {
                return into.set(Stop.PAUSED, index, records, 0, null);
            }
            int available = limit - index;
            int length = RecordDecoder.messageLength(buffer, index, available, checkCrc);
            if (length > 0) {
                // the common case, without a Check per record
                records++;
                boolean goOn = handler.onMessage(buffer, index, length);
                index += length;
                if (!goOn) {
                    return into.set(Stop.PAUSED, index, records, 0, null);
                }
                continue;
            }
            RecordDecoder.Check check = RecordDecoder.check(buffer, index, available, checkCrc);
            switch (check.kind()) {
                case MESSAGE -> throw new IllegalStateException("impossible: check() sees a message that messageLength() refused");
                case BLANK -> {
                    return into.set(Stop.BLANK, index, records, check.size(), null);
                }
                case END -> {
                    return into.set(Stop.END, index, records, 0, null);
                }
                default -> {
                    int cutLength = cutLength(buffer, index, available);
                    return into.set(cutLength >= 0 ? Stop.CUT : Stop.INVALID, index, records, Math.max(cutLength, 0),
                            check.reason());
                }
            }
        }
    }

    /**
     * The declared length of a record that runs past the {@code available} bytes (0 when not even its header is
     * visible), or -1 when the record does not run past them (so its damage lies in what is visible).
     */
    private static int cutLength(ByteBuffer buffer, int index, int available) {
        if (available < CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH) {
            return 0;
        }
        int total = buffer.getInt(index + CommitLogRecordFormat.TOTAL_SIZE_OFFSET);
        int magic = buffer.getInt(index + CommitLogRecordFormat.MAGIC_CODE_OFFSET);
        return magic == CommitLogRecordFormat.MESSAGE_MAGIC_CODE && total > available ? total : -1;
    }
}
