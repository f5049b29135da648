package dev.hangar.dispatch.index;

import dev.hangar.spi.flush.Checkpoint;
import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.format.IndexFileFormat;
import dev.hangar.spi.mapped.TailFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index files of one store ({@code <storeRoot>/index/}), oldest first: listing and mapping them, naming and
 * creating the next one, rolling a full one (forced and recorded in the checkpoint), cutting entries past a
 * commit-log offset, deleting expired files, and looking a key up across them. What to index is
 * {@link IndexDispatcher}'s.
 *
 * <p>Thread-safety: {@link #load}, {@link #writableFile}, {@link #roll} from the one reput thread (or while nothing
 * dispatches); {@link #truncate} while nothing dispatches; {@link #flushAll} and {@link #deleteExpired} from service
 * threads; {@link #select}, {@link #newest} and {@link #snapshot} from any thread. The file list is copy-on-write,
 * each file guards its own entries.
 */
final class IndexFileSet {
    private static final Logger LOG = LoggerFactory.getLogger(IndexFileSet.class);

    private final Path dir;
    private final int slotCount;
    private final int entryCapacity;
    private final Checkpoint checkpoint;
    /** A store opened read-only: files are mapped {@code READ_ONLY} (see {@link IndexFile#open}). */
    private final boolean readOnly;
    private final HashSlotAdvice slotAdvice;
    private final CopyOnWriteArrayList<IndexFile> files = new CopyOnWriteArrayList<>();
    /** Name of the newest file created or loaded, so a new name always sorts after it. */
    private String lastFileName = "";
    /** Empty files found by {@link #load}: creations a crash cut short, deleted on the first write. */
    private final List<Path> interruptedCreations = new ArrayList<>();

    IndexFileSet(Path dir, int slotCount, int entryCapacity, Checkpoint checkpoint, boolean readOnly) {
        this(dir, slotCount, entryCapacity, checkpoint, readOnly, HashSlotAdvice.NONE);
    }

    /** @param slotAdvice given for each writable file's hash slots when it is mapped */
    IndexFileSet(Path dir, int slotCount, int entryCapacity, Checkpoint checkpoint, boolean readOnly,
                 HashSlotAdvice slotAdvice) {
        this.dir = dir;
        this.slotAdvice = slotAdvice;
        this.readOnly = readOnly;
        this.slotCount = slotCount;
        this.entryCapacity = entryCapacity;
        this.checkpoint = checkpoint;
    }

    Path dir() {
        return dir;
    }

    /**
     * Maps the existing files, oldest first; with {@code destroyPastCheckpoint} destroys instead every file that
     * ends after the checkpoint's index time (see {@link IndexDispatcher#load}).
     */
    void load(boolean destroyPastCheckpoint) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        long durableTime = checkpoint.indexMsgTimestamp();
        for (Path path : listIndexFiles()) {
            if (neverWritten(path)) {
                // a crash between creating the file and forcing its length, or before its header reached the disk:
                // no key was ever written there
                LOG.warn("ignoring index file {}: {} bytes of zeros of {}, its creation was cut short by a crash; it "
                        + "held no key and is deleted when the index is next written", path, sizeOf(path),
                        IndexFileFormat.fileSize(slotCount, entryCapacity));
                lastFileName = path.getFileName().toString();
                interruptedCreations.add(path);
                continue;
            }
            IndexFile file = IndexFile.open(path, slotCount, entryCapacity, readOnly, slotAdvice);
            lastFileName = file.fileName();
            if (destroyPastCheckpoint && file.endTimestamp() > durableTime) {
                LOG.warn("destroying index file {}: it ends at {}, after the checkpoint's index time {}, and the "
                        + "last shutdown was not clean", path, file.endTimestamp(), durableTime);
                file.destroy();
                continue;
            }
            files.add(file);
        }
        LOG.info("loaded {} index files from {}", files.size(), dir);
    }

    private List<Path> listIndexFiles() {
        try (Stream<Path> entries = Files.list(dir)) {
            List<Path> result = new ArrayList<>();
            for (Path path : entries.sorted().toList()) {
                if (Files.isRegularFile(path) && IndexFileFormat.fileNameMillis(path.getFileName().toString()) >= 0) {
                    result.add(path);
                } else {
                    LOG.warn("ignoring {}: not an index file", path);
                }
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** Shorter than an index file and all zeros (see {@link TailFiles}): a creation a crash cut short. */
    private boolean neverWritten(Path path) {
        try {
            return Files.size(path) < IndexFileFormat.fileSize(slotCount, entryCapacity) && TailFiles.allZero(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read index file " + path, e);
        }
    }

    private static long sizeOf(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Deletes the empty files {@link #load} skipped; only a store that writes its index gets here, never a reader. */
    private void deleteInterruptedCreations() {
        for (Path path : interruptedCreations) {
            try {
                Files.deleteIfExists(path);
                LOG.info("deleted the empty index file {} left by an interrupted creation", path);
            } catch (IOException e) {
                LOG.warn("cannot delete the empty index file {}: {}", path, e.toString());
            }
        }
        interruptedCreations.clear();
    }

    /** The newest file when it has room, else a new one. */
    IndexFile writableFile() {
        if (!interruptedCreations.isEmpty()) {
            deleteInterruptedCreations();
        }
        IndexFile last = newest();
        if (last == null) {
            IndexFile first = IndexFile.create(dir.resolve(nextFileName()), slotCount, entryCapacity, 0, 0, slotAdvice);
            files.add(first);
            return first;
        }
        return last.isFull() ? roll(last) : last;
    }

    /** Forces the full file, records its end time in the checkpoint, and starts the next one. */
    IndexFile roll(IndexFile full) {
        IndexFile next = IndexFile.create(dir.resolve(nextFileName()), slotCount, entryCapacity, full.endPhyOffset(),
                full.endTimestamp(), slotAdvice);
        files.add(next);
        full.flush();
        checkpoint.indexMsgTimestamp(full.endTimestamp());
        checkpoint.flush();
        LOG.info("index file {} is full ({} keys); continuing in {}", full.fileName(), full.indexCount() - 1,
                next.fileName());
        return next;
    }

    /** A name after every existing one: the current time, or one millisecond past the newest name. */
    private String nextFileName() {
        try {
            List<Path> created = DurableFiles.createDirectories(dir);
            DurableFiles.forceDirectories(DurableFiles.parentsOf(List.of(), created));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        long millis = System.currentTimeMillis();
        long lastMillis = lastFileName.isEmpty() ? -1 : IndexFileFormat.fileNameMillis(lastFileName);
        if (lastMillis >= millis) {
            millis = lastMillis + 1;
        }
        String name = IndexFileFormat.fileName(millis);
        while (name.compareTo(lastFileName) <= 0 || Files.exists(dir.resolve(name))) {
            name = IndexFileFormat.fileName(++millis);
        }
        lastFileName = name;
        return name;
    }

    /** The newest file, or null when there is none. */
    IndexFile newest() {
        int size = files.size();
        return size == 0 ? null : files.get(size - 1);
    }

    /**
     * Deletes files that begin at or past {@code commitLogOffset} and, in the file that straddles it, removes the
     * entries at or past it.
     */
    void truncate(long commitLogOffset) {
        for (IndexFile file : files) {
            if (file.beginPhyOffset() >= commitLogOffset) {
                files.remove(file);
                file.destroy();
                LOG.info("deleted index file {}: it begins at {}, at or past the truncation offset {}",
                        file.fileName(), file.beginPhyOffset(), commitLogOffset);
            } else if (file.endPhyOffset() >= commitLogOffset) {
                int removed = file.truncateFrom(commitLogOffset);
                file.flush();
                LOG.info("removed {} entries at or past {} from index file {}", removed, commitLogOffset,
                        file.fileName());
            }
        }
    }

    /** Forces every file. */
    void flushAll() {
        files.forEach(IndexFile::flush);
    }

    /** Deletes the oldest files whose end offset is below {@code minCommitLogOffset}; never the newest. */
    void deleteExpired(long minCommitLogOffset) {
        List<IndexFile> snapshot = List.copyOf(files);
        for (int i = 0; i < snapshot.size() - 1; i++) {
            IndexFile file = snapshot.get(i);
            if (file.endPhyOffset() >= minCommitLogOffset) {
                break;
            }
            files.remove(file);
            file.destroy();
            LOG.info("deleted expired index file {} (ends at {}, commit log starts at {})", file.fileName(),
                    file.endPhyOffset(), minCommitLogOffset);
        }
    }

    /** Drops every file from the set (their mappings go with the garbage collector). */
    void clear() {
        files.clear();
    }

    /** Adds to {@code offsets} the hash matches of {@code topic#key}, newest file first, up to {@code maxNum}. */
    void select(List<Long> offsets, String topic, String key, int maxNum, long begin, long end) {
        String indexKey = IndexFileFormat.indexKey(topic, key);
        List<IndexFile> snapshot = List.copyOf(files);
        for (int i = snapshot.size() - 1; i >= 0 && offsets.size() < maxNum; i--) {
            IndexFile file = snapshot.get(i);
            if (file.overlaps(begin, end)) {
                file.select(offsets, indexKey, maxNum, begin, end);
            }
            if (file.beginTimestamp() < begin) {
                break;
            }
        }
    }

    /** Files oldest first. */
    List<IndexFile> snapshot() {
        return List.copyOf(files);
    }
}
