package dev.hangar.mmap.file;

import dev.hangar.spi.mapped.MappedFile;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Chooses the page size of the CommitLog ahead of its writer, one 2 MiB region at a time, by the rate the log is
 * written at: {@link CommitLogPretoucher} asks before it touches a region, and a region it advises
 * ({@link HugePageAdvice}) is then made of one 2 MiB page.
 *
 * <p>Why by the rate: a write-back writes a dirty 2 MiB page whole, so the page holding the write position is
 * written again by every async flush (every {@code flushIntervalCommitLog}) until the writer leaves it. With flush
 * interval {@code I} and write rate {@code r} the device writes up to {@code r + 2 MiB / I} bytes per second: at
 * 1 MiB/s and 500 ms, five times the data (measured: 103.6 MB on the device for 19.5 MB of 1 KiB puts in 20 s,
 * against 24.0 MB with 4 KiB pages, docs/PERFORMANCE.md section 47). At a high rate that is a few per cent, and 2 MiB
 * pages save the flush its per-page write-protects (a TLB-flush interrupt each), about 1 µs per 1 KiB message. So a
 * region is advised while the rate is at least {@code 16 MiB / I} (32 MiB/s at 500 ms: at most 1/8 more bytes
 * written), and not once it fell below half of that (hysteresis, so a rate near the line does not alternate the
 * advice region by region; each change of advice splits the file's mapping in two).
 *
 * <p>The rate is measured by the pretouch thread from the queue's write offset, over samples at least
 * {@value #SAMPLE_NANOS} ns apart; a new queue starts with 2 MiB pages for the regions it touches until the first
 * sample. A region the writer
 * has already entered is left as it is (its pages exist). The next file's head, which the pretoucher otherwise reads
 * through a channel before the roll (the kernel's file read-ahead then makes small pages), is advised and faulted in
 * readable through the file's own mapping when the rate calls for huge pages and the allocation service has created
 * the file already ({@link #prepareNextHead}).
 *
 * <p>Thread-safety: everything but the counters from the pretouch thread only.
 */
public final class HugePageRegions {
    /** One decision covers one transparent huge page. */
    public static final int REGION = HugePageAdvice.HUGE_PAGE;
    /** The rate is sampled at most this often. */
    static final long SAMPLE_NANOS = 100_000_000L;
    /**
     * How far past the pages about to be touched regions are decided. A fault on a region left to 4 KiB pages reads
     * around it through the file's read-ahead window ({@code read_ahead_kb}, 8 MiB on the VM of
     * docs/PERFORMANCE.md, and one window more asynchronously), filling the regions after it with small folios; a
     * region advised only once that happened keeps them. Advice costs no memory, so it is given this far ahead.
     */
    public static final long DECIDE_AHEAD = 16L * 1024 * 1024;

    private final HugePageAdvice advice;
    private final long onBytesPerSecond;
    private final long offBytesPerSecond;
    private final AtomicLong hugeRegions = new AtomicLong();
    private final AtomicLong smallRegions = new AtomicLong();
    private final AtomicLong rateSamples = new AtomicLong();

    /**
     * @param advice               gives the advice; must be {@link HugePageAdvice#effective()}
     * @param flushIntervalMillis  {@code flushIntervalCommitLog}: how often the page at the write position is written
     */
    public HugePageRegions(HugePageAdvice advice, int flushIntervalMillis) {
        this.advice = Objects.requireNonNull(advice, "advice");
        if (flushIntervalMillis <= 0) {
            throw new IllegalArgumentException("flushIntervalMillis must be positive: " + flushIntervalMillis);
        }
        this.onBytesPerSecond = 8L * REGION * 1000 / flushIntervalMillis;
        this.offBytesPerSecond = onBytesPerSecond / 2;
    }

    /** The write rate from which regions get huge pages, in bytes per second. */
    public long onBytesPerSecond() {
        return onBytesPerSecond;
    }

    /** Regions advised huge pages so far. */
    public long hugeRegions() {
        return hugeRegions.get();
    }

    /**
     * {@code files} with the first {@code headBytes} of each new file (whole regions) advised 2 MiB pages and no
     * read-around when it is created, before anyone touches it: the writer's first store into a file, which comes
     * before the pretoucher's first look after a roll (and at a store's start), then makes a 2 MiB page instead of
     * reading around it with small ones, which filled the next regions with small folios before they could be
     * advised. Whether the head is then faulted in as 2 MiB pages ({@link #prepareNextHead}) or read through a
     * channel as small ones (the rate is low) is the pretoucher's choice; only the head of a file written slowly
     * keeps the advice for nothing (a few megabytes per file). Files without a mapping of their own are left as
     * they are.
     */
    public MappedFileFactory adviseHeads(MappedFileFactory files, int headBytes) {
        Objects.requireNonNull(files, "files");
        long head = Math.max(REGION, (long) (headBytes + REGION - 1) / REGION * REGION);
        return (directory, fileFromOffset, fileSize) -> {
            MappedFile file = files.create(directory, fileFromOffset, fileSize);
            if (file instanceof DefaultMappedFile mapped && file.wrotePosition() == 0) {
                adviseHuge(mapped.mappingForPretouch(), 0, Math.min(head, fileSize));
            }
            return file;
        };
    }

    /** Regions left to 4 KiB pages so far (rate too low, or the writer was there first). */
    public long smallRegions() {
        return smallRegions.get();
    }

    /** Write rates measured so far (one per sample window of every queue). */
    public long rateSamples() {
        return rateSamples.get();
    }

    /** One queue's rate and decisions. Pretouch thread only. */
    static final class Track {
        private long sampleNanos = -1;
        private long sampleOffset;
        /**
         * Huge until the first sample says the rate is low: a queue that started with 4 KiB pages would have its
         * first faults start a read-ahead stream that fills the next tens of megabytes with small folios before
         * the rate is known; a slow queue instead writes the regions touched before the first sample (the touch
         * distance and what it wrote in 100 ms) in 2 MiB pages, once.
         */
        private boolean huge = true;
        /** True once a sample measured the rate; until then regions are decided only as far as they are touched. */
        private boolean measured;
        /** The newest file and how far its regions are decided (a region below this is decided). */
        private MappedFile file;
        private long decidedUpTo;
        /** The queue's newest file at the pretoucher's last look ({@link #newestFile}). */
        private MappedFile newest;
        /** The next file whose head {@link #prepareNextHead} advised, and how far it is advised and faulted in. */
        private MappedFile headFile;
        private long headAdvisedUpTo;
        private long headPopulatedUpTo;

        boolean huge() {
            return huge;
        }
    }

    /** Takes a sample of the queue's write offset (the newest file's start plus its write position). */
    void observe(Track t, long writeOffset, long nanos) {
        if (t.sampleNanos < 0 || writeOffset < t.sampleOffset) {
            t.sampleNanos = nanos;
            t.sampleOffset = writeOffset;
            return;
        }
        long elapsed = nanos - t.sampleNanos;
        if (elapsed < SAMPLE_NANOS) {
            // a burst after a quiet spell is seen before its window ends: on at once, so it does not write a whole
            // window in small pages
            if (!t.huge && (writeOffset - t.sampleOffset) * 1e9 >= (double) onBytesPerSecond * SAMPLE_NANOS) {
                t.huge = true;
                t.measured = true;
            }
            return;
        }
        double rate = (writeOffset - t.sampleOffset) * 1e9 / elapsed;
        t.measured = true;
        rateSamples.incrementAndGet();
        if (rate >= onBytesPerSecond) {
            t.huge = true;
        } else if (rate < offBytesPerSecond) {
            t.huge = false;
        }
        t.sampleNanos = nanos;
        t.sampleOffset = writeOffset;
    }

    /**
     * Decides every region of {@code file} not decided yet that starts in {@code [from, to)}, the pages about to be
     * touched, and while the rate calls for huge pages also those up to {@link #DECIDE_AHEAD} past them: advised huge
     * pages then, left to 4 KiB pages otherwise. A region that starts before {@code from} holds the writer's own
     * pages: left as it is. Call under {@link DefaultMappedFile#hold()}.
     */
    void beforeTouch(Track t, DefaultMappedFile file, MappedByteBuffer mapping, long from, long to) {
        if (t.file != file) {
            if (t.file instanceof DefaultMappedFile written) {
                readAroundAgain(written);
            }
            t.file = file;
            t.decidedUpTo = file == t.headFile ? t.headAdvisedUpTo : 0;
        }
        long firstAhead = (from + REGION - 1) / REGION * REGION;
        if (t.decidedUpTo < firstAhead) {
            t.decidedUpTo = firstAhead;
        }
        // 4 KiB pages need no advice, so a region is left small only once it is touched: the rate may rise before.
        // Before the first sample there is no read-ahead stream to outrun (nothing was faulted small yet), and a
        // slow queue should not start with more regions advised than it touches
        long decideTo = t.huge && t.measured ? to + DECIDE_AHEAD : to;
        for (long region = t.decidedUpTo; region < decideTo && region < file.fileSize(); region += REGION) {
            decide(t.huge, mapping, region, file.fileSize());
            t.decidedUpTo = region + REGION;
        }
    }

    private void decide(boolean huge, MappedByteBuffer mapping, long region, int fileSize) {
        int length = (int) Math.min(REGION, fileSize - region);
        if (huge && adviseHuge(mapping, region, length)) {
            hugeRegions.incrementAndGet();
        } else {
            advice.noReadAround(mapping, (int) region, length);
            smallRegions.incrementAndGet();
        }
    }

    /**
     * 2 MiB pages and no read-around for {@code [from, from + length)} ({@link HugePageAdvice} gives both). Every
     * region ahead of the writer is advised no read-around, the small ones too ({@link #decide}): a fault on a small page otherwise reads around it through the file's
     * read-ahead, and the stream it starts runs on ahead of the faults, page-cache index by index, into the regions
     * after it, filling them with small folios before they are touched (probes: after a switch from small to huge
     * regions, 8 of the next 40 MiB touched were 2 MiB pages without the advice on the huge ones, 32 with it; with
     * the small ones advised as well, the switch is clean). The advice is taken back when the writer leaves the file
     * ({@link #readAroundAgain}).
     */
    private boolean adviseHuge(MappedByteBuffer mapping, long from, long length) {
        return advice.advise(mapping, (int) from, (int) length);
    }

    /**
     * The pretoucher found {@code entered} as the queue's newest file. A file the writer went through whole since
     * the last look (small files, or a pretoucher held up) was never touched ahead, so it still has the no-read-around
     * advice its head got when it was created ({@link #adviseHeads}): it gets the kernel's read-around back here, as
     * a file the writer left does in {@link #beforeTouch}. {@code fileAt} gives the queue's file holding an offset.
     */
    void newestFile(Track t, MappedFile entered, LongFunction<MappedFile> fileAt) {
        MappedFile last = t.newest;
        t.newest = entered;
        if (last == null) {
            return;
        }
        for (long offset = last.fileFromOffset() + last.fileSize(); offset < entered.fileFromOffset();
                offset += last.fileSize()) {
            if (fileAt.apply(offset) instanceof DefaultMappedFile crossed && crossed != last) {
                readAroundAgain(crossed);
            }
        }
    }

    /** The writer left {@code written}: the kernel's read-around again for whoever reads it from disk later. */
    private void readAroundAgain(DefaultMappedFile written) {
        if (written.hold()) {
            try {
                advice.readAroundAgain(written.mappingForPretouch(), written.fileSize());
            } finally {
                written.release();
            }
        }
    }

    /**
     * While the rate calls for huge pages: advises the first {@code headBytes} of the next file (rounded up to whole
     * regions) and faults in readable at most {@code stepBytes} more of it per call, through its own mapping.
     * {@code createdAhead} gives the file at a path if the allocation service has created it already. Returns the
     * pages faulted in (0: done or nothing to do this step), or -1 when this is not for huge pages here (the rate is
     * low, the file is not created yet, or a call failed): the caller reads the head through a channel then, as
     * without huge pages.
     */
    int prepareNextHead(Track t, Path next, Function<Path, MappedFile> createdAhead, int headBytes, int stepBytes) {
        if (!t.huge) {
            return -1;
        }
        if (t.headFile != null && t.headFile.path().equals(next)) {
            return populateHead(t, headBytes, stepBytes);
        }
        if (!(createdAhead.apply(next) instanceof DefaultMappedFile file) || file.wrotePosition() != 0) {
            return -1;
        }
        if (!file.hold()) {
            return -1;
        }
        try {
            MappedByteBuffer mapping = file.mappingForPretouch();
            long advised = Math.min(file.fileSize(), (long) (headBytes + REGION - 1) / REGION * REGION);
            if (mapping == null || !adviseHuge(mapping, 0, advised)) {
                return -1;
            }
            hugeRegions.addAndGet((advised + REGION - 1) / REGION);
            t.headFile = file;
            t.headAdvisedUpTo = advised;
            t.headPopulatedUpTo = 0;
        } finally {
            file.release();
        }
        return populateHead(t, headBytes, stepBytes);
    }

    private int populateHead(Track t, int headBytes, int stepBytes) {
        DefaultMappedFile file = (DefaultMappedFile) t.headFile;
        long end = Math.min(headBytes, t.headAdvisedUpTo);
        if (t.headPopulatedUpTo >= end || !file.hold()) {
            return 0;
        }
        try {
            int from = (int) t.headPopulatedUpTo;
            int length = (int) Math.min(stepBytes, end - from);
            if (!advice.populateRead(file.mappingForPretouch(), from, length)) {
                return -1;
            }
            t.headPopulatedUpTo = from + length;
            return (length + DirtyPages.OS_PAGE_SIZE - 1) / DirtyPages.OS_PAGE_SIZE;
        } finally {
            file.release();
        }
    }
}
