package dev.hangar.compat.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads and damages CommitLog files directly, independent of both engines: lists every record and BLANK by
 * walking TOTALSIZE/MAGICCODE, creates the {@code abort} marker, and zeroes the tail of the last record as a
 * crash mid-write would leave it.
 */
public final class CommitLogFiles {
    public static final int MESSAGE_MAGIC = 0xDAA320A7;
    public static final int BLANK_MAGIC = 0xCBD43194;

    private CommitLogFiles() {
    }

    /** One record or BLANK found in the CommitLog. */
    public record Entry(long offset, int size, boolean blank) {
    }

    /** Every record and BLANK, in offset order, up to the first byte that starts neither. */
    public static List<Entry> walk(Path root) {
        List<Entry> entries = new ArrayList<>();
        for (Path file : files(root)) {
            long fileStart = Long.parseLong(file.getFileName().toString());
            ByteBuffer b = ByteBuffer.wrap(read(file));
            int pos = 0;
            while (pos + 8 <= b.capacity()) {
                int size = b.getInt(pos);
                int magic = b.getInt(pos + 4);
                if (magic == BLANK_MAGIC && size > 0) {
                    entries.add(new Entry(fileStart + pos, size, true));
                    break;
                }
                if (magic != MESSAGE_MAGIC || size <= 0 || pos + size > b.capacity()) {
                    return entries;
                }
                entries.add(new Entry(fileStart + pos, size, false));
                pos += size;
            }
        }
        return entries;
    }

    /** The message records only. */
    public static List<Entry> records(Path root) {
        return walk(root).stream().filter(e -> !e.blank()).toList();
    }

    /** The CommitLog files, by name (= start offset). */
    public static List<Path> files(Path root) {
        Path dir = root.resolve("commitlog");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d{20}")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Leaves the marker an engine leaves while running: the next start recovers as after a crash. */
    public static void createAbortFile(Path root) throws IOException {
        Path abort = root.resolve("abort");
        if (!Files.exists(abort)) {
            Files.createFile(abort);
        }
    }

    /**
     * Zeroes {@code record} from its middle to the end of its file, as if the process died while copying it;
     * the file keeps its length (both engines refuse files of the wrong size).
     */
    public static void zeroFromMiddleOf(Path root, Entry record, int fileSize) throws IOException {
        long fileStart = record.offset() - record.offset() % fileSize;
        Path file = root.resolve("commitlog").resolve(String.format("%020d", fileStart));
        int from = (int) (record.offset() - fileStart) + record.size() / 2;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(from);
            raf.write(new byte[fileSize - from]);
            raf.getFD().sync();
        }
    }

    /** Copies a store directory (without the {@code lock} file) while its engine may still be running. */
    public static void copyStore(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("lock")) {
                    Files.copy(p, target);
                }
            }
        }
    }
}
