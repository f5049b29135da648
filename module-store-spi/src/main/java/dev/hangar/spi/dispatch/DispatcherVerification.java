package dev.hangar.spi.dispatch;

import dev.hangar.spi.config.StoreConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a dispatcher's offline check ({@link CommitLogDispatcherProvider#verify}) reads and reports to: the store
 * directory, its configuration, the CommitLog as the engine's own walk found it, and the findings of
 * {@code store-launcher verify}. Everything is read-only: a check opens its files for reading and writes nothing.
 *
 * <p>Not thread-safe: one verification, on one thread.
 */
public interface DispatcherVerification {
    /** Count of files checked (all kinds). */
    String FILES = "files";
    /** Count of queue units checked (all queues). */
    String UNITS = "units";

    /** The store directory. */
    Path storeRoot();

    /** The configuration the store was written with (file sizes, index geometry). */
    StoreConfig config();

    /** Damage: recovery would lose or drop something. {@code offset} is the byte in {@code file}, -1 for the file. */
    void error(Path file, long offset, String message);

    /** Something odd that loses nothing. */
    void warning(Path file, long offset, String message);

    /** For the operator's information only. */
    void info(Path file, long offset, String message);

    /** Adds {@code delta} to the named count of the report. */
    void count(String name, long delta);

    /** Start of the first CommitLog file, -1 without files. */
    long commitLogMinOffset();

    /** One past the last valid record of the CommitLog: where recovery would end it. */
    long commitLogMaxOffset();

    /** One past the last valid record of the CommitLog file holding {@code offset}, -1 when none holds it. */
    long validEndOfFileHolding(long offset);

    /** The header of the record at a CommitLog offset, or null when no file holds it or it cannot be read. */
    RecordHeader record(long offset) throws IOException;

    /**
     * The files of {@code dir} named by {@code digits} decimal digits, by number; anything else there is reported
     * as a warning. Empty when {@code dir} does not exist.
     */
    TreeMap<Long, Path> numberedFiles(Path dir, int digits) throws IOException;

    /** Reports gaps and overlaps between numbered files of {@code fileSize} bytes ({@code what} names them). */
    void checkContiguous(Map<Long, Path> files, long fileSize, String what);

    /** A read-only window of at most {@code capacity} bytes over {@code file}; close it. */
    ReadWindow window(Path file, int capacity) throws IOException;

    /**
     * The fields a queue unit must agree with.
     *
     * @param messageStart the magic code is a message's (else {@code magic} is what was found)
     * @param topic        null when it cannot be read
     */
    record RecordHeader(int totalSize, int magic, boolean messageStart, int queueId, long queueOffset,
                        long physicalOffset, String topic) {
    }

    /** Positional reads of a file into one reusable buffer, without mapping it. */
    interface ReadWindow extends AutoCloseable {
        long size();

        /** The buffer holding the window; valid until the next {@link #ensure}. */
        ByteBuffer buffer();

        /** Makes {@code [position, position + needed)} readable and returns the buffer index of {@code position}. */
        int ensure(long position, int needed) throws IOException;

        /** Bytes readable in the window from {@code position}. */
        int available(long position);

        /** The first position at or after {@code from} holding a non-zero byte, or -1. */
        long firstNonZero(long from) throws IOException;

        @Override
        void close() throws IOException;
    }
}
