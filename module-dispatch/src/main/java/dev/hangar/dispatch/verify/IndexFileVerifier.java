package dev.hangar.dispatch.verify;

import static dev.hangar.spi.format.IndexFileFormat.ENTRY_SIZE;

import dev.hangar.spi.dispatch.DispatcherVerification;
import dev.hangar.spi.dispatch.DispatcherVerification.ReadWindow;
import dev.hangar.spi.format.IndexFileFormat;
import dev.hangar.spi.mapped.TailFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks the index files under {@code index/}, read-only: the file size ({@code 40 + slots * 4 + entries * 20}),
 * the 40-byte header (timestamps and commit-log offsets in order, slot and entry counts within the configured
 * limits) and every used entry (its commit-log offset within the header's range, its chain link pointing to an
 * earlier entry).
 *
 * <p>Not thread-safe: one verification.
 */
public final class IndexFileVerifier {
    public static final String INDEX_FILES = "indexFiles";
    public static final String INDEX_ENTRIES = "indexEntries";
    private static final int WINDOW = ENTRY_SIZE * 52_428;

    private final Path dir;
    private final int maxHashSlots;
    private final int maxEntries;
    private final DispatcherVerification report;
    /** Index files ending past the valid commit log: reported once, on the first. */
    private int pastEnd;
    private Path firstPastEnd;
    private long firstPastEndOffset;

    /** @param report the findings, and the CommitLog the entries point into */
    public IndexFileVerifier(Path dir, int maxHashSlots, int maxEntries, DispatcherVerification report) {
        this.dir = dir;
        this.maxHashSlots = maxHashSlots;
        this.maxEntries = maxEntries;
        this.report = report;
    }

    /** The header fields. */
    private record Header(long beginTimestamp, long endTimestamp, long beginPhyOffset, long endPhyOffset,
                          int hashSlotCount, int indexCount) {
    }

    /** Checks every index file; an unreadable one is reported as an error on {@code dir}. */
    public void verify() {
        try {
            verifyFiles();
        } catch (IOException e) {
            report.error(dir, -1, "cannot read the index files: " + e);
        }
    }

    private void verifyFiles() throws IOException {
        TreeMap<Long, Path> files = report.numberedFiles(dir, IndexFileFormat.FILE_NAME_LENGTH);
        long expectedSize = IndexFileFormat.fileSize(maxHashSlots, maxEntries);
        pastEnd = 0;
        for (Map.Entry<Long, Path> e : files.entrySet()) {
            Path path = e.getValue();
            long length = Files.size(path);
            if (length < expectedSize && TailFiles.allZero(path)) {
                // the index's load skips it and deletes it when it next writes
                report.warning(path, -1, length + " bytes of zeros of " + expectedSize + ": an index file whose "
                        + "creation a crash cut short; it holds no key, and the index deletes it when it next writes");
                continue;
            }
            report.count(DispatcherVerification.FILES, 1);
            report.count(INDEX_FILES, 1);
            if (length != expectedSize) {
                report.error(path, -1, "the file is " + length + " bytes but maxHashSlotNum=" + maxHashSlots
                        + " and maxIndexNum=" + maxEntries + " make " + expectedSize + " (40 + slots * 4 + entries * 20)");
            }
            if (length < IndexFileFormat.HEADER_SIZE) {
                report.error(path, 0, "the file is too short for the 40-byte header");
                continue;
            }
            try (ReadWindow w = report.window(path, WINDOW)) {
                int idx = w.ensure(0, IndexFileFormat.HEADER_SIZE);
                Header h = header(w.buffer(), idx);
                if (checkHeader(path, h) && length == expectedSize) {
                    checkEntries(path, w, h);
                }
            }
        }
        if (pastEnd > 0) {
            report.warning(firstPastEnd, IndexFileFormat.END_PHY_OFFSET_OFFSET, "header: endPhyOffset "
                    + firstPastEndOffset + " is past the end of the valid commit log (" + report.commitLogMaxOffset() + ")"
                    + (pastEnd > 1 ? ", as in " + (pastEnd - 1) + " later index files" : "")
                    + "; keys of the missing records find nothing");
        }
    }

    private static Header header(ByteBuffer b, int idx) {
        return new Header(b.getLong(idx + IndexFileFormat.BEGIN_TIMESTAMP_OFFSET),
                b.getLong(idx + IndexFileFormat.END_TIMESTAMP_OFFSET),
                b.getLong(idx + IndexFileFormat.BEGIN_PHY_OFFSET_OFFSET),
                b.getLong(idx + IndexFileFormat.END_PHY_OFFSET_OFFSET),
                b.getInt(idx + IndexFileFormat.HASH_SLOT_COUNT_OFFSET),
                b.getInt(idx + IndexFileFormat.INDEX_COUNT_OFFSET));
    }

    /** True when the header is sound enough to read the entries it describes. */
    private boolean checkHeader(Path path, Header h) {
        boolean sound = true;
        if (h.beginTimestamp() > h.endTimestamp() || h.beginTimestamp() < 0) {
            report.error(path, IndexFileFormat.BEGIN_TIMESTAMP_OFFSET, "header: beginTimestamp "
                    + h.beginTimestamp() + " is after endTimestamp " + h.endTimestamp() + " or negative");
        }
        if (h.beginPhyOffset() > h.endPhyOffset() || h.beginPhyOffset() < 0) {
            report.error(path, IndexFileFormat.BEGIN_PHY_OFFSET_OFFSET, "header: beginPhyOffset "
                    + h.beginPhyOffset() + " is after endPhyOffset " + h.endPhyOffset() + " or negative");
            sound = false;
        }
        if (h.hashSlotCount() < 0 || h.hashSlotCount() > maxHashSlots) {
            report.error(path, IndexFileFormat.HASH_SLOT_COUNT_OFFSET, "header: hashSlotCount "
                    + h.hashSlotCount() + " is outside 0.." + maxHashSlots + " (maxHashSlotNum)");
        }
        if (h.indexCount() < 0 || h.indexCount() > maxEntries) {
            report.error(path, IndexFileFormat.INDEX_COUNT_OFFSET, "header: indexCount " + h.indexCount()
                    + " is outside 0.." + maxEntries + " (maxIndexNum)");
            sound = false;
        }
        if (h.indexCount() > 1 && h.endPhyOffset() >= report.commitLogMaxOffset() && pastEnd++ == 0) {
            firstPastEnd = path;
            firstPastEndOffset = h.endPhyOffset();
        }
        return sound;
    }

    /** Entries 1 .. indexCount-1: offsets within the header's range, chains pointing backwards. */
    private void checkEntries(Path path, ReadWindow w, Header h) throws IOException {
        for (int i = 1; i < h.indexCount(); i++) {
            long pos = IndexFileFormat.entryPosition(maxHashSlots, i);
            int idx = w.ensure(pos, ENTRY_SIZE);
            ByteBuffer b = w.buffer();
            int keyHash = b.getInt(idx + IndexFileFormat.ENTRY_KEY_HASH_OFFSET);
            long phyOffset = b.getLong(idx + IndexFileFormat.ENTRY_PHY_OFFSET_OFFSET);
            int timeDiff = b.getInt(idx + IndexFileFormat.ENTRY_TIME_DIFF_OFFSET);
            int previous = b.getInt(idx + IndexFileFormat.ENTRY_PREV_INDEX_OFFSET);
            report.count(INDEX_ENTRIES, 1);
            if (keyHash < 0 || timeDiff < 0 || previous < 0 || previous >= i
                    || phyOffset < h.beginPhyOffset() || phyOffset > h.endPhyOffset()) {
                report.error(path, pos, "entry " + i + " is inconsistent: keyHash " + keyHash + ", commit-log offset "
                        + phyOffset + " (header range " + h.beginPhyOffset() + ".." + h.endPhyOffset() + "), timeDiff "
                        + timeDiff + ", previous entry " + previous + " (must be below " + i + ")");
            }
        }
    }
}
