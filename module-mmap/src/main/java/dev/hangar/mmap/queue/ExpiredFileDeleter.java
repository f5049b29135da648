package dev.hangar.mmap.queue;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.SelectedRegion;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention at the head of a {@link DefaultMappedFileQueue}: deletes old files by age or by the commit-log offset
 * their last unit points to, oldest first, never the newest file, and never past the first file that must stay
 * (deleting from the middle would leave a hole in the log). A file still held by a reader is not deleted until
 * the reader releases it or the forcible interval has passed.
 *
 * <p>Not thread-safe on its own: the queue calls it under its monitor. Files are removed from the queue's list
 * as soon as they are deleted, so readers stop finding them at once.
 */
final class ExpiredFileDeleter {
    private static final Logger LOG = LoggerFactory.getLogger(ExpiredFileDeleter.class);
    /** How long a ConsumeQueue file that is still read may delay its deletion. */
    static final long CONSUME_QUEUE_DESTROY_INTERVAL = 60_000;
    /** How long a file past a truncation point may delay its deletion (recovery: nobody reads yet). */
    static final long TRUNCATE_DESTROY_INTERVAL = 1000;
    /** How long a file may delay the destruction of its whole queue. */
    static final long QUEUE_DESTROY_INTERVAL = 3000;
    /** Where in a unit the commit-log offset it points to starts (a long, as in a ConsumeQueue unit). */
    static final int UNIT_COMMIT_LOG_OFFSET_POSITION = 0;

    private final DefaultMappedFileQueue queue;
    private final List<MappedFile> mappedFiles;

    ExpiredFileDeleter(DefaultMappedFileQueue queue, List<MappedFile> mappedFiles) {
        this.queue = queue;
        this.mappedFiles = mappedFiles;
    }

    int deleteByTime(long expiredTimeMs, int deleteFilesIntervalMs, long intervalForcibly, boolean cleanImmediately,
                     int maxBatch) {
        if (maxBatch <= 0) {
            throw new IllegalArgumentException("maxBatch must be positive: " + maxBatch);
        }
        MappedFile[] files = mappedFiles.toArray(new MappedFile[0]);
        int candidates = files.length - 1;
        int deleted = 0;
        for (int i = 0; i < candidates; i++) {
            MappedFile file = files[i];
            long age = System.currentTimeMillis() - file.lastModifiedTimestamp();
            if (age < expiredTimeMs && !cleanImmediately) {
                break;
            }
            if (!file.destroy(intervalForcibly)) {
                break;
            }
            mappedFiles.remove(file);
            deleted++;
            if (deleted >= maxBatch) {
                break;
            }
            if (deleteFilesIntervalMs > 0 && i + 1 < candidates && !pause(deleteFilesIntervalMs)) {
                break;
            }
        }
        return deleted;
    }

    int deleteByOffset(long offset, int unitSize) {
        int fileSize = queue.mappedFileSize();
        if (unitSize < Long.BYTES || unitSize > fileSize) {
            throw new IllegalArgumentException("unit size " + unitSize + " must hold a long and fit the "
                    + fileSize + "-byte files");
        }
        MappedFile[] files = mappedFiles.toArray(new MappedFile[0]);
        int deleted = 0;
        for (int i = 0; i < files.length - 1; i++) {
            MappedFile file = files[i];
            boolean expired;
            SelectedRegion lastUnit = file.selectMappedBuffer(fileSize - unitSize);
            if (lastUnit != null) {
                try {
                    expired = lastUnit.buffer().getLong(UNIT_COMMIT_LOG_OFFSET_POSITION) < offset;
                } finally {
                    lastUnit.close();
                }
            } else if (!file.isAvailable()) {
                LOG.warn("found {} shut down but not deleted; deleting it now", file.path());
                expired = true;
            } else {
                LOG.warn("{} is not the newest file but its last unit is not written; stopping deletion there",
                        file.path());
                break;
            }
            if (!expired || !file.destroy(CONSUME_QUEUE_DESTROY_INTERVAL)) {
                break;
            }
            mappedFiles.remove(file);
            deleted++;
        }
        return deleted;
    }

    boolean retryDeleteFirstFile(long intervalForcibly) {
        MappedFile first = queue.getFirstMappedFile();
        if (first == null || first.isAvailable()) {
            return false;
        }
        LOG.warn("retrying to delete {}, left in place by an earlier deletion", first.path());
        boolean destroyed = first.destroy(intervalForcibly);
        if (destroyed) {
            mappedFiles.remove(first);
        } else {
            LOG.warn("{} still could not be deleted", first.path());
        }
        return destroyed;
    }

    /** Sleeps between two deletions so the disk is not flooded; false when interrupted. */
    private static boolean pause(int millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
