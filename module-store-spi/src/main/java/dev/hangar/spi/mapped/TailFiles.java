package dev.hangar.spi.mapped;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells files a power cut left unwritten at the end of a log of equally sized files from damage. One rule, used by
 * every queue's load and by {@code verify}, so the two always say the same:
 *
 * <ul>
 *   <li>A file shorter than the configured size (empty included) whose bytes are all zero, with no file holding data
 *   after it, was never written: its length or its name reached the disk, its data never did. Loading sets it aside
 *   (a writer creates it anew when it gets there).</li>
 *   <li>The first short file that holds data, with nothing but never-written files after it, is after a crash the
 *   newest file whose length did not reach the disk in full: loading extends it to the configured size, keeping its
 *   bytes, and recovery keeps its valid records and cuts the rest. After a clean shutdown it is refused (files
 *   written with another mapped file size look the same).</li>
 *   <li>A short file followed by a file holding data (a whole file, or a short one with data) is damage in the middle
 *   of the log: nothing is guessed, the store refuses to start and names both files.</li>
 * </ul>
 * Files of the configured size, or longer, are not this class's business.
 */
public final class TailFiles {

    /**
     * @param neverWritten short, all-zero files at the end, oldest first
     * @param shortNewest  the short file holding data to extend, or null
     * @param damage       a short file followed by one holding data: a message naming both, or null
     * @param lengths      each file's length as read for the verdict (one {@code stat} per file at load)
     */
    public record Verdict(List<Path> neverWritten, Path shortNewest, String damage, Map<Path, Long> lengths) {

        /** The length of {@code file} as the verdict read it. */
        public long length(Path file) {
            return lengths.get(file);
        }

        /** True when every file but the never-written ones can be loaded as it is (after extending shortNewest). */
        public boolean loadable() {
            return damage == null;
        }

        /** Whether {@code file} is one to skip (set aside). */
        public boolean isNeverWritten(Path file) {
            return neverWritten.contains(file);
        }
    }

    private TailFiles() {
    }

    /**
     * @param files          the log's files, oldest (lowest name) first
     * @param configuredSize the size every file of the log has
     */
    public static Verdict classify(List<Path> files, long configuredSize) throws IOException {
        List<Path> neverWritten = new ArrayList<>();
        Map<Path, Long> lengths = new HashMap<>();
        for (Path file : files) {
            lengths.put(file, Files.size(file));
        }
        Path shortNewest = null;
        Path firstShort = null;
        long firstShortLength = 0;
        for (Path file : files) {
            long length = lengths.get(file);
            boolean isShort = length < configuredSize;
            boolean holdsData = !isShort || !allZero(file);
            if (firstShort != null && holdsData) {
                return new Verdict(List.of(), null, firstShort + " is " + firstShortLength + " bytes, shorter than "
                        + "the configured size " + configuredSize + ", but the later file " + file + " holds data: a "
                        + "file in the middle of the log lost bytes (a damaged disk or a copy cut short), or the files "
                        + "were written with another mapped file size; restore the file from a copy or check that "
                        + "setting", lengths);
            }
            if (isShort && firstShort == null) {
                firstShort = file;
                firstShortLength = length;
                if (holdsData) {
                    shortNewest = file;
                    continue;
                }
            }
            if (isShort) {
                neverWritten.add(file);
            }
        }
        return new Verdict(List.copyOf(neverWritten), shortNewest, null, lengths);
    }

    /** What {@code verify} says of a never-written file: the same as a writer's load does with it. */
    public static String neverWrittenFinding(long length, long configuredSize) {
        return length + " bytes of zeros of the configured " + configuredSize + ": a file created before a crash whose "
                + "data never reached the disk; it holds no record, and the next start of a writer deletes it";
    }

    /** What {@code verify} says of the short newest file holding data. */
    public static String shortNewestFinding(long length, long configuredSize) {
        return "the newest file is " + length + " bytes of the configured " + configuredSize + ": its length did not "
                + "reach the disk in full before a crash; the next start of a writer extends it, keeps the valid "
                + "records in it and cuts the rest";
    }

    /** What {@code verify} says of the short newest file holding data after a clean shutdown: a writer refuses it. */
    public static String shortAfterCleanShutdownFinding(long length, long configuredSize) {
        return "the newest file is " + length + " bytes of the configured " + configuredSize + " after a clean "
                + "shutdown: were the files written with another mapped file size? The store refuses to start";
    }

    /** True when every byte of {@code file} is zero (an empty file too). */
    public static boolean allZero(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(1 << 20, Math.max(1, channel.size())));
            long position = 0;
            while (true) {
                chunk.clear();
                int read = channel.read(chunk, position);
                if (read < 0) {
                    return true;
                }
                for (int i = 0; i < read; i++) {
                    if (chunk.get(i) != 0) {
                        return false;
                    }
                }
                position += read;
            }
        }
    }
}
