package dev.hangar.mmap.file;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue the {@link CommitLogPretoucher} watches, and how far its newest file is touched: written by the pretouch
 * thread, read by any. Also the pretouch thread's per-queue state: the page cache given back, the huge-page track,
 * and the read-ahead channels of the newest file and the next one.
 */
final class PretouchedQueue {
    private static final Logger LOG = LoggerFactory.getLogger(PretouchedQueue.class);

    final MappedFileQueue queue;
    volatile MappedFile file;
    volatile int touchedEnd;
    /** The queue offset up to which its page cache was given back (-1: not started); pretouch thread only. */
    long droppedUpTo = -1;
    /** The write rate and page-size decisions (pretouch thread only). */
    final HugePageRegions.Track track = new HugePageRegions.Track();
    /** The newest file's reader, and the next file's (its head); used by the pretouch thread only. */
    PageCacheReadAhead current = new PageCacheReadAhead();
    PageCacheReadAhead next = new PageCacheReadAhead();
    /** The newest file last asked about, and the path of the file after it (pretouch thread only). */
    private MappedFile nextOf;
    private Path nextPath;

    PretouchedQueue(MappedFileQueue queue) {
        this.queue = queue;
    }

    /**
     * The path of the file after {@code file}, made once per file: the read steps ask for it every millisecond
     * while the writer nears the end, and a step should allocate nothing.
     */
    Path nextPathOf(DefaultMappedFile file) {
        if (nextOf != file) {
            nextOf = file;
            nextPath = file.path().resolveSibling(MappedFileNames.of(file.fileFromOffset() + file.fileSize()));
        }
        return nextPath;
    }

    void closeReaders() {
        try {
            current.close();
        } catch (IOException e) {
            LOG.debug("closing a read-ahead channel: {}", e.toString());
        }
        try {
            next.close();
        } catch (IOException e) {
            LOG.debug("closing a read-ahead channel: {}", e.toString());
        }
    }
}
