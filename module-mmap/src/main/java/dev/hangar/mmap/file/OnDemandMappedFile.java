package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sparse {@code mmap} file (see {@link FileSpace#SPARSE}) that is mapped only while a {@link MappingBudget}
 * allows: it maps itself on the first {@link #hold()}, and the budget unmaps it ("parks" it) when it is idle and
 * other files need the mapping. Built for ConsumeQueue files, of which a store may have hundreds of thousands.
 *
 * <p>{@link #appendBytes} writes a unit that reaches into a page not written before through the file channel
 * ({@code pwrite}): the first store into a page of a shared file mapping takes a page fault plus the file
 * system's {@code page_mkwrite}, measured at 2-5 ms per page on this project's build machines, and with thousands
 * of queues nearly every unit lands on such a page; a {@code pwrite} of the same 20 bytes costs some 40 us. A unit
 * inside the page the previous unit already wrote goes through the mapping: that page is in the page cache, and a
 * system call per 20-byte unit made dispatch the bottleneck with few queues (docs/PERFORMANCE.md section 12).
 * Readers read through the mapping, which shares the page cache with the channel; a force through the channel
 * covers both kinds of writes. The channel is kept open while the file is mapped (and a new file's until its
 * first use, below), so the budget bounds file descriptors too.
 *
 * <p>A write that goes through the channel does not map the file: a ConsumeQueue of 100 000 that gets one or two
 * units in a run is written with one {@code pwrite} and never mapped (a mapping costs an {@code mmap}, and past the
 * budget a {@code munmap} of another file, both under the process's memory-map lock that every page fault of the
 * writers and the dispatch thread also takes). A file this object creates keeps the channel it was created
 * through until its first write or mapping, so a new file is opened once; an unmapped file written again later
 * opens a channel for that write only, so file descriptors stay bounded by the mapping budget.
 *
 * <p>Every use of the mapping in {@link DefaultMappedFile} happens between {@link #hold()} and
 * {@link #release()}. This class takes references under its monitor and parks only under that monitor when its
 * own reference is the only one, so a mapping is never unmapped under a user. Dirty pages survive the unmap in
 * the page cache; a later flush maps the file again and forces them.
 */
public final class OnDemandMappedFile extends DefaultMappedFile {
    private static final Logger LOG = LoggerFactory.getLogger(OnDemandMappedFile.class);

    /** What {@link #parkIfIdle()} did. */
    enum Park { PARKED, IN_USE, NOT_MAPPED }

    private final MappingBudget budget;
    /** {@link FileSpace#SPARSE}, or {@link FileSpace#READ_ONLY} in a store opened read-only. */
    private final FileSpace space;
    /** Where writes not yet forced are registered for one group force; null: forced file by file. */
    private final UnforcedFiles unforcedFiles;
    /** This file's creation while its length and name wait for a force; null for a file that existed. */
    private NewFiles.NewFile pendingCreation;
    /** The file system id for {@link UnforcedFiles} (or its NO_HANDLE), known after the first write. */
    private long fileSystem;
    private boolean fileSystemKnown;
    /** True while registered with {@link #unforcedFiles}; see that class for the order of the two sides. */
    private volatile boolean registeredUnforced;
    private volatile boolean recentlyUsed;
    private boolean everMapped;
    /** Open while mapped; written by the one appending thread between hold and release. */
    private volatile FileChannel writeChannel;
    /**
     * The channel this object created the file through, kept for its first write or mapping; null after that, or
     * for a file that existed. Guarded by this monitor.
     */
    private FileChannel creationChannel;
    /** The appender's last source array and its reused wrapper (ConsumeQueue passes one array every time). */
    private byte[] lastSource;
    private ByteBuffer lastSourceView;

    /** Opens (creating sparse when missing) {@code directory/<20-digit fileFromOffset>} without mapping it yet. */
    public OnDemandMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory,
                              MappingBudget budget) throws IOException {
        this(directory, fileFromOffset, fileSize, nativeMemory, budget, null);
    }

    /** @param unforcedFiles where writes await a group force; null forces this file on its own */
    public OnDemandMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory,
                              MappingBudget budget, UnforcedFiles unforcedFiles) throws IOException {
        this(directory, fileFromOffset, fileSize, nativeMemory, budget, unforcedFiles, FileSpace.SPARSE);
    }

    /** An existing file of a store opened read-only: opened for reading, mapped {@code READ_ONLY} when used. */
    public static OnDemandMappedFile readOnly(Path directory, long fileFromOffset, int fileSize,
                                              NativeMemory nativeMemory, MappingBudget budget) throws IOException {
        return new OnDemandMappedFile(directory, fileFromOffset, fileSize, nativeMemory, budget, null,
                FileSpace.READ_ONLY);
    }

    private OnDemandMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory,
                               MappingBudget budget, UnforcedFiles unforcedFiles, FileSpace space) throws IOException {
        super(directory, fileFromOffset, fileSize, nativeMemory, true, space, false);
        this.space = space;
        FileChannel opened = takeChannel();
        if (createdFile()) {
            creationChannel = opened;
            try {
                if (unforcedFiles != null) {
                    // forced with the next full flush, or this file's own flush, whichever comes first
                    pendingCreation = unforcedFiles.created(path(), createdDirectories());
                } else {
                    DurableFiles.forceCreation(path(), createdDirectories());
                }
            } catch (IOException e) {
                opened.close();
                throw e;
            }
        } else {
            opened.close(); // an existing file is opened again only when used: loading 100 000 queues opens none
        }
        this.budget = Objects.requireNonNull(budget, "budget");
        this.unforcedFiles = unforcedFiles;
    }

    /** None: an idle file is unmapped and mapped again elsewhere, so a kept view would outlive its mapping. */
    @Override
    public java.nio.ByteBuffer wholeFileReadView() {
        return null;
    }

    /** Takes a reference, mapping the file first when it is parked; false when shut down or it cannot be mapped. */
    @Override
    public boolean hold() {
        return hold(true);
    }

    /** Takes a reference; maps the file first when {@code map} and it is not mapped. */
    private boolean hold(boolean map) {
        boolean again;
        synchronized (this) {
            if (!super.hold()) {
                return false;
            }
            if (!recentlyUsed) {
                recentlyUsed = true;
            }
            if (!map || isMapped()) {
                return true;
            }
            try {
                writeChannel = creationChannel != null ? creationChannel
                        : FileChannel.open(path(), space.reopenOptions());
                creationChannel = null;
                mapNow(writeChannel);
            } catch (IOException e) {
                LOG.error("could not map {}: {}", path(), e.getMessage());
                closeWriteChannel();
                super.release();
                return false;
            }
            again = everMapped;
            everMapped = true;
        }
        budget.onMapped(this, again);
        return true;
    }

    /** Clears and returns the used-since-last-look bit (the clock's second chance). */
    boolean takeRecentlyUsed() {
        if (recentlyUsed) {
            recentlyUsed = false;
            return true;
        }
        return false;
    }

    /** Unmaps the file when nobody but itself holds a reference. */
    synchronized Park parkIfIdle() {
        if (!isAvailable() || !isMapped()) {
            return Park.NOT_MAPPED;
        }
        if (refCount() != 1) {
            return Park.IN_USE;
        }
        unmapNow();
        closeWriteChannel();
        return Park.PARKED;
    }

    /** None: the mapping is parked while idle, so a view kept by a writer could outlive it. */
    @Override
    public ByteBuffer concurrentWriteView() {
        return null;
    }

    @Override
    public boolean appendBytes(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        space.refuseWrite(path());
        int current = wrotePosition.get();
        if ((long) current + length > fileSize()) {
            return false;
        }
        boolean throughMapping = withinWrittenPage(current, length);
        if (!hold(throughMapping)) {
            LOG.error("append to {} refused: the file is shut down", path());
            return false;
        }
        if (unforcedFiles != null && !fileSystemKnown) {
            fileSystem = unforcedFiles.beforeFirstWrite(this);
            fileSystemKnown = true;
        }
        try {
            if (throughMapping) {
                ByteBuffer target = writerTarget();
                target.clear().position(current);
                target.put(data, offset, length);
            } else {
                ByteBuffer source = sourceView(data);
                source.limit(offset + length).position(offset);
                writeThroughChannel(source, current);
            }
            wrotePosition.set(current + length);
            // after the position moved: a group force that read the position before this write re-registers us
            if (!registeredUnforced && fileSystem != UnforcedFiles.NO_HANDLE && unforcedFiles != null) {
                registeredUnforced = true;
                unforcedFiles.written(this);
            }
            return true;
        } catch (IOException e) {
            LOG.error("append of {} bytes to {} at {} failed: {}", length, path(), current, e.toString());
            return false;
        } finally {
            release();
        }
    }

    /**
     * Writes {@code source} at {@code position} through the mapped file's channel, or, while the file is not mapped,
     * through the creation channel or one opened for this write, closed after it. The caller holds a reference, so
     * a mapped file's channel stays open (a file is parked only when its own reference is the only one).
     */
    private void writeThroughChannel(ByteBuffer source, long position) throws IOException {
        FileChannel channel = writeChannel;
        FileChannel own = null;
        if (channel == null) {
            synchronized (this) {
                channel = writeChannel;
                if (channel == null) {
                    own = creationChannel;
                    creationChannel = null;
                }
            }
        }
        try {
            if (channel == null) {
                if (own == null) {
                    own = FileChannel.open(path(), StandardOpenOption.WRITE);
                }
                channel = own;
            }
            for (long at = position; source.hasRemaining(); ) {
                at += channel.write(source, at);
            }
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    /**
     * True when {@code [current, current + length)} lies in the page that holds byte {@code current - 1}, which the
     * previous append wrote: that page is in the page cache, so a store through the mapping costs no block
     * allocation and at most one minor fault per page, where a {@code pwrite} costs a system call per unit.
     */
    static boolean withinWrittenPage(int current, int length) {
        int page = DirtyPages.OS_PAGE_SIZE;
        return current > 0 && (current - 1) / page == (current + length - 1) / page;
    }

    /** One file's part of an {@link UnforcedFiles#forceAll()}: bytes {@code [from, to)} under a reference. */
    record GroupForce(OnDemandMappedFile file, long fileSystem, int from, int to) {

        /** The sync returned: the range is on the disk. */
        void complete() {
            try {
                if (file.flushedPosition() < to) {
                    file.flushedPosition(to);
                }
                ForceEvents.rangeForced(file.path(), from, to);
            } finally {
                file.release();
            }
        }

        /** No sync happened: claim nothing and let go (the file's own force covers it). */
        void release() {
            file.release();
        }

        /** The sync failed: claim nothing, stay registered for the next attempt. */
        void abandon(UnforcedFiles owner) {
            try {
                file.registeredUnforced = true;
                owner.written(file);
            } finally {
                file.release();
            }
        }
    }

    /**
     * Leaves the unforced list and reads the range a group force will cover, holding a reference (without mapping
     * the file) so it is not destroyed before the force is announced; null when there is nothing to force or the
     * file is shut down.
     */
    GroupForce prepareGroupForce() {
        registeredUnforced = false;
        int to = wrotePosition.get();
        int from = flushedPosition();
        if (to <= from) {
            return null;
        }
        synchronized (this) {
            if (!super.hold()) {
                return null;
            }
        }
        return new GroupForce(this, fileSystem, from, to);
    }

    private ByteBuffer sourceView(byte[] data) {
        if (data != lastSource) {
            lastSource = data;
            lastSourceView = ByteBuffer.wrap(data);
        }
        return lastSourceView.clear();
    }

    /**
     * Forces through the channel, which covers what was written through it and through the mapping alike; a new
     * file's length and name first, when no full flush has forced them yet.
     */
    @Override
    protected void forceToDisk(int from, int to) throws IOException {
        NewFiles.NewFile creation = pendingCreation;
        if (creation != null && creation.unforced().get()) {
            unforcedFiles.forceCreation(creation);
        }
        FileChannel channel = writeChannel;
        if (channel == null) {
            super.forceToDisk(from, to);
            return;
        }
        channel.force(false);
    }

    private void closeCreationChannel() {
        FileChannel creation;
        synchronized (this) {
            creation = creationChannel;
            creationChannel = null;
        }
        if (creation != null) {
            try {
                creation.close();
            } catch (IOException e) {
                LOG.warn("closing {} failed: {}", path(), e.toString());
            }
        }
    }

    private void closeWriteChannel() {
        FileChannel channel = writeChannel;
        writeChannel = null;
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.warn("closing {} failed: {}", path(), e.toString());
            }
        }
    }

    /** True while mapped (for tests and diagnostics). */
    public boolean mapped() {
        return isMapped();
    }

    @Override
    protected boolean cleanup(long currentRef) {
        boolean wasMapped = isMapped();
        boolean freed = super.cleanup(currentRef);
        if (freed) {
            closeCreationChannel(); // created and shut down before its first write or mapping
        }
        if (wasMapped && !isMapped()) {
            closeWriteChannel();
            budget.onClosed(this);
        }
        return freed;
    }
}
