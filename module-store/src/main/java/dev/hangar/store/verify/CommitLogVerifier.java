package dev.hangar.store.verify;

import dev.hangar.spi.mapped.TailFiles;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.CommitLogScanner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Walks every CommitLog file record by record, read-only: magic, body CRC and length arithmetic (the checks of
 * recovery), the PHYSICALOFFSET field against the record's real position, BLANK records reaching the end of their
 * file, zeros only after the end of the data, file names contiguous and file sizes equal to the configured size.
 *
 * <p>Not thread-safe: one walk.
 */
final class CommitLogVerifier {
    static final String COMMIT_LOG_FILES = "commitLogFiles";
    static final String BLANK_RECORDS = "blankRecords";
    /** Window for reading: the largest record plus slack, so a record is checked in one piece. */
    private static final int MIN_WINDOW = 1 << 20;
    private static final int RECORD_SLACK = 128 * 1024;

    private final Path dir;
    private final int fileSize;
    private final int window;
    private final boolean uncleanShutdown;
    private final ReportCollector report;

    CommitLogVerifier(Path dir, int fileSize, int maxMessageSize, boolean uncleanShutdown, ReportCollector report) {
        this.dir = dir;
        this.fileSize = fileSize;
        this.window = (int) Math.min(fileSize, Math.max(MIN_WINDOW, (long) maxMessageSize + RECORD_SLACK));
        this.uncleanShutdown = uncleanShutdown;
        this.report = report;
    }

    /** How a file's walk ended. */
    private record Outcome(long validEnd, boolean logEnds) {
    }

    CommitLogExtent verify() throws IOException {
        TreeMap<Long, Path> files = NumberedFiles.list(dir, 20, report);
        NumberedFiles.checkContiguous(files, fileSize, "commit-log", report);
        TreeMap<Long, Long> validEnds = new TreeMap<>();
        boolean ended = false;
        long end = files.isEmpty() ? 0 : files.firstKey();
        DataAfterEnd after = new DataAfterEnd();
        TailFiles.Verdict tail = TailFiles.classify(List.copyOf(files.values()), fileSize);
        if (!tail.loadable()) {
            report.error(dir, -1, tail.damage() + "; the store refuses to start");
        }
        for (Map.Entry<Long, Path> e : files.entrySet()) {
            long start = e.getKey();
            Path path = e.getValue();
            long length = tail.length(path);
            if (tail.isNeverWritten(path)) {
                // the queue's load deletes it: worth a warning, not the wrong-size error below
                report.warning(path, -1, TailFiles.neverWrittenFinding(length, fileSize));
                continue;
            }
            report.count(VerifyReport.FILES, 1);
            report.count(COMMIT_LOG_FILES, 1);
            if (path.equals(tail.shortNewest()) && uncleanShutdown) {
                report.warning(path, -1, TailFiles.shortNewestFinding(length, fileSize));
            } else if (path.equals(tail.shortNewest())) {
                report.error(path, -1, TailFiles.shortAfterCleanShutdownFinding(length, fileSize));
            } else if (length != fileSize && tail.loadable()) {
                report.error(path, -1, "the file is " + length + " bytes but mappedFileSizeCommitLog is " + fileSize
                        + ": the store refuses to load a commit log with a file of the wrong size");
            }
            try (FileWindow w = FileWindow.open(path, window)) {
                if (ended) {
                    long nonZero = w.firstNonZero(0);
                    if (nonZero >= 0) {
                        after.add(path, nonZero);
                    }
                    validEnds.put(start, start);
                    continue;
                }
                Outcome o = walk(start, path, w);
                validEnds.put(start, start + o.validEnd());
                end = o.logEnds() ? start + o.validEnd() : start + w.size();
                ended = o.logEnds();
            }
        }
        after.report(end);
        long min = files.isEmpty() ? -1 : files.firstKey();
        return new CommitLogExtent(files, validEnds, min, end);
    }

    /** Files past the end of the log that still hold data: one finding for all of them. */
    private final class DataAfterEnd {
        private Path first;
        private long firstPosition;
        private Path last;
        private int files;

        void add(Path path, long position) {
            if (first == null) {
                first = path;
                firstPosition = position;
            }
            last = path;
            files++;
        }

        void report(long end) {
            if (files > 0) {
                report.error(first, firstPosition, "data after the end of the log (commit-log offset " + end + ") in "
                        + (files == 1 ? "this file" : "this file and " + (files - 1) + " later ones, up to "
                        + last.getFileName()) + ": recovery ends the log there and deletes them");
            }
        }
    }

    /**
     * Scans the window from {@code pos} on; where the scan stops only because the window ends (a whole window of
     * records, or a record the window cuts), the window is moved to the stop and grown to the record, and the scan
     * goes on.
     */
    private Outcome walk(long start, Path path, FileWindow w) throws IOException {
        long size = w.size();
        long pos = 0;
        int needed = CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH;
        while (true) {
            if (pos >= size) {
                // RocketMQ always leaves room for a BLANK record; a file filled to the last byte is odd but readable
                report.warning(path, pos, "the file is filled to its end without a BLANK record");
                return new Outcome(pos, false);
            }
            int idx = w.ensure(pos, needed);
            long windowBase = pos - idx;
            ByteBuffer buf = w.buffer();
            CommitLogScanner.Result r = CommitLogScanner.scan(buf, idx, idx + w.available(pos), true, Long.MAX_VALUE,
                    (b, index, recordSize) -> {
                        long field = b.getLong(index + CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET);
                        if (field != start + windowBase + index) {
                            report.error(path, windowBase + index, "the record at commit-log offset "
                                    + (start + windowBase + index) + " says in its PHYSICALOFFSET field that it is at "
                                    + field);
                        }
                        report.count(VerifyReport.RECORDS, 1);
                        report.count(VerifyReport.BYTES, recordSize);
                        return true;
                    });
            boolean windowReachesFileEnd = windowBase + idx + w.available(pos) >= size;
            pos = windowBase + r.index();
            needed = CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH;
            switch (r.stop()) {
                case BLANK -> {
                    report.count(BLANK_RECORDS, 1);
                    if (pos + r.recordSize() != size) {
                        report.error(path, pos, "the BLANK record at commit-log offset " + (start + pos) + " claims "
                                + r.recordSize() + " bytes but " + (size - pos) + " are left in the file");
                    }
                    return new Outcome(pos, false);
                }
                case END -> {
                    long nonZero = w.firstNonZero(pos);
                    if (nonZero >= 0) {
                        report.error(path, pos, "zeros at commit-log offset " + (start + pos) + ", then data again at "
                                + (start + nonZero) + ": recovery ends the log at the zeros and loses what follows");
                    }
                    return new Outcome(pos, true);
                }
                case CUT -> {
                    if (windowReachesFileEnd) {
                        invalid(start, path, w, pos, r.recordSize(), r.reason());
                        return new Outcome(pos, true);
                    }
                    // a length past the file's end is read as far as the file goes, then found invalid
                    needed = (int) Math.min(Math.max(needed, r.recordSize()), size - pos);
                }
                case INVALID -> {
                    // not cut, so at least its header lies in the window
                    invalid(start, path, w, pos, buf.getInt(r.index()), r.reason());
                    return new Outcome(pos, true);
                }
                default -> {
                    // LIMIT: the window ended on a record boundary, read on from there
                }
            }
        }
    }

    /**
     * An invalid record ends the log for recovery. After an unclean shutdown, a damaged last record followed only
     * by zeros is the torn tail of the last append: recovery trims it, nothing acknowledged is lost (a warning).
     * Anywhere else it is damage, and everything after it is lost (an error).
     */
    private void invalid(long start, Path path, FileWindow w, long pos, int total, String reason) throws IOException {
        long left = w.size() - pos;
        long claimedEnd = total >= 8 && total <= left ? pos + total : Math.min(w.size(), pos + 8);
        long dataAfter = w.firstNonZero(claimedEnd);
        String where = "invalid record at commit-log offset " + (start + pos) + ": " + reason;
        if (uncleanShutdown && dataAfter < 0) {
            report.warning(path, pos, where + "; the last shutdown was not clean, so this is likely the torn tail "
                    + "of the last write, which recovery trims");
        } else {
            report.error(path, pos, where + "; recovery ends the log here and drops the " + (w.size() - pos)
                    + " bytes from there to the end of the file" + (dataAfter >= 0 ? " (data follows at "
                    + (start + dataAfter) + ")" : ""));
        }
    }
}
