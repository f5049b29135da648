package dev.hangar.store.reput;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import java.nio.ByteBuffer;

/**
 * The CommitLog bytes one pass of a {@link CommitLogCursor} reads: the file holding an offset, held from
 * {@link #open} to {@link #close} (so retention cannot unmap it under the reader), seen through a whole-file view
 * that is made once per file and kept ({@link MappedFile#wholeFileReadView()}). A pass of the reput loop may carry
 * a single record (one writer, sync puts), so a region and a buffer slice per pass were ~100 B per record.
 * A provider without a stable view gets the per-pass region as before.
 *
 * <p>Not thread-safe: one cursor, one reading thread.
 */
final class HeldFileWindow {
    private final MappedFileQueue files;
    /** The file whose view is kept, and the view (absolute file positions). */
    private MappedFile viewFile;
    private ByteBuffer view;
    // the pass under way
    private MappedFile held;
    private SelectedRegion region;
    private ByteBuffer buffer;
    private int start;
    private int limit;
    private long bufferOffset;

    HeldFileWindow(MappedFileQueue files) {
        this.files = files;
    }

    /**
     * Holds the file of {@code offset} for a pass; false when there is nothing to read there (no such file, it is
     * being deleted, or nothing readable at that position yet). Every true must be followed by {@link #close()}.
     */
    boolean open(long offset) {
        MappedFile file = files.findMappedFileByOffset(offset, offset == 0);
        if (file == null) {
            return false;
        }
        int position = (int) (offset % files.mappedFileSize());
        if (file != viewFile) {
            viewFile = file;
            view = file.wholeFileReadView();
        }
        if (view == null) {
            return openRegion(file, position);
        }
        if (!file.hold()) {
            return false;
        }
        int readable = file.readPosition();
        if (position < 0 || position >= readable) {
            file.release();
            return false;
        }
        held = file;
        buffer = view;
        start = position;
        limit = readable;
        bufferOffset = file.fileFromOffset();
        return true;
    }

    private boolean openRegion(MappedFile file, int position) {
        if (position < 0) {
            return false;
        }
        region = file.selectMappedBuffer(position);
        if (region == null) {
            return false;
        }
        buffer = region.buffer();
        start = 0;
        limit = region.size();
        bufferOffset = region.startOffset();
        return true;
    }

    /** The buffer to scan, from {@link #start()} (inclusive) to {@link #limit()} (exclusive, readable end). */
    ByteBuffer buffer() {
        return buffer;
    }

    int start() {
        return start;
    }

    int limit() {
        return limit;
    }

    /** The commit-log offset of the buffer's index 0. */
    long bufferOffset() {
        return bufferOffset;
    }

    /** Lets go of the file of the pass. */
    void close() {
        if (held != null) {
            held.release();
            held = null;
        } else if (region != null) {
            region.close();
            region = null;
        }
        buffer = null;
    }
}
