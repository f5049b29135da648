package dev.hangar.dispatch.consumequeue;

import static dev.hangar.spi.format.ConsumeQueueFormat.UNIT_SIZE;

import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery and truncation of one ConsumeQueue's files: finds where the written units end after a restart, and cuts
 * (and zeroes) the units that point past a commit-log offset. It owns no offsets of its own: it reports what it
 * found and {@link ConsumeQueue} keeps its min/max offsets.
 *
 * <p>Thread-safety: only while nothing dispatches to the queue (recovery, or the dispatch thread itself truncating);
 * it moves the file queue's written, committed and flushed positions.
 */
final class ConsumeQueueRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueueRecovery.class);

    /** Recovery scans at most this many files from the end, as RocketMQ does. */
    private static final int RECOVERY_FILES = 3;

    private final String topic;
    private final int queueId;
    private final MappedFileQueue files;
    private final int fileSize;

    ConsumeQueueRecovery(String topic, int queueId, MappedFileQueue files) {
        this.topic = topic;
        this.queueId = queueId;
        this.files = files;
        this.fileSize = files.mappedFileSize();
    }

    /** Where the recovered units end (logical bytes) and where the last real one's record ends (-1: none). */
    record RecoveredEnd(long logicalEnd, long maxPhysicOffset) {
    }

    /** What a truncation kept: the end of the last kept record (-1: none), and the logical cut (-1: nothing cut). */
    record Truncation(long maxPhysicOffset, long cut) {
    }

    /**
     * Finds the end of the written units (scanning from the third-last file, stopping at the first end unit),
     * sets the flushed and committed positions there and trims everything after it; null when there are no files.
     */
    RecoveredEnd recover() {
        List<MappedFile> all = files.mappedFiles();
        if (all.isEmpty()) {
            return null;
        }
        int index = Math.max(0, all.size() - RECOVERY_FILES);
        long processOffset = all.get(index).fileFromOffset();
        long lastEnd = -1;
        for (; index < all.size(); index++) {
            MappedFile file = all.get(index);
            UnitScan scan = scanValidUnits(file, 0);
            if (scan.lastPhysicEnd >= 0) {
                lastEnd = scan.lastPhysicEnd;
            }
            processOffset = file.fileFromOffset() + scan.validBytes;
            if (scan.validBytes < fileSize) {
                break;
            }
        }
        files.setFlushedWhere(processOffset);
        files.setCommittedWhere(processOffset);
        files.truncateDirtyFiles(processOffset);
        return new RecoveredEnd(processOffset, lastEnd);
    }

    /** How far the valid units of a file reach, and where the last real one points. */
    private record UnitScan(int validBytes, long lastPhysicEnd) {
    }

    private UnitScan scanValidUnits(MappedFile file, int from) {
        int position = from;
        long lastEnd = -1;
        SelectedRegion region = file.selectMappedBuffer(from);
        if (region == null) {
            return new UnitScan(from, -1);
        }
        try (region) {
            ByteBuffer buffer = region.buffer();
            for (int p = 0; p + UNIT_SIZE <= region.size(); p += UNIT_SIZE) {
                long offset = ConsumeQueueFormat.commitLogOffset(buffer, p);
                int size = ConsumeQueueFormat.size(buffer, p);
                if (ConsumeQueueFormat.isEnd(offset, size)) {
                    break;
                }
                if (!ConsumeQueueFormat.isBlank(offset, size)) {
                    lastEnd = offset + size;
                }
                position = from + p + UNIT_SIZE;
            }
        }
        return new UnitScan(position, lastEnd);
    }

    /**
     * Drops every unit whose record does not end by {@code phyOffset}: those starting at or past it (RocketMQ's
     * truncateDirtyLogicFiles) and also a unit of a torn record that starts before it but reaches past it, which
     * RocketMQ leaves behind. The dropped bytes are zeroed, so a later recovery cannot take them for units.
     */
    Truncation truncate(long phyOffset) {
        List<MappedFile> all = files.mappedFiles();
        long cut = -1;
        long lastKeptEnd = -1;
        for (int i = all.size() - 1; i >= 0; i--) {
            MappedFile file = all.get(i);
            SelectedRegion region = file.selectMappedBuffer(0);
            if (region == null) {
                cut = file.fileFromOffset();
                continue;
            }
            int units;
            int keep;
            try (region) {
                units = region.size() / UNIT_SIZE;
                keep = ConsumeQueueUnitSearch.firstUnitEndingPast(region.buffer(), units, phyOffset);
                if (keep > 0) {
                    int last = (keep - 1) * UNIT_SIZE;
                    long offset = ConsumeQueueFormat.commitLogOffset(region.buffer(), last);
                    int size = ConsumeQueueFormat.size(region.buffer(), last);
                    if (!ConsumeQueueFormat.isBlank(offset, size)) {
                        lastKeptEnd = offset + size;
                    }
                }
            }
            if (keep < units) {
                cut = file.fileFromOffset() + (long) keep * UNIT_SIZE;
            }
            if (keep > 0) {
                break;
            }
        }
        if (cut < 0 || cut >= files.getMaxWrotePosition()) {
            return new Truncation(lastKeptEnd, -1);
        }
        cutAt(cut);
        return new Truncation(lastKeptEnd, cut);
    }

    private void cutAt(long cut) {
        MappedFile holder = files.findMappedFileByOffset(cut, false);
        int holderEnd = holder == null ? 0 : holder.wrotePosition();
        files.truncateDirtyFiles(cut);
        if (files.getFlushedWhere() > cut) {
            files.setFlushedWhere(cut);
        }
        if (files.getCommittedWhere() > cut) {
            files.setCommittedWhere(cut);
        }
        if (holder != null) {
            zeroTail(holder, (int) (cut - holder.fileFromOffset()), holderEnd);
        }
    }

    /** Overwrites [from, to) of {@code file} with zeros, forces them, and leaves the file's positions at from. */
    private void zeroTail(MappedFile file, int from, int to) {
        if (to <= from) {
            return;
        }
        file.wrotePosition(from);
        byte[] zeros = new byte[Math.min(to - from, 64 * 1024)];
        for (int p = from; p < to; ) {
            int chunk = Math.min(zeros.length, to - p);
            if (!file.appendBytes(zeros, 0, chunk)) {
                break;
            }
            p += chunk;
        }
        try {
            file.flush(0);
        } catch (IOException e) {
            LOG.warn("ConsumeQueue {}-{}: could not force the zeroed tail of {}: {}", topic, queueId, file.path(),
                    e.toString());
        }
        file.wrotePosition(from);
        file.committedPosition(from);
        file.flushedPosition(from);
    }
}
