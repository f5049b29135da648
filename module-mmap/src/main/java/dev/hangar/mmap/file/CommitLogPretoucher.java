package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the first-touch page faults of the CommitLog off the writer: a daemon thread keeps the pages from the
 * writer's next page up to {@code aheadBytes} past the write position of each watched queue's newest file
 * faulted in writable, so that a put writes into pages whose page-table entries already exist. The first store
 * into a page of a shared file mapping allocates and zeroes a page-cache page and calls {@code page_mkwrite},
 * which can take milliseconds on a loaded VM (docs/PERFORMANCE.md); it used to be paid under the put lock. Files of the {@code transient-pool} variant
 * ({@link PooledMappedFile}) are skipped: their appends go into a pooled buffer touched when the pool was built.
 *
 * <h2>Why it never races the writer</h2>
 * The writer may reach any page at any moment: between reading the write position and touching a page, the
 * writer can move into that page and fill it. So a touch must not <em>store</em> anything that could land over
 * the writer's bytes; a plain "write a zero into the page" (what {@link DefaultMappedFile#warmUp} does, safely
 * only because it runs before the file is handed out) would be a data race that can erase a message. The touch
 * here is made of two operations that leave every byte as it is, whatever the interleaving:
 * <ol>
 *   <li>{@code madvise(MADV_POPULATE_WRITE)} (Linux 5.14+): the kernel runs the write-fault path for each page
 *       (allocating the page-cache page, {@code page_mkwrite}, a writable page-table entry) without writing to
 *       the memory at all;</li>
 *   <li>then (alone where the kernel refuses the {@code madvise}) an atomic {@code getAndAdd(0)} on each page's
 *       first aligned int: an indivisible read-modify-write that stores back exactly the value it read. A store
 *       of the writer is ordered entirely before it (and is kept) or entirely after it (and wins), so no byte
 *       can change. It is the real store a hypervisor needs to back the page (see {@link #touch}).</li>
 * </ol>
 * A read would not do: the first read of a page of a shared file mapping maps it read-only, and the writer's
 * first store would still fault (write-protect fault plus {@code page_mkwrite}). Besides, pages are touched only
 * from the one after the writer's current page, so the writer's own page is never contended. The CommitLog's
 * blocks are reserved when it is created ({@link FileSpace#RESERVED}), so a touch never allocates disk blocks
 * and cannot hit a full disk. Touched pages become dirty zero pages past the write position; they hold the
 * zeros the file holds anyway, so a flush of them changes nothing on disk.
 *
 * <p>A file is touched only under {@link DefaultMappedFile#hold()}, so a file being unmapped or deleted is
 * skipped, never touched after its unmap. When the writer rolls to a new file, its first pages are still the
 * writer's own first touches until the pretoucher's next look (at most its idle sleep); with the read-ahead below
 * those pages are already in the page cache (read, not touched), so such a touch only maps them. Touching the
 * head of a file created ahead on the allocation thread was tried and dropped: the file waits for its turn
 * across write-backs (the kernel's background write-back, the thorough ConsumeQueue flush's {@code syncfs} when
 * many queue files wait), which write the touched pages back and write-protect them, and the writer's
 * write-protect fault on such a page costs several times a first touch (docs/PERFORMANCE.md). The same is why the
 * distance touched ahead is kept short (reading ahead leaves pages clean, so it can go further).
 *
 * <h2>Reading ahead further than touching</h2>
 * With a read-ahead distance ({@code readAheadBytes} &gt; 0), the pages from the touched end up to that distance
 * past the write position, across the roll into the head of the next file once it exists, are also brought into
 * the page cache, by reading them ({@link PageCacheReadAhead}). Without it, whenever the writer outran the touched
 * distance (this thread starved of a CPU for tens of milliseconds, or the first pages after a roll), the writer's
 * own fault on a page not in the cache read the pages around it first: on a reserved, unwritten CommitLog that is a
 * zero-fill of up to {@code read_ahead_kb} (8 MiB, 20-50 ms) inside one put (docs/PERFORMANCE.md). Behind the read
 * distance such a fault only maps a page that exists. Read pages are clean, so no write-back write-protects them,
 * and the distance can be long; the touch that follows maps pages that already exist, which is cheap.
 *
 * <p>Thread-safety: {@link #watch} from any thread; {@link #start()} and {@link #shutdown()} once each.
 */
public final class CommitLogPretoucher {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogPretoucher.class);
    private static final int PAGE = DirtyPages.OS_PAGE_SIZE;
    /**
     * Pages touched per step (1 MiB) before looking at the writer again: one {@code madvise} call per step, and a
     * step stays well under a millisecond.
     */
    private static final int PAGES_PER_STEP = 256;
    /**
     * Bytes read ahead per step at most (4 MiB), so that a long read-ahead refill never keeps this thread from
     * touching the writer's next pages for long: it looks at the writer again between steps.
     */
    private static final int READ_BYTES_PER_STEP = 4 << 20;
    /**
     * With only the next file's head read ({@code nextFileHeadBytes}): how close to its file's end the writer must
     * be before the head is read. Far enough that a head is in the cache before a writer at 1 GB/s gets there,
     * close enough that the allocation service has created the file by then (it creates it one roll ahead).
     */
    private static final long HEAD_READ_WINDOW = 64L << 20;
    /** Bytes of a next file's head read per step: a step stays short, so touching for the writer goes on. */
    private static final int HEAD_BYTES_PER_STEP = 1 << 20;
    private static final long SHUTDOWN_JOIN_MILLIS = 10_000;
    /** How long the looks find no work before the idle sleep grows. */
    private static final long IDLE_LOOKS_NANOS = 100_000_000L;
    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final NativeMemory nativeMemory;
    private final int aheadBytes;
    /** Whole pages of the distance that may be used up before the pretoucher touches again: half of it. */
    private final long refillSlack;
    /** How far past the write position pages are kept in the page cache by reading; 0 turns reading off. */
    private final int readAheadBytes;
    /** Bytes of the read distance that may be used up before reading again: half of it. */
    private final long readSlack;
    /** With no read distance: bytes at the head of the next file read before the writer rolls into it; 0 = none. */
    private final int nextFileHeadBytes;
    private final long idleParkNanos;
    /** The idle sleep, four times longer after a tenth of a second without work (see {@link IdleBackoff}). */
    private final IdleBackoff idle;
    /** Gives the page cache far behind the flushed position back to the kernel; null: never. */
    private final PageCacheRecycler recycler;
    /** Chooses 2 MiB pages region by region ahead of the writer; null: the kernel's default pages. */
    private final HugePageRegions hugePages;
    /** The allocation service's file at a path, once created ahead of the roll (else null). */
    private final Function<Path, MappedFile> createdAhead;
    private final CopyOnWriteArrayList<PretouchedQueue> watched = new CopyOnWriteArrayList<>();
    /** Queues no longer watched whose read channels the pretouch thread still has to close. */
    private final ConcurrentLinkedQueue<PretouchedQueue> unwatched = new ConcurrentLinkedQueue<>();
    private final AtomicLong pagesTouched = new AtomicLong();
    private final AtomicLong bytesReadAhead = new AtomicLong();
    private volatile boolean useReadAhead;
    private volatile boolean useMadvise;
    private volatile boolean running;
    private Thread thread;

    /**
     * @param nativeMemory the libc binding for {@code madvise}; when it fails the atomic touch is used
     * @param settings     the distances and the idle sleep
     */
    public CommitLogPretoucher(NativeMemory nativeMemory, PretouchSettings settings) {
        this(nativeMemory, settings, null, path -> null);
    }

    /**
     * @param hugePages    chooses the page size of each region before it is touched, and prepares the next file's
     *                     head in huge pages while the write rate calls for them; null leaves the pages to the kernel
     * @param createdAhead the allocation service's file at a path once it created it ahead of the roll, else null
     */
    public CommitLogPretoucher(NativeMemory nativeMemory, PretouchSettings settings, HugePageRegions hugePages,
                               Function<Path, MappedFile> createdAhead) {
        this.hugePages = hugePages;
        this.createdAhead = Objects.requireNonNull(createdAhead, "createdAhead");
        this.nativeMemory = Objects.requireNonNull(nativeMemory, "nativeMemory");
        this.aheadBytes = settings.aheadBytes();
        this.readAheadBytes = settings.readAheadBytes();
        this.readSlack = readAheadBytes / 2;
        this.nextFileHeadBytes = readAheadBytes > 0 ? 0 : settings.nextFileHeadBytes();
        this.useReadAhead = readAheadBytes > 0 || settings.nextFileHeadBytes() > 0;
        this.refillSlack = (long) aheadBytes / 2 / PAGE * PAGE;
        this.idleParkNanos = settings.idleParkNanos();
        this.idle = new IdleBackoff(idleParkNanos, 4 * idleParkNanos,
                (int) Math.max(1, IDLE_LOOKS_NANOS / idleParkNanos));
        this.useMadvise = nativeMemory.isAvailable();
        this.recycler = settings.pageCacheKeepBytes() > 0
                ? new PageCacheRecycler(nativeMemory, settings.pageCacheKeepBytes()) : null;
    }

    /** Keeps the pages ahead of the write position of {@code queue}'s newest file touched from now on. */
    public void watch(MappedFileQueue queue) {
        watched.add(new PretouchedQueue(Objects.requireNonNull(queue, "queue")));
    }

    /** Stops watching {@code queue} (a queue that was shut down). */
    public void unwatch(MappedFileQueue queue) {
        for (PretouchedQueue w : watched) {
            if (w.queue == queue && watched.remove(w)) {
                unwatched.add(w);
            }
        }
        Thread t = thread;
        if (t == null || !t.isAlive()) {
            closeUnwatched();
        }
    }

    public synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "CommitLogPretoucher");
        thread.setDaemon(true);
        thread.start();
        LOG.info("CommitLog pretoucher started: {} bytes ahead of the write position, by {}; read into the page "
                + "cache {} bytes ahead, and the next file's first {} bytes before a roll; page cache {}", aheadBytes,
                useMadvise ? "madvise(MADV_POPULATE_WRITE)" : "atomic add of zero", readAheadBytes,
                readAheadBytes > 0 ? "(read with the distance)" : nextFileHeadBytes,
                recycler == null ? "left to the kernel" : "given back behind the flushed position");
        if (hugePages != null) {
            LOG.info("CommitLog pretoucher: 2 MiB pages for the regions written at {} MiB/s or more",
                    hugePages.onBytesPerSecond() >> 20);
        }
    }

    public synchronized void shutdown() {
        running = false;
        Thread t = thread;
        if (t == null) {
            return;
        }
        LockSupport.unpark(t);
        try {
            t.join(SHUTDOWN_JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean isRunning() {
        return running;
    }

    /** Pages touched so far, by either method. */
    public long pagesTouched() {
        return pagesTouched.get();
    }

    /** How far past the write position pages are read into the page cache (0: not at all). */
    public int readAheadBytes() {
        return readAheadBytes;
    }

    /** Bytes read into the page cache ahead of the writers so far. */
    public long bytesReadAhead() {
        return bytesReadAhead.get();
    }

    /** Bytes of page cache behind the flushed position given back to the kernel so far (0 when that is off). */
    public long bytesOfPageCacheDropped() {
        return recycler == null ? 0 : recycler.bytesDropped();
    }

    /** The page-size choice of the regions ahead of the writer, or null when the kernel chooses. */
    public HugePageRegions hugePages() {
        return hugePages;
    }

    /** True while pages are touched by {@code madvise}; false once it failed and the atomic touch took over. */
    public boolean usesMadvise() {
        return useMadvise;
    }

    /**
     * The position of {@code file} up to which pages are touched (0 when it is not the newest file of a watched
     * queue or nothing was touched yet).
     */
    public int touchedUpTo(MappedFile file) {
        for (PretouchedQueue w : watched) {
            if (w.file == file) {
                return w.touchedEnd;
            }
        }
        return 0;
    }

    private void run() {
        while (running) {
            int touched = 0;
            try {
                touched = touchStep();
            } catch (RuntimeException e) {
                LOG.warn("pretouch step failed; carrying on: {}", e.toString());
            }
            closeUnwatched();
            long park = idle.afterLook(touched != 0);
            if (park > 0 && running) {
                LockSupport.parkNanos(this, park);
            }
        }
        for (PretouchedQueue w : watched) {
            w.closeReaders();
        }
        closeUnwatched();
    }

    private void closeUnwatched() {
        for (PretouchedQueue w; (w = unwatched.poll()) != null; ) {
            w.closeReaders();
        }
    }

    /**
     * One step over every watched queue: each queue whose touched distance is down to half is touched up to the
     * full distance again, {@link #PAGES_PER_STEP} pages per call; then its read distance likewise, at most
     * {@link #READ_BYTES_PER_STEP} per step. Pages touched or read (0: nothing to do, time to sleep).
     */
    int touchStep() {
        int done = 0;
        for (PretouchedQueue w : watched) {
            done += touchAhead(w);
            done += readAhead(w);
            if (recycler != null) {
                long before = w.droppedUpTo;
                w.droppedUpTo = recycler.dropBehind(w.queue, before);
                // a step counts as work, so the thread looks again at once while the queue is far behind
                done += before >= 0 && w.droppedUpTo > before ? 1 : 0;
            }
        }
        return done;
    }

    private int touchAhead(PretouchedQueue w) {
        MappedFile newest = w.queue.getLastMappedFile();
        if (!(newest instanceof DefaultMappedFile file) || file instanceof PooledMappedFile) {
            return 0;
        }
        if (w.file != file) {
            if (hugePages != null) {
                hugePages.newestFile(w.track, file, offset -> w.queue.findMappedFileByOffset(offset, false));
            }
            w.file = file;
            w.touchedEnd = 0;
        }
        int wrote = file.wrotePosition();
        if (hugePages != null) {
            hugePages.observe(w.track, file.fileFromOffset() + wrote, System.nanoTime());
        }
        long writersNextPage = ((long) wrote / PAGE + 1) * PAGE;
        long from = Math.max(w.touchedEnd, writersNextPage);
        // page aligned, so that the next step's madvise starts on a page boundary
        long target = Math.min(file.fileSize(), ((long) wrote + aheadBytes + PAGE - 1) / PAGE * PAGE);
        // refill only once half the distance is used up (or to finish the file), and then all the way, so the
        // madvise calls cover many pages each instead of following the writer page by page
        boolean refill = from < target && (from + refillSlack < target || target == file.fileSize());
        if (!refill || !file.hold()) {
            return 0;
        }
        int pages = 0;
        try {
            MappedByteBuffer mapping = file.mappingForPretouch();
            if (mapping == null) {
                return 0;
            }
            while (from < target) {
                long to = Math.min(target, from + (long) PAGES_PER_STEP * PAGE);
                if (hugePages != null) {
                    hugePages.beforeTouch(w.track, file, mapping, from, to);
                }
                touch(mapping, (int) from, (int) to);
                w.touchedEnd = (int) to;
                pages += (int) ((to - from + PAGE - 1) / PAGE);
                from = to;
            }
        } finally {
            file.release();
        }
        pagesTouched.addAndGet(pages);
        return pages;
    }

    /**
     * Reads the newest file from its read end (or the writer's page) up to {@code readAheadBytes} past the write
     * position, once half of that distance is used up; the part of the distance past the file's end is read from
     * the head of the next file when it exists already (created ahead by the allocation service). Pages read.
     */
    private int readAhead(PretouchedQueue w) {
        MappedFile newest = w.file;
        if (!useReadAhead || !(newest instanceof DefaultMappedFile file)) {
            return 0;
        }
        long fileSize = file.fileSize();
        long wrote = file.wrotePosition();
        long target = wrote + readAheadBytes;
        try {
            if (!file.path().equals(w.current.path()) && file.path().equals(w.next.path())) {
                // the writer rolled into the file whose head was read: carry on from there
                PageCacheReadAhead rolledInto = w.next;
                w.next = w.current;
                w.current = rolledInto;
            }
            if (readAheadBytes == 0) {
                return readNextFileHead(w, file, fileSize - wrote);
            }
            long read = 0;
            long currentEnd = file.path().equals(w.current.path()) ? w.current.readUpTo() : 0;
            long currentTarget = Math.min(fileSize, target);
            long from = Math.max(currentEnd, wrote / PAGE * PAGE);
            if (from < currentTarget && (from + readSlack <= currentTarget || currentTarget == fileSize)) {
                read += w.current.readAhead(file.path(), from, Math.min(currentTarget, from + READ_BYTES_PER_STEP));
            }
            long headTarget = target - fileSize;
            if (headTarget > 0 && read == 0) {
                Path next = w.nextPathOf(file);
                long headEnd = next.equals(w.next.path()) ? w.next.readUpTo() : 0;
                if (headEnd + readSlack <= headTarget || (headEnd == 0 && headTarget >= PAGE)) {
                    read += w.next.readAhead(next, headEnd, Math.min(headTarget, headEnd + READ_BYTES_PER_STEP));
                }
            }
            bytesReadAhead.addAndGet(read);
            return (int) ((read + PAGE - 1) / PAGE);
        } catch (IOException e) {
            useReadAhead = false;
            w.closeReaders();
            LOG.warn("reading the CommitLog ahead of the writer failed ({}); from now on pages are only touched, {} "
                    + "bytes ahead", e.toString(), aheadBytes);
            return 0;
        }
    }

    /**
     * Reads the first {@link #nextFileHeadBytes} of the file after {@code file} into the page cache once the writer
     * is within {@link #HEAD_READ_WINDOW} of {@code file}'s end, a megabyte per step. The writer's first store into
     * a new file is otherwise the one store per file that always finds its page outside the cache (the touch
     * distance stops at the file's end), and the kernel's read-around then zero-fills up to {@code read_ahead_kb}
     * inside that put: one 20-50 ms stall per roll on this project's VM (docs/PERFORMANCE.md). Reading all of the
     * file ahead costs every byte a read; the head costs a few megabytes per file. Pages read.
     */
    private int readNextFileHead(PretouchedQueue w, DefaultMappedFile file, long bytesToEnd) throws IOException {
        if (bytesToEnd > HEAD_READ_WINDOW) {
            return 0;
        }
        Path next = w.nextPathOf(file);
        long headEnd = next.equals(w.next.path()) ? w.next.readUpTo() : 0;
        if (headEnd >= nextFileHeadBytes) {
            return 0;
        }
        if (hugePages != null) {
            int pages = hugePages.prepareNextHead(w.track, next, createdAhead, nextFileHeadBytes, HEAD_BYTES_PER_STEP);
            if (pages >= 0) {
                return pages;
            }
        }
        long read = w.next.readAhead(next, headEnd, Math.min(nextFileHeadBytes, headEnd + HEAD_BYTES_PER_STEP));
        bytesReadAhead.addAndGet(read);
        return (int) ((read + PAGE - 1) / PAGE);
    }

    /**
     * Faults [from, to) in writable; {@code from} is page aligned. Never changes a byte (see the class doc). The
     * {@code madvise} maps the pages in one call per step (a fraction of the cost of one fault per page, folio
     * by folio); the atomic add of zero that follows is still needed under a hypervisor that backs guest memory
     * lazily: the kernel's new page-cache page may be guest memory the host has not backed yet (given back by
     * free-page reporting), and only the first real store to it makes the host back it, invisible to the guest's
     * fault counters (about 2 us per page on the VM of docs/PERFORMANCE.md). On bare metal the add costs a cache miss.
     */
    private void touch(MappedByteBuffer mapping, int from, int to) {
        if (useMadvise && !nativeMemory.madvise(mapping.slice(from, to - from), to - from,
                LibC.MADV_POPULATE_WRITE)) {
            useMadvise = false;
            LOG.info("madvise(MADV_POPULATE_WRITE) is not available ({}): pretouching by an atomic add of zero",
                    nativeMemory.lastFailure());
        }
        for (int page = from; page < to; page += PAGE) {
            INTS.getAndAdd(mapping, page, 0);
        }
    }

    @Override
    public String toString() {
        return "CommitLogPretoucher[" + aheadBytes + " bytes ahead, read " + readAheadBytes + " bytes ahead, "
                + watched.size() + " queues, " + idleParkNanos / 1000 + "-" + 4 * idleParkNanos / 1000 + " us idle]";
    }
}
