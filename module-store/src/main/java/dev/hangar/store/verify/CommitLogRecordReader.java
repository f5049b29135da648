package dev.hangar.store.verify;

import dev.hangar.spi.dispatch.DispatcherVerification.RecordHeader;
import dev.hangar.store.format.CommitLogRecordFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the header fields and topic of the record at a CommitLog offset with positional reads, so ConsumeQueue
 * units can be checked against what they point at. Keeps a few read-only channels open.
 *
 * <p>Not thread-safe: one verification.
 */
final class CommitLogRecordReader implements AutoCloseable {
    private static final int OPEN_CHANNELS = 16;
    /** Enough for every fixed field up to and including the body length, with IPv6 hosts. */
    private static final int HEADER_READ = 128;
    private static final int TOPIC_READ = 1 + CommitLogRecordFormat.MAX_TOPIC_LENGTH;

    private final CommitLogExtent extent;
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_READ);
    private final ByteBuffer topic = ByteBuffer.allocate(TOPIC_READ);
    private final Map<Long, FileChannel> channels = new LinkedHashMap<>(OPEN_CHANNELS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, FileChannel> eldest) {
            if (size() > OPEN_CHANNELS) {
                closeQuietly(eldest.getValue());
                return true;
            }
            return false;
        }
    };

    CommitLogRecordReader(CommitLogExtent extent) {
        this.extent = extent;
    }

    /** The record at {@code offset}, or null when no file holds it or its header cannot be read. */
    RecordHeader read(long offset) throws IOException {
        Map.Entry<Long, Path> file = extent.fileHolding(offset);
        if (file == null) {
            return null;
        }
        FileChannel ch = channel(file.getKey(), file.getValue());
        long pos = offset - file.getKey();
        if (readFully(ch, header, pos) < CommitLogRecordFormat.BORN_TIMESTAMP_OFFSET) {
            return null;
        }
        int total = header.getInt(CommitLogRecordFormat.TOTAL_SIZE_OFFSET);
        int magic = header.getInt(CommitLogRecordFormat.MAGIC_CODE_OFFSET);
        int sysFlag = header.getInt(CommitLogRecordFormat.SYS_FLAG_OFFSET);
        int bodyLengthAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        String topicName = null;
        if (header.limit() >= bodyLengthAt + 4) {
            int bodyLength = header.getInt(bodyLengthAt);
            // a damaged length must not overflow the offset arithmetic
            boolean bodyFits = bodyLength >= 0 && bodyLength < total;
            long topicAt = bodyFits ? CommitLogRecordFormat.topicLengthOffset(sysFlag, bodyLength) : -1;
            if (bodyFits && topicAt > 0 && topicAt + 1 < total && readFully(ch, topic, pos + topicAt) > 0) {
                int topicLength = topic.get(0);
                if (topicLength > 0 && topicLength < topic.limit() && topicAt + 1 + topicLength <= total) {
                    topicName = new String(topic.array(), 1, topicLength, StandardCharsets.UTF_8);
                }
            }
        }
        return new RecordHeader(total, magic, magic == CommitLogRecordFormat.MESSAGE_MAGIC_CODE,
                header.getInt(CommitLogRecordFormat.QUEUE_ID_OFFSET),
                header.getLong(CommitLogRecordFormat.QUEUE_OFFSET_OFFSET),
                header.getLong(CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET), topicName);
    }

    private FileChannel channel(long start, Path path) throws IOException {
        FileChannel ch = channels.get(start);
        if (ch == null) {
            ch = FileChannel.open(path, StandardOpenOption.READ);
            channels.put(start, ch);
        }
        return ch;
    }

    /** Reads up to the buffer's capacity at {@code position}; the buffer's limit is set to what was read. */
    private static int readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        buf.clear();
        long at = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, at);
            if (n < 0) {
                break;
            }
            at += n;
        }
        buf.flip();
        return buf.limit();
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // read-only channel: nothing to lose
        }
    }

    @Override
    public void close() {
        channels.values().forEach(CommitLogRecordReader::closeQuietly);
        channels.clear();
    }
}
