package dev.hangar.dispatch.verify;

import static dev.hangar.spi.format.ConsumeQueueFormat.UNIT_SIZE;

import dev.hangar.spi.dispatch.DispatcherVerification;
import dev.hangar.spi.dispatch.DispatcherVerification.ReadWindow;
import dev.hangar.spi.dispatch.DispatcherVerification.RecordHeader;
import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.mapped.TailFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Checks every ConsumeQueue under {@code consumequeue/<topic>/<queueId>/}, read-only: file sizes and names, and
 * every unit: it must point at a real record of the CommitLog whose topic and queue id are the queue's, whose
 * TOTALSIZE is the unit's size and whose QUEUEOFFSET is the unit's index. Blank pre-fill units are fine; units
 * pointing below the CommitLog's first offset are expired (their messages went with retention) and reported once
 * per queue as info.
 *
 * <p>Not thread-safe: one verification.
 */
public final class ConsumeQueueVerifier {
    public static final String CONSUME_QUEUES = "consumeQueues";
    public static final String CONSUME_QUEUE_FILES = "consumeQueueFiles";
    public static final String BLANK_UNITS = "blankUnits";
    public static final String EXPIRED_UNITS = "expiredUnits";
    /** Read window: a whole number of units, about 1 MiB. */
    private static final int WINDOW = UNIT_SIZE * 52_428;

    private final Path dir;
    private final int fileSize;
    private final DispatcherVerification report;

    /** @param report the findings, and the CommitLog the units point into */
    public ConsumeQueueVerifier(Path dir, int fileSize, DispatcherVerification report) {
        this.dir = dir;
        this.fileSize = fileSize;
        this.report = report;
    }

    /** The store's abort marker is there: the next start recovers as after a crash (dir is root/consumequeue). */
    private boolean afterCrash() {
        Path root = dir.toAbsolutePath().getParent();
        return root != null && Files.exists(root.resolve("abort"));
    }

    /** Checks every queue; an unreadable file or directory is reported as an error on {@code dir}. */
    public void verify() {
        try {
            verifyQueues();
        } catch (IOException e) {
            report.error(dir, -1, "cannot read the ConsumeQueues: " + e);
        }
    }

    private void verifyQueues() throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        for (Path topicDir : directories(dir)) {
            for (Path queueDir : directories(topicDir)) {
                String name = queueDir.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit) || name.isEmpty() || name.length() > 9) {
                    report.warning(queueDir, -1, "unexpected directory: a queue directory is named by its queue id");
                    continue;
                }
                verifyQueue(topicDir.getFileName().toString(), Integer.parseInt(name), queueDir);
            }
        }
    }

    private List<Path> directories(Path parent) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> entries = Files.list(parent)) {
            for (Path p : entries.sorted().toList()) {
                if (Files.isDirectory(p)) {
                    out.add(p);
                } else {
                    report.warning(p, -1, "unexpected file: ConsumeQueue files live in consumequeue/<topic>/<queueId>/");
                }
            }
        }
        return out;
    }

    /** Per-queue progress across its files. */
    private static final class QueueWalk {
        final String topic;
        final int queueId;
        boolean ended;
        long endedAtQueueOffset;
        long previousCommitLogOffset = -1;
        long expired;
        long pastEnd;
        long firstPastEnd;
        Path firstPastEndFile;
        long firstPastEndPosition;

        QueueWalk(String topic, int queueId) {
            this.topic = topic;
            this.queueId = queueId;
        }
    }

    private void verifyQueue(String topic, int queueId, Path queueDir) throws IOException {
        report.count(CONSUME_QUEUES, 1);
        TreeMap<Long, Path> files = report.numberedFiles(queueDir, 20);
        report.checkContiguous(files, fileSize, "ConsumeQueue");
        QueueWalk q = new QueueWalk(topic, queueId);
        TailFiles.Verdict tail = TailFiles.classify(List.copyOf(files.values()), fileSize);
        if (!tail.loadable()) {
            report.error(queueDir, -1, tail.damage() + "; the store refuses to start");
        }
        for (Map.Entry<Long, Path> e : files.entrySet()) {
            Path path = e.getValue();
            long length = tail.length(path);
            if (tail.isNeverWritten(path)) {
                // its load deletes it: worth a warning, not the wrong-size error below
                report.warning(path, -1, TailFiles.neverWrittenFinding(length, fileSize));
                continue;
            }
            report.count(DispatcherVerification.FILES, 1);
            report.count(CONSUME_QUEUE_FILES, 1);
            if (path.equals(tail.shortNewest()) && afterCrash()) {
                report.warning(path, -1, TailFiles.shortNewestFinding(length, fileSize));
            } else if (path.equals(tail.shortNewest())) {
                report.error(path, -1, TailFiles.shortAfterCleanShutdownFinding(length, fileSize));
            } else if (length != fileSize && tail.loadable()) {
                report.error(path, -1, "the file is " + length + " bytes but the ConsumeQueue file size is " + fileSize
                        + " (mappedFileSizeConsumeQueue rounded up to whole 20-byte units)");
            }
            try (ReadWindow w = report.window(path, WINDOW)) {
                if (q.ended) {
                    long nonZero = w.firstNonZero(0);
                    if (nonZero >= 0) {
                        report.error(path, nonZero, "units after the end of the queue (queue offset "
                                + q.endedAtQueueOffset + "): recovery ends the queue there and drops them");
                    }
                    continue;
                }
                walkUnits(e.getKey(), path, w, q);
            }
        }
        if (q.pastEnd > 0) {
            report.error(q.firstPastEndFile, q.firstPastEndPosition, q.pastEnd + " units of " + topic + "/" + queueId
                    + " from queue offset " + q.firstPastEnd + " on point past the end of the valid commit log ("
                    + report.commitLogMaxOffset() + "): their messages are missing and recovery truncates the queue to "
                    + q.firstPastEnd);
        }
        if (q.expired > 0) {
            report.count(EXPIRED_UNITS, q.expired);
            report.info(queueDir, -1, q.expired + " units point below the commit log's first offset "
                    + report.commitLogMinOffset() + ": their messages were deleted by retention (expired, not an error)");
        }
    }

    private void walkUnits(long fileStart, Path path, ReadWindow w, QueueWalk q) throws IOException {
        for (long pos = 0; pos + UNIT_SIZE <= w.size(); pos += UNIT_SIZE) {
            int idx = w.ensure(pos, UNIT_SIZE);
            ByteBuffer buf = w.buffer();
            long target = buf.getLong(idx + ConsumeQueueFormat.COMMIT_LOG_OFFSET_OFFSET);
            int size = buf.getInt(idx + ConsumeQueueFormat.SIZE_OFFSET);
            long queueOffset = (fileStart + pos) / UNIT_SIZE;
            if (ConsumeQueueFormat.isBlank(target, size)) {
                report.count(BLANK_UNITS, 1);
                continue;
            }
            if (ConsumeQueueFormat.isEnd(target, size)) {
                long nonZero = w.firstNonZero(pos);
                if (nonZero >= 0) {
                    report.error(path, pos, "the unit of queue offset " + queueOffset + " ends the queue (commit-log "
                            + "offset " + target + ", size " + size + ") but data follows at byte " + nonZero
                            + ": recovery ends the queue here and drops what follows");
                }
                q.ended = true;
                q.endedAtQueueOffset = queueOffset;
                return;
            }
            report.count(DispatcherVerification.UNITS, 1);
            checkUnit(path, pos, queueOffset, target, size, q);
        }
    }

    private void checkUnit(Path path, long pos, long queueOffset, long target, int size, QueueWalk q)
            throws IOException {
        String unit = "the unit of queue offset " + queueOffset + " (commit-log offset " + target + ", size " + size + ")";
        if (target <= q.previousCommitLogOffset) {
            report.error(path, pos, unit + " does not point past the previous unit's commit-log offset "
                    + q.previousCommitLogOffset + ": units must ascend");
        }
        q.previousCommitLogOffset = Math.max(q.previousCommitLogOffset, target);
        if (report.commitLogMinOffset() < 0 || target < report.commitLogMinOffset()) {
            q.expired++;
            return;
        }
        if (target + size > report.commitLogMaxOffset() || target + size > report.validEndOfFileHolding(target)) {
            if (q.pastEnd++ == 0) {
                q.firstPastEnd = queueOffset;
                q.firstPastEndFile = path;
                q.firstPastEndPosition = pos;
            }
            return;
        }
        RecordHeader r = report.record(target);
        List<String> wrong = new ArrayList<>();
        if (r == null) {
            wrong.add("no record can be read there");
        } else if (!r.messageStart()) {
            wrong.add(String.format("there is no record start there (magic 0x%08X)", r.magic()));
        } else {
            if (r.totalSize() != size) {
                wrong.add("the record is " + r.totalSize() + " bytes");
            }
            if (r.physicalOffset() != target) {
                wrong.add("the record says it is at " + r.physicalOffset());
            }
            if (!q.topic.equals(r.topic())) {
                wrong.add("the record's topic is " + r.topic());
            }
            if (r.queueId() != q.queueId) {
                wrong.add("the record's queue id is " + r.queueId());
            }
            if (r.queueOffset() != queueOffset) {
                wrong.add("the record's queue offset is " + r.queueOffset());
            }
        }
        if (!wrong.isEmpty()) {
            report.error(path, pos, unit + " of " + q.topic + "/" + q.queueId + " does not match: "
                    + String.join(", ", wrong));
        }
    }
}
