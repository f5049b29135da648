package dev.hangar.spi.mapped;

import dev.hangar.spi.store.AppendMessageResult;
import java.nio.ByteBuffer;

/**
 * Writes one record (or batch) into a mapped file. Called by {@link MappedFile#append(AppendCallback)} under
 * the put lock.
 */
@FunctionalInterface
public interface AppendCallback {

    /**
     * @param fileFromOffset commit-log offset of the file's first byte
     * @param target         the file's write buffer, positioned at the write position, limit = file size;
     *                       write relative from the position. Do not keep it.
     * @param maxBlank       bytes left in the file ({@code target.remaining()})
     * @return what was written; {@code wroteBytes} is how far the write position advances
     */
    AppendMessageResult doAppend(long fileFromOffset, ByteBuffer target, int maxBlank);
}
