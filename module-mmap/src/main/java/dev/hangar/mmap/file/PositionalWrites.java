package dev.hangar.mmap.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * The commit of a write buffer: bytes {@code [from, to)} of a buffer that mirrors the file are written at the same
 * positions of the file ({@code pwrite}), until all are written. Shared by {@link PooledMappedFile} and
 * {@link CopyOnWriteMappedFile}, whose commits differ only in what they do afterwards.
 */
final class PositionalWrites {
    private PositionalWrites() {
    }

    /**
     * @param channel the file's channel, or null once the file is shut down
     * @param mirror  a view of the buffer reserved for the committing thread (its position and limit are changed)
     * @throws ClosedChannelException when {@code channel} is null
     */
    static void writeRange(FileChannel channel, ByteBuffer mirror, int from, int to) throws IOException {
        if (channel == null) {
            throw new ClosedChannelException();
        }
        mirror.clear().position(from).limit(to);
        long filePosition = from;
        while (mirror.hasRemaining()) {
            filePosition += channel.write(mirror, filePosition);
        }
    }
}
