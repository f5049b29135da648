package dev.hangar.store.recovery;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.store.commitlog.TopicQueueOffsets;
import dev.hangar.store.offsets.OffsetRecordFormat;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.CommitLogScanner;
import dev.hangar.store.format.RecordDecoder;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the end of the CommitLog after a restart, as RocketMQ does: after a clean shutdown scan from the
 * third-last file; after a crash walk back to the newest file whose first record is older than the checkpoint
 * and scan from there. The first invalid record (bad magic, lengths that do not add up, CRC mismatch) ends the
 * log: the file holding it is trimmed and later files are removed. Queue offsets seen while scanning are
 * raised in {@link TopicQueueOffsets}.
 */
public final class CommitLogRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogRecovery.class);
    private static final int NORMAL_RECOVERY_FILES = 3;
    private static final long PROGRESS_LOG_MILLIS = 2000;

    private final MappedFileQueue queue;
    private final boolean checkCrc;
    private final QueueProbe consumeQueues;
    private final boolean readOnly;
    private long firstMissing = Long.MAX_VALUE;

    /** How far a ConsumeQueue reaches, so the scan notices records whose unit is missing. */
    @FunctionalInterface
    public interface QueueProbe {
        /** One past the last unit of the queue, 0 when unknown. */
        long maxOffset(String topic, int queueId);
    }

    /**
     * @param consumeQueues the ConsumeQueues' reach, or null when there are none; a scanned record its queue lacks
     *                      (e.g. a deleted ConsumeQueue file) makes dispatch start again at that record
     */
    public CommitLogRecovery(MappedFileQueue queue, boolean checkCrc, QueueProbe consumeQueues) {
        this(queue, checkCrc, consumeQueues, false);
    }

    /**
     * @param readOnly true to find the end without changing anything: positions are set in memory only, no byte is
     *                 zeroed and no file is removed (a read-only open of a cleanly shut down store)
     */
    public CommitLogRecovery(MappedFileQueue queue, boolean checkCrc, QueueProbe consumeQueues, boolean readOnly) {
        this.queue = queue;
        this.checkCrc = checkCrc;
        this.consumeQueues = consumeQueues;
        this.readOnly = readOnly;
    }

    /**
     * @param lastExitOk       false after a crash
     * @param checkpointMinTs  the checkpoint's minimum timestamp (used after a crash)
     * @param offsets          raised with every queue offset found
     */
    public RecoveryReport recover(boolean lastExitOk, long checkpointMinTs, TopicQueueOffsets offsets) {
        return recover(lastExitOk, checkpointMinTs, Long.MAX_VALUE, offsets);
    }

    /**
     * @param dispatchedHint after a clean shutdown, the offset every dispatcher holds durably: the scan starts at
     *                       the file holding it (at most three files back), so a clean restart reads one file
     *                       however large the store
     */
    public RecoveryReport recover(boolean lastExitOk, long checkpointMinTs, long dispatchedHint,
                                  TopicQueueOffsets offsets) {
        long begin = System.currentTimeMillis();
        List<MappedFile> files = queue.mappedFiles();
        if (files.isEmpty()) {
            queue.setFlushedWhere(0);
            queue.setCommittedWhere(0);
            return new RecoveryReport(!lastExitOk, 0, 0, 0, 0, null, 0, 0, 0, 0, System.currentTimeMillis() - begin);
        }
        int startIndex = lastExitOk ? normalStartIndex(files, dispatchedHint)
                : abnormalStartIndex(files, checkpointMinTs);
        long scanStart = files.get(startIndex).fileFromOffset();
        long processOffset = scanStart;
        long messages = 0;
        int scanned = 0;
        String reason = null;
        long lastProgress = begin;
        scan:
        for (int i = startIndex; i < files.size(); i++) {
            MappedFile file = files.get(i);
            if (file.fileFromOffset() != processOffset) {
                reason = "file " + file.fileName() + " does not follow on from offset " + processOffset;
                break;
            }
            scanned++;
            long now = System.currentTimeMillis();
            if (now - lastProgress > PROGRESS_LOG_MILLIS) {
                lastProgress = now;
                LOG.info("recovery: scanning file {} of {}, {} messages so far, at offset {}", scanned,
                        files.size() - startIndex, messages, processOffset);
            }
            try (SelectedRegion region = file.selectMappedBuffer(0)) {
                if (region == null) {
                    break;
                }
                long fileFrom = file.fileFromOffset();
                CommitLogScanner.Result r = CommitLogScanner.scan(region.buffer(), 0, region.size(), checkCrc,
                        Long.MAX_VALUE, (buf, index, size) -> {
                            raise(buf, index, fileFrom + index, offsets);
                            return true;
                        });
                messages += r.records();
                processOffset = fileFrom + r.index();
                switch (r.stop()) {
                    case BLANK -> processOffset = fileFrom + file.fileSize();
                    // a record cut by the end of its file is as torn as any other invalid one
                    case INVALID, CUT -> {
                        reason = "invalid record at offset " + processOffset + " in " + file.fileName() + ": "
                                + r.reason();
                        break scan;
                    }
                    default -> {
                        break scan;
                    }
                }
            }
        }
        int before = queue.mappedFiles().size();
        queue.setFlushedWhere(processOffset);
        queue.setCommittedWhere(processOffset);
        if (readOnly) {
            endInMemory(processOffset);
        } else {
            long zeroed = zeroTornTail(processOffset);
            if (zeroed > 0) {
                LOG.warn("recovery: zeroed {} bytes of a torn record after the log end {}", zeroed, processOffset);
            }
            queue.truncateDirtyFiles(processOffset);
        }
        int dropped = before - queue.mappedFiles().size();
        if (reason != null) {
            LOG.warn("recovery: the commit log ends at {}: {}; everything after it was truncated", processOffset, reason);
        }
        return new RecoveryReport(!lastExitOk, scanned, messages, scanStart, processOffset, reason, dropped,
                Math.min(firstMissing, processOffset), 0, 0, System.currentTimeMillis() - begin);
    }

    /**
     * Zeroes what a crash left after the log end in the file holding it (a torn record), so nothing past the end can
     * be read as a record later and {@code verify} finds no damage in a store that was recovered and shut down
     * cleanly. Only the torn bytes are touched: the record the end points at (when its length field is plausible)
     * and then page after page until the first page that is already clean. The rest of the file, a gigabyte of
     * never-written pages in a small store, is neither read nor written. Returns the bytes zeroed.
     */
    private long zeroTornTail(long end) {
        MappedFile file = queue.findMappedFileByOffset(end, false);
        if (file == null) {
            return 0;
        }
        try (SelectedRegion region = file.selectMappedBuffer((int) (end - file.fileFromOffset()))) {
            if (region == null) {
                return 0;
            }
            return TornTail.zero(region.buffer(), region.size(), (int) (end % TornTail.PAGE));
        }
    }

    /**
     * The read-only counterpart of {@code truncateDirtyFiles}: the file holding the end is positioned there, in
     * memory only. Files wholly past the end cannot be dropped without deleting them, so they make the open fail:
     * only a writer may recover such a store.
     */
    private void endInMemory(long end) {
        for (MappedFile file : queue.mappedFiles()) {
            long from = file.fileFromOffset();
            if (from + queue.mappedFileSize() <= end) {
                continue;
            }
            if (end < from) {
                throw new StoreNeedsRecoveryException("commit-log file " + file.fileName() + " lies past the log end "
                        + end);
            }
            int position = (int) (end - from);
            file.wrotePosition(position);
            file.committedPosition(position);
            file.flushedPosition(position);
        }
    }

    /** The file holding {@code hint}, but no more than three files back (RocketMQ scans the last three). */
    private static int normalStartIndex(List<MappedFile> files, long hint) {
        int start = Math.max(0, files.size() - NORMAL_RECOVERY_FILES);
        for (int i = files.size() - 1; i > start; i--) {
            if (files.get(i).fileFromOffset() <= hint) {
                return i;
            }
        }
        return start;
    }

    /** The newest file whose first record is stored at or before the checkpoint, else the first file. */
    private int abnormalStartIndex(List<MappedFile> files, long checkpointMinTs) {
        for (int i = files.size() - 1; i >= 0; i--) {
            long firstTs = firstStoreTimestamp(files.get(i));
            if (firstTs != 0 && firstTs <= checkpointMinTs) {
                LOG.info("recovery after a crash starts at file {} (first record {} <= checkpoint {})",
                        files.get(i).fileName(), firstTs, checkpointMinTs);
                return i;
            }
        }
        return 0;
    }

    private static long firstStoreTimestamp(MappedFile file) {
        try (SelectedRegion region = file.selectMappedBuffer(0)) {
            if (region == null || region.size() < CommitLogRecordFormat.BORN_HOST_OFFSET + 40) {
                return 0;
            }
            if (region.buffer().getInt(CommitLogRecordFormat.MAGIC_CODE_OFFSET) != CommitLogRecordFormat.MESSAGE_MAGIC_CODE) {
                return 0;
            }
            return RecordDecoder.storeTimestamp(region.buffer(), 0);
        }
    }

    private void raise(ByteBuffer buf, int pos, long phyOffset, TopicQueueOffsets offsets) {
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        if (!MessageSysFlag.takesQueueOffset(sysFlag)) {
            return;
        }
        String topic = RecordDecoder.topic(buf, pos);
        if (OffsetRecordFormat.isInternal(topic)) {
            // a topic's deletion: its queues counted again from 0 after it, in the log as they did when it was put
            String deleted = OffsetRecordFormat.deletedTopic(RecordDecoder.toDispatchRequest(buf, pos));
            if (deleted != null) {
                offsets.forget(deleted);
            }
        }
        int queueId = buf.getInt(pos + CommitLogRecordFormat.QUEUE_ID_OFFSET);
        long queueOffset = buf.getLong(pos + CommitLogRecordFormat.QUEUE_OFFSET_OFFSET);
        offsets.raise(topic, queueId, queueOffset + 1);
        if (consumeQueues != null && phyOffset < firstMissing && consumeQueues.maxOffset(topic, queueId) <= queueOffset) {
            firstMissing = phyOffset;
        }
    }
}
