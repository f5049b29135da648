package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
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
 * writer's own first touches until the pretoucher's next look (at most its idle sleep). Touching the head of a
 * file created ahead on the allocation thread was tried and dropped: the file waits for its turn across write-backs
 * (the kernel's background write-back, the thorough ConsumeQueue flush's {@code syncfs} when many queue files
 * wait), which write the touched pages back and write-protect them, and the writer's write-protect fault on such a
 * page costs several times a first touch (docs/PERFORMANCE.md). The same is why the distance ahead is kept short.
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
    private static final long SHUTDOWN_JOIN_MILLIS = 10_000;
    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final NativeMemory nativeMemory;
    private final int aheadBytes;
    /** Whole pages of the distance that may be used up before the pretoucher touches again: half of it. */
    private final long refillSlack;
    private final long idleParkNanos;
    private final CopyOnWriteArrayList<Watched> watched = new CopyOnWriteArrayList<>();
    private final AtomicLong pagesTouched = new AtomicLong();
    private volatile boolean useMadvise;
    private volatile boolean running;
    private Thread thread;

    /**
     * @param nativeMemory  the libc binding for {@code madvise}; when it fails the atomic touch is used
     * @param aheadBytes    how far past the write position pages are kept faulted in (at least one page)
     * @param idleParkNanos how long the thread sleeps when every watched file is touched far enough ahead
     */
    public CommitLogPretoucher(NativeMemory nativeMemory, int aheadBytes, long idleParkNanos) {
        this.nativeMemory = Objects.requireNonNull(nativeMemory, "nativeMemory");
        if (aheadBytes < PAGE) {
            throw new IllegalArgumentException("the pretouch distance must be at least one page (" + PAGE
                    + " bytes): " + aheadBytes);
        }
        if (idleParkNanos <= 0) {
            throw new IllegalArgumentException("idleParkNanos must be positive: " + idleParkNanos);
        }
        this.aheadBytes = aheadBytes;
        this.refillSlack = (long) aheadBytes / 2 / PAGE * PAGE;
        this.idleParkNanos = idleParkNanos;
        this.useMadvise = nativeMemory.isAvailable();
    }

    /** Keeps the pages ahead of the write position of {@code queue}'s newest file touched from now on. */
    public void watch(MappedFileQueue queue) {
        watched.add(new Watched(Objects.requireNonNull(queue, "queue")));
    }

    /** Stops watching {@code queue} (a queue that was shut down). */
    public void unwatch(MappedFileQueue queue) {
        watched.removeIf(w -> w.queue == queue);
    }

    public synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "CommitLogPretoucher");
        thread.setDaemon(true);
        thread.start();
        LOG.info("CommitLog pretoucher started: {} bytes ahead of the write position, by {}", aheadBytes,
                useMadvise ? "madvise(MADV_POPULATE_WRITE)" : "atomic add of zero");
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

    /** True while pages are touched by {@code madvise}; false once it failed and the atomic touch took over. */
    public boolean usesMadvise() {
        return useMadvise;
    }

    /**
     * The position of {@code file} up to which pages are touched (0 when it is not the newest file of a watched
     * queue or nothing was touched yet).
     */
    public int touchedUpTo(MappedFile file) {
        for (Watched w : watched) {
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
            if (touched == 0 && running) {
                LockSupport.parkNanos(this, idleParkNanos);
            }
        }
    }

    /**
     * One step over every watched queue: each queue whose touched distance is down to half is touched up to the
     * full distance again, {@link #PAGES_PER_STEP} pages per call. Pages touched.
     */
    int touchStep() {
        int touched = 0;
        for (Watched w : watched) {
            touched += touchAhead(w);
        }
        return touched;
    }

    private int touchAhead(Watched w) {
        MappedFile newest = w.queue.getLastMappedFile();
        if (!(newest instanceof DefaultMappedFile file) || file instanceof PooledMappedFile) {
            return 0;
        }
        if (w.file != file) {
            w.file = file;
            w.touchedEnd = 0;
        }
        int wrote = file.wrotePosition();
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
        return "CommitLogPretoucher[" + aheadBytes + " bytes ahead, " + watched.size() + " queues, "
                + TimeUnit.NANOSECONDS.toMicros(idleParkNanos) + " us idle]";
    }

    /** A watched queue and how far its newest file is touched: written by the pretouch thread, read by any. */
    private static final class Watched {
        final MappedFileQueue queue;
        volatile MappedFile file;
        volatile int touchedEnd;

        Watched(MappedFileQueue queue) {
            this.queue = queue;
        }
    }
}
