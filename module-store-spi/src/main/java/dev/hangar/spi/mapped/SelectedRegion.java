package dev.hangar.spi.mapped;

import java.nio.ByteBuffer;

/**
 * A readable region of a mapped file, holding a reference on it so it is not unmapped while read.
 * Close it (exactly once) when done.
 *
 * @param startOffset global offset (file start + position) of the region's first byte
 * @param buffer      the bytes, position 0, limit = size; a view on the mapping, not a copy
 * @param size        number of readable bytes
 */
public record SelectedRegion(long startOffset, ByteBuffer buffer, int size, MappedFile file) implements AutoCloseable {

    @Override
    public void close() {
        file.release();
    }
}
