package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>Thread-safety: {@link #beforeFirstWrite} and {@link #written} from the writing thread of each file;
 * {@link #forceAll()} from one flushing thread at a time; {@link #close()} after the last use.
 */
public final class UnforcedFiles implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UnforcedFiles.class);
    /** Marks a file whose file system has no syncfs handle: it is forced on its own. */
    static final long NO_HANDLE = Long.MIN_VALUE;

    private final NativeMemory nativeMemory;
    private final Set<OnDemandMappedFile> files = ConcurrentHashMap.newKeySet();
    /** File-system id ({@code unix:dev}) to its open handle, or -1 when it could not be opened. */
    private final Map<Long, Integer> handles = new ConcurrentHashMap<>();
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong filesForced = new AtomicLong();
    private volatile boolean closed;
    /** The C library has no syncfs: files are no longer registered, each is forced on its own. */
    private volatile boolean unsupported;

    public UnforcedFiles(NativeMemory nativeMemory) {
        this.nativeMemory = nativeMemory;
    }

    /**
     * The file system id of {@code file}, with a syncfs handle open on it; {@link #NO_HANDLE} when there is none
     * (the file is then forced on its own). Called before the file's first write.
     */
    long beforeFirstWrite(OnDemandMappedFile file) {
        if (closed || unsupported) {
            return NO_HANDLE;
        }
        Path directory = file.path().toAbsolutePath().getParent();
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
        if (pending.isEmpty()) {
            return 0;
        }
        try {
            for (Map.Entry<Long, Path> fs : fileSystems.entrySet()) {
                if (!nativeMemory.syncFileSystem(handles.get(fs.getKey()), fs.getValue())) {
                    // claim nothing; the caller's file-by-file flush forces them, now and from now on
                    unsupported = true;
                    files.clear();
                    pending.forEach(OnDemandMappedFile.GroupForce::release);
                    return 0;
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
        return pending.size();
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
