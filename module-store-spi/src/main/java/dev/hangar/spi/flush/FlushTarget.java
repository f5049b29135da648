package dev.hangar.spi.flush;

import java.io.IOException;

/**
 * The CommitLog as a flush service sees it: its positions and the two operations that move them.
 * Backed by the CommitLog's {@link dev.hangar.spi.mapped.MappedFileQueue}.
 */
public interface FlushTarget {

    /** Forces dirty pages (at least {@code leastPages}, 0 = any). True when nothing was flushed. */
    boolean flush(int leastPages) throws IOException;

    /** Commits the write buffer to the file channel (at least {@code leastPages}). True when nothing was committed. */
    boolean commit(int leastPages) throws IOException;

    long flushedWhere();

    long committedWhere();

    /** One past the last byte appended. */
    long maxWrotePosition();

    /** Store timestamp of the newest appended record, read before a flush to stamp the checkpoint after it. */
    long storeTimestamp();
}
