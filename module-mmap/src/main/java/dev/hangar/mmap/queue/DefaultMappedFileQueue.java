package dev.hangar.mmap.queue;

import dev.hangar.mmap.allocate.AllocateMappedFileService;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.file.MappedFileNames;
import dev.hangar.spi.flush.ForceEvents;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.TailFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of equally sized mapped files forming one log, each named by its 20-digit start offset. Files
 * live in a {@link CopyOnWriteArrayList}, so readers and the single writer never lock; deletion at the head,
 * truncation at the tail, load and destroy are serialised on this queue's monitor.
 *
 * <p>New files come from the allocation service when there is one (CommitLog), else from the factory. Existing
 * files are loaded with the loader (plain mmap: a pooled buffer only ever backs a new file).
 *
 * <p>Thread-safety as {@link MappedFileQueue} states: one writer, one flusher, one committer, any readers.
 */
public final class DefaultMappedFileQueue implements MappedFileQueue {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMappedFileQueue.class);

    private final Path directory;
    private final int mappedFileSize;
    private final MappedFileFactory factory;
    private final MappedFileFactory loader;
    private final AllocateMappedFileService allocator;
    /** Opened for reading only: load changes no file. */
    private final boolean readOnly;
    private volatile String loadProblem;
    private final CopyOnWriteArrayList<MappedFile> mappedFiles = new CopyOnWriteArrayList<>();
    private final ExpiredFileDeleter deleter;
    private volatile long flushedWhere;
    private volatile long committedWhere;
    private volatile long storeTimestamp;

    /**
     * @param factory   creates new files when there is no allocator
     * @param loader    maps existing files in {@link #load()}
     * @param allocator creates new files ahead, or null
     */
    public DefaultMappedFileQueue(Path directory, int mappedFileSize, MappedFileFactory factory,
                                  MappedFileFactory loader, AllocateMappedFileService allocator) {
        this(directory, mappedFileSize, factory, loader, allocator, false);
    }

    /** @param readOnly true for a queue of a store opened read-only: {@link #load()} then changes no file */
    public DefaultMappedFileQueue(Path directory, int mappedFileSize, MappedFileFactory factory,
                                  MappedFileFactory loader, AllocateMappedFileService allocator, boolean readOnly) {
        this.readOnly = readOnly;
        this.directory = Objects.requireNonNull(directory, "directory");
        if (mappedFileSize <= 0) {
            throw new IllegalArgumentException("mapped file size must be positive: " + mappedFileSize);
        }
        this.mappedFileSize = mappedFileSize;
        this.factory = Objects.requireNonNull(factory, "factory");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.allocator = allocator;
        this.deleter = new ExpiredFileDeleter(this, mappedFiles);
    }

    @Override
    public Path directory() {
        return directory;
    }

    @Override
    public int mappedFileSize() {
        return mappedFileSize;
    }

    @Override
    public boolean load() {
        return load(false);
    }

    @Override
    public synchronized boolean load(boolean afterCrash) {
        if (!mappedFiles.isEmpty()) {
            throw new IllegalStateException(directory + " is already loaded (" + mappedFiles.size() + " files)");
        }
        if (!Files.exists(directory)) {
            return true;
        }
        if (!Files.isDirectory(directory)) {
            return loadFailed(directory + " is not a directory");
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path file : stream) {
                if (MappedFileNames.isMappedFileName(file.getFileName().toString()) && Files.isRegularFile(file)) {
                    files.add(file);
                } else {
                    LOG.warn("ignoring {}: not a mapped file (20-digit name)", file);
                }
            }
        } catch (IOException e) {
            return loadFailed("cannot list " + directory + ": " + e);
        }
        files.sort(null);
        TailFiles.Verdict tail;
        try {
            tail = TailFiles.classify(files, mappedFileSize);
        } catch (IOException e) {
            return loadFailed("cannot read the files of " + directory + ": " + e);
        }
        if (!tail.loadable()) {
            return loadFailed(tail.damage());
        }
        List<MappedFile> loaded = new ArrayList<>();
        try {
            for (Path file : files) {
                long length = tail.length(file);
                if (tail.isNeverWritten(file)) {
                    setAsideNeverWritten(file, length);
                    continue;
                }
                if (file.equals(tail.shortNewest())) {
                    if (!afterCrash) {
                        loaded.forEach(f -> f.shutdown(0));
                        return loadFailed(file + " is " + length + " bytes, shorter than the configured size "
                                + mappedFileSize + ", after a clean shutdown: were the files written with another "
                                + "mapped file size? Set it back, or move the file away to drop its records");
                    }
                    if (readOnly) {
                        LOG.warn("not loading {}: it is {} bytes, shorter than the configured size {} (its length did "
                                + "not reach the disk before a crash); the next start of a writer extends it and "
                                + "keeps its valid records", file, length, mappedFileSize);
                        break;
                    }
                    extendShortNewest(file, length);
                } else if (length != mappedFileSize) {
                    loaded.forEach(f -> f.shutdown(0));
                    return loadFailed(file + " is " + length + " bytes, not the configured size " + mappedFileSize
                            + "; check the file and the mapped file size setting");
                }
                MappedFile mapped = loader.create(directory, MappedFileNames.offsetOf(file.getFileName().toString()),
                        mappedFileSize);
                // recovery moves the positions of the tail back to the last valid byte
                mapped.wrotePosition(mappedFileSize);
                mapped.committedPosition(mappedFileSize);
                mapped.flushedPosition(mappedFileSize);
                loaded.add(mapped);
                LOG.info("loaded {}", file);
            }
        } catch (IOException | RuntimeException e) {
            loaded.forEach(f -> f.shutdown(0));
            return loadFailed("cannot load " + directory + ": " + e);
        }
        mappedFiles.addAll(loaded);
        return true;
    }

    private boolean loadFailed(String problem) {
        loadProblem = problem;
        LOG.error("cannot load {}: {}", directory, problem);
        return false;
    }

    @Override
    public String loadProblem() {
        return loadProblem;
    }

    /**
     * A short, all-zero file at the end (see {@link TailFiles}): its length or name reached the disk, never its data.
     * A writer deletes it (nothing is in it; the file is created anew when the log gets there); a reader skips it.
     */
    private void setAsideNeverWritten(Path file, long length) throws IOException {
        if (readOnly) {
            LOG.warn("not loading {}: {} bytes of zeros, a file a crash left unwritten at the end of the log; the next "
                    + "start of a writer deletes it", file, length);
            return;
        }
        LOG.warn("deleting {}: {} bytes of zeros of the configured {}, a file created before a crash whose data never "
                + "reached the disk; it held no record", file, length, mappedFileSize);
        Files.delete(file);
    }

    /** Extends the short newest file with zeros to the configured size, durably; its bytes stay as they are. */
    private void extendShortNewest(Path file, long length) throws IOException {
        LOG.warn("extending {} from {} to the configured {} bytes: its length did not reach the disk in full before a "
                + "crash; its bytes are kept, recovery keeps the valid records in them and cuts the rest", file, length,
                mappedFileSize);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), mappedFileSize - 1L);
            channel.force(true);
        }
        ForceEvents.lengthForced(file, mappedFileSize);
    }

    @Override
    public List<MappedFile> mappedFiles() {
        return List.copyOf(mappedFiles);
    }

    @Override
    public boolean isEmpty() {
        return mappedFiles.isEmpty();
    }

    @Override
    public MappedFile getFirstMappedFile() {
        while (!mappedFiles.isEmpty()) {
            try {
                return mappedFiles.get(0);
            } catch (IndexOutOfBoundsException e) {
                // emptied concurrently: look again
            }
        }
        return null;
    }

    @Override
    public MappedFile getLastMappedFile() {
        while (!mappedFiles.isEmpty()) {
            try {
                return mappedFiles.get(mappedFiles.size() - 1);
            } catch (IndexOutOfBoundsException e) {
                // shrunk concurrently: look again
            }
        }
        return null;
    }

    @Override
    public MappedFile getLastMappedFile(long startOffset, boolean needCreate) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("negative start offset: " + startOffset);
        }
        MappedFile last = getLastMappedFile();
        long createOffset;
        if (last == null) {
            createOffset = startOffset - startOffset % mappedFileSize;
        } else if (last.isFull()) {
            createOffset = last.fileFromOffset() + mappedFileSize;
        } else {
            return last;
        }
        if (!needCreate) {
            return last;
        }
        MappedFile created = allocator != null
                ? allocator.putRequestAndReturnMappedFile(directory, createOffset, createOffset + mappedFileSize,
                        mappedFileSize)
                : createDirectly(createOffset);
        if (created == null) {
            return null;
        }
        mappedFiles.add(created);
        if (last != null) {
            // a warmed file stays locked in RAM only while it is being written
            last.unlockMemory();
        }
        return created;
    }

    private MappedFile createDirectly(long offset) {
        try {
            return factory.create(directory, offset, mappedFileSize);
        } catch (IOException | RuntimeException e) {
            LOG.error("could not create mapped file {} in {}: {}", MappedFileNames.of(offset), directory, e.toString());
            return null;
        }
    }

    @Override
    public MappedFile findMappedFileByOffset(long offset, boolean returnFirstOnNotFound) {
        MappedFile first = getFirstMappedFile();
        MappedFile last = getLastMappedFile();
        if (first == null || last == null) {
            return null;
        }
        if (offset >= first.fileFromOffset() && offset < last.fileFromOffset() + mappedFileSize) {
            long index = offset / mappedFileSize - first.fileFromOffset() / mappedFileSize;
            MappedFile candidate = null;
            try {
                candidate = index < Integer.MAX_VALUE ? mappedFiles.get((int) index) : null;
            } catch (IndexOutOfBoundsException e) {
                // the head moved or the files are not contiguous: search below
            }
            if (holds(candidate, offset)) {
                return candidate;
            }
            for (MappedFile file : mappedFiles) {
                if (holds(file, offset)) {
                    return file;
                }
            }
        } else {
            LOG.debug("offset {} is outside [{}, {}) of {}", offset, first.fileFromOffset(),
                    last.fileFromOffset() + mappedFileSize, directory);
        }
        return returnFirstOnNotFound ? first : null;
    }

    private boolean holds(MappedFile file, long offset) {
        return file != null && offset >= file.fileFromOffset() && offset < file.fileFromOffset() + mappedFileSize;
    }

    @Override
    public MappedFile getMappedFileByTime(long timestamp) {
        MappedFile last = null;
        for (MappedFile file : mappedFiles) {
            if (file.lastModifiedTimestamp() >= timestamp) {
                return file;
            }
            last = file;
        }
        return last;
    }

    @Override
    public long getMinOffset() {
        MappedFile first = getFirstMappedFile();
        return first == null ? -1 : first.fileFromOffset();
    }

    @Override
    public long getMaxOffset() {
        MappedFile last = getLastMappedFile();
        return last == null ? 0 : last.fileFromOffset() + last.readPosition();
    }

    @Override
    public long getMaxWrotePosition() {
        MappedFile last = getLastMappedFile();
        return last == null ? 0 : last.fileFromOffset() + last.wrotePosition();
    }

    @Override
    public long getFlushedWhere() {
        return flushedWhere;
    }

    @Override
    public void setFlushedWhere(long where) {
        this.flushedWhere = where;
    }

    @Override
    public long getCommittedWhere() {
        return committedWhere;
    }

    @Override
    public void setCommittedWhere(long where) {
        this.committedWhere = where;
    }

    @Override
    public long getStoreTimestamp() {
        return storeTimestamp;
    }

    @Override
    public boolean flush(int leastPages) throws IOException {
        long where = flushedWhere;
        MappedFile file = findMappedFileByOffset(where, where == 0);
        if (file == null) {
            return true;
        }
        // read before the force: every record up to this stamp is on disk once a full flush returns
        long timestamp = file.storeTimestamp();
        int flushed = file.flush(leastPages);
        long newWhere = file.fileFromOffset() + flushed;
        boolean nothingFlushed = newWhere == where;
        flushedWhere = newWhere;
        if (leastPages == 0) {
            storeTimestamp = timestamp;
        }
        return nothingFlushed;
    }

    @Override
    public boolean commit(int leastPages) throws IOException {
        long where = committedWhere;
        MappedFile file = findMappedFileByOffset(where, where == 0);
        if (file == null) {
            return true;
        }
        int committed = file.commit(leastPages);
        long newWhere = file.fileFromOffset() + committed;
        boolean nothingCommitted = newWhere == where;
        committedWhere = newWhere;
        return nothingCommitted;
    }

    @Override
    public synchronized void truncateDirtyFiles(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative truncation offset: " + offset);
        }
        List<MappedFile> removed = new ArrayList<>();
        for (MappedFile file : mappedFiles) {
            long fileTail = file.fileFromOffset() + mappedFileSize;
            if (fileTail <= offset) {
                continue;
            }
            if (offset >= file.fileFromOffset()) {
                int position = (int) (offset - file.fileFromOffset());
                file.wrotePosition(position);
                file.committedPosition(position);
                file.flushedPosition(position);
                LOG.info("truncated {} at position {}", file.path(), position);
            } else {
                if (!file.destroy(ExpiredFileDeleter.TRUNCATE_DESTROY_INTERVAL)) {
                    LOG.error("could not delete {} past the truncation offset {}; it is still in use", file.path(),
                            offset);
                }
                removed.add(file);
            }
        }
        mappedFiles.removeAll(removed);
        flushedWhere = Math.min(flushedWhere, offset);
        committedWhere = Math.min(committedWhere, offset);
    }

    @Override
    public int deleteExpiredFileByTime(long expiredTimeMs, int deleteFilesIntervalMs, long intervalForcibly,
                                       boolean cleanImmediately, int maxBatch) {
        synchronized (this) {
            return deleter.deleteByTime(expiredTimeMs, deleteFilesIntervalMs, intervalForcibly, cleanImmediately,
                    maxBatch);
        }
    }

    @Override
    public synchronized int deleteExpiredFileByOffset(long offset, int unitSize) {
        return deleter.deleteByOffset(offset, unitSize);
    }

    @Override
    public synchronized boolean retryDeleteFirstFile(long intervalForcibly) {
        return deleter.retryDeleteFirstFile(intervalForcibly);
    }

    @Override
    public long getMappedMemorySize() {
        long size = 0;
        for (MappedFile file : mappedFiles) {
            if (file.isAvailable()) {
                size += mappedFileSize;
            }
        }
        return size;
    }

    @Override
    public void shutdown(long intervalForcibly) {
        for (MappedFile file : mappedFiles) {
            file.shutdown(intervalForcibly);
        }
    }

    @Override
    public synchronized void destroy() {
        for (MappedFile file : mappedFiles) {
            if (!file.destroy(ExpiredFileDeleter.QUEUE_DESTROY_INTERVAL)) {
                LOG.error("could not delete {} while destroying {}", file.path(), directory);
            }
        }
        mappedFiles.clear();
        flushedWhere = 0;
        committedWhere = 0;
        try {
            Files.deleteIfExists(directory);
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            LOG.warn("kept {}: it still holds files that are not mapped files of this queue", directory);
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", directory, e.toString());
        }
    }

    @Override
    public String toString() {
        return "MappedFileQueue[" + directory + ", " + mappedFiles.size() + " files of " + mappedFileSize + " bytes]";
    }
}
