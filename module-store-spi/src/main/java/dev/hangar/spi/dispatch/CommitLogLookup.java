package dev.hangar.spi.dispatch;

/** What a dispatcher may ask the CommitLog while answering reads. Thread-safe. */
public interface CommitLogLookup {

    /** The store timestamp of the record at {@code commitLogOffset} (size {@code size}), or -1 when gone. */
    long storeTimestampAt(long commitLogOffset, int size);

    /** The smallest commit-log offset still stored. */
    long minOffset();

    /** One past the last byte of the commit log. */
    long maxOffset();
}
