package dev.hangar.store.verify;

import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Where the CommitLog's valid data lies, as the walk found it: the files by start offset, and per file the
 * absolute offset where its valid records end. Immutable after the walk.
 *
 * @param files      CommitLog files by start offset
 * @param validEnds  per file start offset: the absolute offset one past its last valid record
 * @param minOffset  start of the first file, -1 without files
 * @param maxOffset  one past the last valid record of the log: where recovery would end it
 */
record CommitLogExtent(NavigableMap<Long, Path> files, NavigableMap<Long, Long> validEnds, long minOffset,
                       long maxOffset) {

    /** The file holding {@code offset}, or null. */
    Map.Entry<Long, Path> fileHolding(long offset) {
        return files.floorEntry(offset);
    }

    /** One past the last valid record of the file holding {@code offset}, or -1. */
    long validEndOfFileHolding(long offset) {
        Map.Entry<Long, Long> e = validEnds.floorEntry(offset);
        return e == null ? -1 : e.getValue();
    }
}
