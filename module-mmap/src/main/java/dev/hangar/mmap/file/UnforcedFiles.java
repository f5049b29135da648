package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link OnDemandMappedFile}s with writes not yet forced, and the force that covers them all with one
 * {@code syncfs(2)} per file system instead of one {@code fdatasync} per file. With 100 000 ConsumeQueues a full
 * flush (every thorough flush, and the last one at shutdown) took one {@code fdatasync} per file - about two
 * minutes on this project's build machines - and mapped parked files again only to force them.
 *
 * <p>What may be claimed: {@link #forceAll()} takes each registered file off the list, then reads its wrote
 * position, then syncs; only bytes below the position read before the sync are announced
 * ({@link ForceEvents#rangeForced}) and recorded as flushed. An append registers its file <em>after</em> moving the
 * wrote position, so an append that lands after the position was read finds its file off the list and registers
 * it again: nothing written is ever left unregistered and unforced.
 *
 * <p>Write-back errors: since Linux 5.8 {@code syncfs} reports an error that hit the file system after the handle
 * was opened. The handle of a file system is opened before the first write of the first file on it, and kept until
 * {@link #close()}, so an error in the background write-back of any of these writes fails the next
 * {@link #forceAll()} (it may also report another process's error on the same file system: a false alarm that
 * only makes the checkpoint wait). Where native calls are unavailable no file is registered and every file is
 * forced on its own, as before.
 *
 * <p>Few files are forced one by one: when at most {@link #forceEachFileUpTo} files wait (a store with a handful of
 * queues, which is most of them), each gets its own {@code fdatasync} instead. A {@code syncfs} writes back every
 * dirty page of the file system, including the CommitLog's pages that the pretoucher
 * ({@link CommitLogPretoucher}) touched ahead of the writer; written back, they are write-protected again, and the
 * writer's next store into each takes a write-protect fault, several times the cost of the first touch the
 * pretoucher saved it (docs/PERFORMANCE.md). A {@code fdatasync} of a ConsumeQueue file writes only that file. The
 * same claim holds: the wrote position is read before the file's force, and only what lies below it is announced.
 * The file is opened for the force (its own channel may be closed by an unmap at any moment); Linux reports a
 * write-back error not yet seen by anyone to a descriptor opened after it.
 *
 * <p>Thread-safety: {@link #beforeFirstWrite} and {@link #written} from the writing thread of each file;
 * {@link #forceAll()} from one flushing thread at a time; {@link #close()} after the last use.
 */
public final class UnforcedFiles implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UnforcedFiles.class);
    /** Marks a file whose file system has no syncfs handle: it is forced on its own. */
    static final long NO_HANDLE = Long.MIN_VALUE;

    /** Up to this many files waiting, each is forced on its own (no syncfs): a store with few queues. */
    public static final int DEFAULT_FORCE_EACH_FILE_UP_TO = 64;

    private final NativeMemory nativeMemory;
    private final int forceEachFileUpTo;
    private final AtomicLong fileByFileForces = new AtomicLong();
    private final Set<OnDemandMappedFile> files = ConcurrentHashMap.newKeySet();
    /** Files created since the last force whose length and directory entries are not yet forced. */
    private final NewFiles newFiles = new NewFiles();
    /** File-system id ({@code unix:dev}) to its open handle, or -1 when it could not be opened. */
    private final Map<Long, Integer> handles = new ConcurrentHashMap<>();
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong filesForced = new AtomicLong();
    private volatile boolean closed;
    /** The C library has no syncfs: files are no longer registered, each is forced on its own. */
    private volatile boolean unsupported;

    public UnforcedFiles(NativeMemory nativeMemory) {
        this(nativeMemory, DEFAULT_FORCE_EACH_FILE_UP_TO);
    }

    /**
     * @param forceEachFileUpTo up to this many waiting files, {@link #forceAll()} forces each with its own
     *                          {@code fdatasync}; above, one {@code syncfs} per file system (0: always syncfs)
     */
    public UnforcedFiles(NativeMemory nativeMemory, int forceEachFileUpTo) {
        if (forceEachFileUpTo < 0) {
            throw new IllegalArgumentException("forceEachFileUpTo must be >= 0 (0 = always one syncfs): "
                    + forceEachFileUpTo);
        }
        this.nativeMemory = nativeMemory;
        this.forceEachFileUpTo = forceEachFileUpTo;
    }

    /**
     * The file system id of {@code file}, with a syncfs handle open on it; {@link #NO_HANDLE} when there is none
     * (the file is then forced on its own). Called before the file's first write.
     */
    long beforeFirstWrite(OnDemandMappedFile file) {
        if (closed || unsupported) {
            return NO_HANDLE;
        }
        return fileSystemWithHandle(file.path().toAbsolutePath().getParent());
    }

    /** The id of the file system {@code directory} is on, with a syncfs handle open on it; else NO_HANDLE. */
    private long fileSystemWithHandle(Path directory) {
        long fileSystem;
        try {
            fileSystem = ((Number) Files.getAttribute(directory, "unix:dev")).longValue();
        } catch (IOException | RuntimeException e) {
            LOG.debug("no file-system id for {} ({}): forcing it on its own", directory, e.toString());
            return NO_HANDLE;
        }
        int fd = handles.computeIfAbsent(fileSystem, id -> nativeMemory.openFileSystemHandle(directory));
        return fd < 0 ? NO_HANDLE : fileSystem;
    }

    /**
     * {@code file} was just created (sparse, with its length) along with {@code createdDirectories}: the next
     * {@link #forceAll()} forces its length and the directory entries, as {@code DurableFiles.forceCreation} would,
     * before anything claims it holds data ({@link #forceCreation} when the file's own flush comes first). Forced at
     * once after {@link #close()}, and then null is returned.
     */
    NewFiles.NewFile created(Path file, List<Path> createdDirectories) throws IOException {
        if (closed) {
            DurableFiles.forceCreation(file, createdDirectories);
            return null;
        }
        return newFiles.add(file, createdDirectories);
    }

    /** {@code file} has bytes past its flushed position: the next {@link #forceAll()} covers them. */
    void written(OnDemandMappedFile file) {
        files.add(file);
    }

    /**
     * Forces every registered file: one {@code syncfs} per file system, then each file's flushed position moves to
     * the wrote position read before the sync, and the range is announced. Files shut down meanwhile are skipped.
     *
     * @return files whose writes were forced
     * @throws IOException a sync failed; the files stay registered (nothing is claimed) for the next attempt
     */
    public int forceAll() throws IOException {
        List<OnDemandMappedFile.GroupForce> pending = new ArrayList<>();
        Map<Long, Path> fileSystems = new LinkedHashMap<>();
        for (Iterator<OnDemandMappedFile> it = files.iterator(); it.hasNext(); ) {
            OnDemandMappedFile file = it.next();
            it.remove();
            OnDemandMappedFile.GroupForce force = file.prepareGroupForce();
            if (force != null) {
                pending.add(force);
                fileSystems.putIfAbsent(force.fileSystem(), file.path());
            }
        }
        // taken after: a file is created before it is written, so every collected file whose creation is not yet
        // forced is in here, and its name and length reach the disk no later than its units
        List<NewFiles.NewFile> created = newFiles.take();
        try {
            if (pending.size() <= forceEachFileUpTo) {
                forceNewFiles(created);
                return pending.isEmpty() ? 0 : forceEach(pending);
            }
            // names and lengths listed before the syncfs of the units, which then covers them too
            NewFiles.Snapshot before = created.isEmpty() || closed || unsupported ? null
                    : NewFiles.Snapshot.take(created, this::fileSystemWithHandle, NO_HANDLE);
            if (before == null) {
                forceNewFiles(created);
            } else {
                before.fileSystems().forEach(fileSystems::putIfAbsent);
            }
            boolean synced = syncWritten(pending, fileSystems);
            if (before != null) {
                if (synced) {
                    before.announce();
                } else {
                    forceNewFiles(created);
                }
            }
            return synced ? pending.size() : 0;
        } catch (IOException | RuntimeException e) {
            newFiles.giveBack(created.stream().filter(f -> f.unforced().get()).toList());
            throw e;
        }
    }

    /**
     * Makes {@code created} durable on its own: one {@code fsync} per file and per directory while few, else one
     * {@code syncfs} per file system.
     */
    private void forceNewFiles(List<NewFiles.NewFile> created) throws IOException {
        if (created.isEmpty()) {
            return;
        }
        NewFiles.Snapshot before = created.size() <= forceEachFileUpTo || closed || unsupported ? null
                : NewFiles.Snapshot.take(created, this::fileSystemWithHandle, NO_HANDLE);
        if (before == null) {
            NewFiles.forceEach(created);
            return;
        }
        for (Map.Entry<Long, Path> fs : before.fileSystems().entrySet()) {
            if (!nativeMemory.syncFileSystem(handles.get(fs.getKey()), fs.getValue())) {
                NewFiles.forceEach(created);
                return;
            }
            syncs.incrementAndGet();
        }
        before.announce();
    }

    /**
     * Forces a new file's length and name now, on its own: its units are about to be forced file by file (a flush
     * of the file itself), which must not make them durable in a file whose name a power cut can still take away.
     */
    void forceCreation(NewFiles.NewFile file) throws IOException {
        if (file.unforced().get() && newFiles.remove(file)) {
            try {
                NewFiles.forceEach(List.of(file));
            } catch (IOException | RuntimeException e) {
                newFiles.giveBack(List.of(file));
                throw e;
            }
        }
    }

    /**
     * One {@code syncfs} per file system in {@code fileSystems}, then every pending range is announced; false (nothing
     * claimed) when this C library has no syncfs, which the caller's file-by-file flush then covers.
     */
    private boolean syncWritten(List<OnDemandMappedFile.GroupForce> pending, Map<Long, Path> fileSystems)
            throws IOException {
        try {
            for (Map.Entry<Long, Path> fs : fileSystems.entrySet()) {
                if (!nativeMemory.syncFileSystem(handles.get(fs.getKey()), fs.getValue())) {
                    // claim nothing; the caller's file-by-file flush forces them, now and from now on
                    unsupported = true;
                    files.clear();
                    pending.forEach(OnDemandMappedFile.GroupForce::release);
                    return false;
                }
                syncs.incrementAndGet();
            }
        } catch (IOException | RuntimeException e) {
            for (OnDemandMappedFile.GroupForce force : pending) {
                force.abandon(this);
            }
            throw e;
        }
        for (OnDemandMappedFile.GroupForce force : pending) {
            force.complete();
        }
        filesForced.addAndGet(pending.size());
        return true;
    }

    /**
     * One {@code fdatasync} per file, through a descriptor opened for it; each file is announced as soon as its own
     * force returned. On a failure the files not yet forced stay registered and the failure is thrown.
     */
    private int forceEach(List<OnDemandMappedFile.GroupForce> pending) throws IOException {
        int forced = 0;
        try {
            for (OnDemandMappedFile.GroupForce force : pending) {
                try (FileChannel channel = FileChannel.open(force.file().path(), StandardOpenOption.READ)) {
                    channel.force(false);
                }
                forced++;
                fileByFileForces.incrementAndGet();
                force.complete();
            }
        } catch (IOException e) {
            Path failed = pending.get(forced).file().path();
            abandonFrom(pending, forced);
            throw new IOException("fdatasync of " + failed + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            abandonFrom(pending, forced);
            throw e;
        }
        filesForced.addAndGet(forced);
        return forced;
    }

    /** The files from {@code index} on were not forced: they stay registered for the next attempt. */
    private void abandonFrom(List<OnDemandMappedFile.GroupForce> pending, int index) {
        for (OnDemandMappedFile.GroupForce left : pending.subList(index, pending.size())) {
            left.abandon(this);
        }
    }

    /** Files created and not yet forced. */
    public int newFiles() {
        return newFiles.size();
    }

    /** Files forced on their own (one fdatasync each) because few were waiting. */
    public long fileByFileForces() {
        return fileByFileForces.get();
    }

    /** syncfs calls made so far. */
    public long syncs() {
        return syncs.get();
    }

    /** Files forced by those calls, counted once per call that covered them. */
    public long filesForced() {
        return filesForced.get();
    }

    /** Files registered now. */
    public int size() {
        return files.size();
    }

    /** Closes the handles; files written later are forced on their own. */
    @Override
    public void close() {
        closed = true;
        handles.values().forEach(nativeMemory::closeFileSystemHandle);
        handles.clear();
    }
}
