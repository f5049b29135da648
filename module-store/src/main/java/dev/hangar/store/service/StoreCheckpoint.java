package dev.hangar.store.service;

import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import dev.hangar.spi.flush.MemoryCheckpoint;
import dev.hangar.store.format.CheckpointFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The {@code checkpoint} file ({@link CheckpointFormat}). Setters only change memory; {@link #flush()} writes the
 * three longs at their offsets and forces them. Written through the channel rather than a mapping: it is one
 * page, written every few seconds, and this keeps the engine free of unmapping.
 */
public final class StoreCheckpoint extends MemoryCheckpoint implements AutoCloseable {
    private final FileChannel channel;
    private final Path file;
    private final boolean readOnly;
    /** The logics timestamp in the file: read at open, then what {@link #flushWith} last wrote. */
    private long writtenLogicsTimestamp;

    public StoreCheckpoint(Path file) {
        this(file, false);
    }

    /**
     * @param readOnly true to only read the file (a read-only open): nothing is created, extended or written, and
     *                 {@link #flush()} does nothing; a missing file reads as zeros
     */
    public StoreCheckpoint(Path file, boolean readOnly) {
        this.file = file;
        this.readOnly = readOnly;
        try {
            boolean existed = file.toFile().exists();
            if (readOnly) {
                channel = existed ? FileChannel.open(file, StandardOpenOption.READ) : null;
                if (channel != null && channel.size() >= CheckpointFormat.USED_LENGTH) {
                    ByteBuffer b = ByteBuffer.allocate(CheckpointFormat.USED_LENGTH);
                    channel.read(b, 0);
                    physicMsgTimestamp(b.getLong(CheckpointFormat.PHYSIC_MSG_TIMESTAMP_OFFSET));
                    logicsMsgTimestamp(b.getLong(CheckpointFormat.LOGICS_MSG_TIMESTAMP_OFFSET));
                    indexMsgTimestamp(b.getLong(CheckpointFormat.INDEX_MSG_TIMESTAMP_OFFSET));
                }
                return;
            }
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (existed && channel.size() >= CheckpointFormat.USED_LENGTH) {
                ByteBuffer b = ByteBuffer.allocate(CheckpointFormat.USED_LENGTH);
                channel.read(b, 0);
                physicMsgTimestamp(b.getLong(CheckpointFormat.PHYSIC_MSG_TIMESTAMP_OFFSET));
                logicsMsgTimestamp(b.getLong(CheckpointFormat.LOGICS_MSG_TIMESTAMP_OFFSET));
                indexMsgTimestamp(b.getLong(CheckpointFormat.INDEX_MSG_TIMESTAMP_OFFSET));
                writtenLogicsTimestamp = logicsMsgTimestamp();
            }
            if (channel.size() < CheckpointFormat.FILE_SIZE) {
                channel.write(ByteBuffer.allocate(1), CheckpointFormat.FILE_SIZE - 1);
            }
            if (!existed) {
                // its name on the disk before any flush claims it: a lost checkpoint makes recovery start from 0
                DurableFiles.forceCreation(file, List.of());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open checkpoint " + file, e);
        }
    }

    /** Where crash recovery starts: min(physic, logics) - 3 s, never below 0. */
    public long minTimestamp() {
        return Math.max(0, Math.min(physicMsgTimestamp(), logicsMsgTimestamp()) - CheckpointFormat.RECOVERY_MARGIN_MILLIS);
    }

    /** {@link #minTimestamp()} also bounded by the index timestamp (messageIndexSafe). */
    public long minTimestampIndex() {
        return Math.min(minTimestamp(), indexMsgTimestamp());
    }

    /**
     * Writes the checkpoint with the logics timestamp last written by {@link #flushWith}: the in-memory one moves with
     * every dispatched unit, ahead of the ConsumeQueue flush, so a flush for another reason (an index file that
     * rolls) must not claim units that may still be only in memory, or in ConsumeQueue files whose names a power cut
     * can take away.
     */
    @Override
    public synchronized void flush() {
        flushWith(writtenLogicsTimestamp);
    }

    /** Writes the checkpoint with an explicit logics timestamp: the one captured before the ConsumeQueues were flushed. */
    public synchronized void flushWith(long logicsTimestamp) {
        if (readOnly) {
            return;
        }
        writtenLogicsTimestamp = logicsTimestamp;
        ByteBuffer b = ByteBuffer.allocate(CheckpointFormat.USED_LENGTH);
        b.putLong(CheckpointFormat.PHYSIC_MSG_TIMESTAMP_OFFSET, physicMsgTimestamp());
        b.putLong(CheckpointFormat.LOGICS_MSG_TIMESTAMP_OFFSET, logicsTimestamp);
        b.putLong(CheckpointFormat.INDEX_MSG_TIMESTAMP_OFFSET, indexMsgTimestamp());
        try {
            channel.write(b, 0);
            channel.force(false);
            ForceEvents.fileForced(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the checkpoint", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (channel != null && channel.isOpen()) {
                flush();
                channel.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the checkpoint", e);
        }
    }
}
