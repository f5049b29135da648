package dev.hangar.mmap.provider;

import dev.hangar.mmap.allocate.AllocateMappedFileService;
import dev.hangar.mmap.file.CommitLogPretoucher;
import dev.hangar.mmap.file.PretouchSettings;
import dev.hangar.mmap.file.DefaultMappedFile;
import dev.hangar.mmap.file.HugePageAdvice;
import dev.hangar.mmap.file.HugePageRegions;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.file.MappingBudget;
import dev.hangar.mmap.file.OnDemandMappedFile;
import dev.hangar.mmap.file.CopyOnWriteMappedFile;
import dev.hangar.mmap.file.PooledMappedFile;
import dev.hangar.mmap.file.UnforcedFiles;
import dev.hangar.mmap.file.UnmapBeforeForceMappedFile;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.pool.TransientStorePool;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.QueueRole;
import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The three built-in variants: every queue writes into its mapping, except that with a write-buffer pool the
 * CommitLog queues write into pooled buffers that are committed to the file channel, and with
 * {@code write-window} into a private mapping of the file that is committed the same way. CommitLog queues get their
 * files from the allocation service (created ahead, blocks reserved); with {@code warmMapedFileEnable} the
 * {@code mmap} variant also runs a {@link CommitLogPretoucher} that faults in the pages ahead of the writer.
 * Other roles create files on demand. ConsumeQueue files are sparse and mapped only while a
 * {@link MappingBudget} of {@code maxMappedConsumeQueueFiles} allows (idle ones are unmapped and mapped again
 * when used), so thousands of queues cost neither gigabytes of reserved blocks nor more mappings than the
 * kernel grants.
 *
 * <p>Thread-safe: {@link #openQueue} from any thread; {@link #start()} and {@link #shutdown()} once each, before
 * the first and after the last use of its queues.
 */
public final class DefaultMappedStorage implements MappedStorage {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMappedStorage.class);

    private final String variant;
    private final NativeMemory nativeMemory;
    private final TransientStorePool pool;
    /** CommitLog appends are readable only once committed (transient-pool, write-window). */
    private final boolean writesThroughBuffer;
    private final AllocateMappedFileService allocator;
    /**
     * Sleep of the pretoucher between looks at the writer: 1 ms is 400 KB at 400 MB/s of appends, far less than the
     * half of pretouchAheadBytes it lets the writer use up before it touches again.
     */
    private static final long PRETOUCH_IDLE_PARK_NANOS = 1_000_000;
    private final CommitLogPretoucher pretoucher;
    private final MappedFileFactory plainFiles;
    private final MappedFileFactory commitLogFiles;
    /** {@code transparentHugePages}: what {@link #adviseHugePages} and the CommitLog files get. */
    private final HugePageAdvice hugePages;
    /** True when the pretoucher gives the CommitLog 2 MiB pages while it is written fast. */
    private final boolean commitLogHugePages;
    private final MappingBudget consumeQueueMappings;
    private final MappedFileFactory consumeQueueFiles;
    /** ConsumeQueue files with writes not yet forced: a full flush forces them with one syncfs. */
    private final UnforcedFiles unforcedConsumeQueueFiles;
    private boolean started;
    private boolean shutDown;

    /** How CommitLog appends reach the file: one value per variant. */
    public enum CommitLogWrites {
        /** {@code mmap}: into the shared mapping. */
        THROUGH_MAPPING,
        /** {@code transient-pool}: into a pooled file-sized buffer, committed with {@code pwrite}. */
        POOLED_BUFFER,
        /** {@code write-window}: into a private mapping, committed with {@code pwrite}, pages given back. */
        PRIVATE_MAPPING
    }

    /**
     * @param usePool true for {@code transient-pool}: CommitLog files write into buffers from a pool of
     *                {@code transientStorePoolSize} buffers of {@code mappedFileSizeCommitLog} bytes
     */
    public DefaultMappedStorage(StoreConfig config, boolean usePool, NativeMemory nativeMemory) {
        this(config, usePool ? CommitLogWrites.POOLED_BUFFER : CommitLogWrites.THROUGH_MAPPING, nativeMemory);
    }

    public DefaultMappedStorage(StoreConfig config, CommitLogWrites writes, NativeMemory nativeMemory) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(writes, "writes");
        boolean usePool = writes == CommitLogWrites.POOLED_BUFFER;
        this.variant = switch (writes) {
            case THROUGH_MAPPING -> MmapStorageProvider.NAME;
            case POOLED_BUFFER -> TransientPoolStorageProvider.NAME;
            case PRIVATE_MAPPING -> WriteWindowStorageProvider.NAME;
        };
        this.nativeMemory = Objects.requireNonNull(nativeMemory, "nativeMemory");
        this.plainFiles = (dir, offset, size) -> new DefaultMappedFile(dir, offset, size, this.nativeMemory);
        this.consumeQueueMappings = new MappingBudget(
                withinFileDescriptors(config.get(StoreConfigKeys.MAX_MAPPED_CONSUME_QUEUE_FILES)));
        this.unforcedConsumeQueueFiles = new UnforcedFiles(nativeMemory);
        this.consumeQueueFiles = (dir, offset, size) -> new OnDemandMappedFile(dir, offset, size, this.nativeMemory,
                consumeQueueMappings, unforcedConsumeQueueFiles);
        this.hugePages = config.get(StoreConfigKeys.TRANSPARENT_HUGE_PAGES) ? HugePageAdvice.of(this.nativeMemory)
                : HugePageAdvice.none();
        MappedFileFactory newCommitLogFiles;
        if (usePool) {
            this.pool = new TransientStorePool(config.get(StoreConfigKeys.TRANSIENT_STORE_POOL_SIZE),
                    config.commitLogFileSize(), nativeMemory);
            newCommitLogFiles = (dir, offset, size) -> new PooledMappedFile(dir, offset, size, pool,
                    this.nativeMemory);
        } else if (writes == CommitLogWrites.PRIVATE_MAPPING) {
            this.pool = null;
            newCommitLogFiles = (dir, offset, size) -> new CopyOnWriteMappedFile(dir, offset, size,
                    this.nativeMemory);
        } else {
            this.pool = null;
            // Under SYNC_FLUSH every put waits for a force: spare it write-protecting the written pages one by one.
            boolean unmapForcedPages = "SYNC_FLUSH".equals(config.get(StoreConfigKeys.FLUSH_DISK_TYPE))
                    ? config.get(StoreConfigKeys.SYNC_FLUSH_UNMAP_FORCED_PAGES)
                    : config.get(StoreConfigKeys.ASYNC_FLUSH_UNMAP_FORCED_PAGES);
            newCommitLogFiles = unmapForcedPages
                    ? (dir, offset, size) -> new UnmapBeforeForceMappedFile(dir, offset, size, this.nativeMemory)
                    : plainFiles;
        }
        // warmMapedFileEnable selects the pretoucher rather than warming whole files: see CommitLogPretoucher.
        // The transient-pool variant writes into pooled buffers, touched when the pool is built.
        // The write-window variant writes into a private mapping: touching the shared one ahead would not help it.
        this.writesThroughBuffer = writes != CommitLogWrites.THROUGH_MAPPING;
        boolean pretouch = pretouches(config) && !writesThroughBuffer;
        // 2 MiB pages come region by region from the pretoucher, by the write rate (see HugePageRegions)
        this.commitLogHugePages = pretouch && commitLogHugePages(config, writes) && hugePages.effective();
        HugePageRegions regions = commitLogHugePages
                ? new HugePageRegions(hugePages, config.get(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG)) : null;
        int headBytes = config.get(StoreConfigKeys.PRETOUCH_NEXT_FILE_HEAD_BYTES);
        this.commitLogFiles = regions != null ? regions.adviseHeads(newCommitLogFiles, headBytes) : newCommitLogFiles;
        this.allocator = new AllocateMappedFileService(this.commitLogFiles, pool,
                config.get(StoreConfigKeys.FAST_FAIL_IF_NO_BUFFER_IN_STORE_POOL),
                false, 0, AllocateMappedFileService.DEFAULT_WAIT_MILLIS);
        this.pretoucher = pretouch
                ? new CommitLogPretoucher(nativeMemory, PretouchSettings.touchOnly(
                                config.get(StoreConfigKeys.PRETOUCH_AHEAD_BYTES), PRETOUCH_IDLE_PARK_NANOS)
                        .withReadAhead(commitLogHugePages ? readAheadWithHugePages(config) : readAheadDistance(config))
                        .withNextFileHead(headBytes)
                        .withPageCacheKeep(config.get(StoreConfigKeys.PAGE_CACHE_KEEP_BEHIND_BYTES)), regions,
                        allocator::createdAhead)
                : null;
    }

    /**
     * True when the CommitLog's mapping is written in place and forced only now and then, so 2 MiB pages can serve it
     * while it is written fast (see {@link HugePageRegions}; they come from the pretoucher, which needs
     * {@code warmMapedFileEnable}): {@code mappedFile=mmap} under {@code ASYNC_FLUSH}, without
     * {@code asyncFlushUnmapForcedPages} (which takes written pages out of the mapping before each force), and not on
     * a SLAVE, whose HA client writes the file with {@code pwrite}, so its page cache is not made by the mapping.
     * Never under {@code SYNC_FLUSH}: a force per group commit would write the whole 2 MiB page holding the write
     * position again each time (docs/PERFORMANCE.md section 41 measured that with the kernel's own large folios).
     */
    static boolean commitLogHugePages(StoreConfig config, CommitLogWrites writes) {
        return config.get(StoreConfigKeys.TRANSPARENT_HUGE_PAGES)
                && writes == CommitLogWrites.THROUGH_MAPPING
                && !"SYNC_FLUSH".equals(config.get(StoreConfigKeys.FLUSH_DISK_TYPE))
                && !config.get(StoreConfigKeys.ASYNC_FLUSH_UNMAP_FORCED_PAGES)
                && !"SLAVE".equals(config.get(StoreConfigKeys.BROKER_ROLE));
    }

    /**
     * {@code warmMapedFileEnable}, except on a SLAVE where it was not set: a slave's only CommitLog writer is its HA
     * client, which writes with {@code pwrite} (module-store's ReplicaFileWriter), and a positional write makes each
     * new page-cache page without the mapping's fault path. Touching the pages through the mapping ahead of it made
     * every page take that path after all (a zero-filling read fault, then a write fault) for bytes the write then
     * replaces: docs/PERFORMANCE.md section 46 counts what that cost a slave. Set explicitly, the key wins.
     */
    static boolean pretouches(StoreConfig config) {
        boolean slave = "SLAVE".equals(config.get(StoreConfigKeys.BROKER_ROLE));
        boolean setExplicitly = !"default".equals(config.source(StoreConfigKeys.WARM_MAPPED_FILE_ENABLE));
        return config.get(StoreConfigKeys.WARM_MAPPED_FILE_ENABLE) && (!slave || setExplicitly);
    }

    /**
     * A mapped ConsumeQueue file also keeps its file open (it is written through the channel), so the budget is
     * capped at half the process's file-descriptor limit, leaving the rest to the CommitLog, sockets and plugins.
     */
    /**
     * The pretoucher's read-ahead distance: {@code pretouchReadAheadBytes}, raised to {@code pretouchAheadBytes}
     * when that is longer (reading then adds nothing past the touched pages), 0 when it is off.
     */
    private static int readAheadDistance(StoreConfig config) {
        int readAhead = config.get(StoreConfigKeys.PRETOUCH_READ_AHEAD_BYTES);
        int touchAhead = config.get(StoreConfigKeys.PRETOUCH_AHEAD_BYTES);
        if (readAhead != 0 && readAhead < touchAhead) {
            LOG.info("pretouchReadAheadBytes {} is shorter than pretouchAheadBytes {}: reading ahead only as far as "
                    + "pages are touched", readAhead, touchAhead);
            return touchAhead;
        }
        return readAhead;
    }

    /**
     * With huge pages the pretoucher reads nothing ahead: its reads run the kernel's file read-ahead, which fills
     * the CommitLog with small folios (see {@link HugePageRegions}). {@code pretouchReadAheadBytes} set is said to
     * be ignored.
     */
    private static int readAheadWithHugePages(StoreConfig config) {
        if (config.get(StoreConfigKeys.PRETOUCH_READ_AHEAD_BYTES) > 0) {
            LOG.warn("pretouchReadAheadBytes={} is ignored while the CommitLog uses transparent huge pages (reading "
                    + "ahead would fill it with small pages); transparentHugePages=false brings the read-ahead back",
                    config.get(StoreConfigKeys.PRETOUCH_READ_AHEAD_BYTES));
        }
        return 0;
    }

    private static int withinFileDescriptors(int configured) {
        long limit = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
            limit = unix.getMaxFileDescriptorCount();
        }
        if (limit <= 0 || limit / 2 >= configured) {
            return configured;
        }
        int capped = (int) Math.max(16, limit / 2);
        if (configured == StoreConfigKeys.MAX_MAPPED_CONSUME_QUEUE_FILES.defaultValue()) {
            LOG.debug("keeping at most {} ConsumeQueue files mapped: half the open-file limit ({})", capped, limit);
            return capped;
        }
        LOG.warn("maxMappedConsumeQueueFiles={} is more than half the open-file limit ({}): keeping at most {} "
                + "ConsumeQueue files mapped; raise `ulimit -n` to keep more", configured, limit, capped);
        return capped;
    }

    @Override
    public MappedFileQueue openQueue(Path directory, int fileSize, QueueRole role) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(role, "role");
        if (role == QueueRole.COMMIT_LOG) {
            if (pool != null && fileSize != pool.fileSize()) {
                throw new IllegalArgumentException("transient-pool buffers are mappedFileSizeCommitLog = "
                        + pool.fileSize() + " bytes, but a CommitLog queue of " + fileSize + "-byte files was opened");
            }
            DefaultMappedFileQueue queue = new DefaultMappedFileQueue(directory, fileSize, commitLogFiles, plainFiles,
                    allocator);
            if (pretoucher != null) {
                pretoucher.watch(queue);
            }
            return queue;
        }
        if (role == QueueRole.CONSUME_QUEUE) {
            return new DefaultMappedFileQueue(directory, fileSize, consumeQueueFiles, consumeQueueFiles, null);
        }
        return new DefaultMappedFileQueue(directory, fileSize, plainFiles, plainFiles, null);
    }

    /**
     * Existing files mapped {@code READ_ONLY}, none created, no allocation service or pretoucher; ConsumeQueue files
     * still mapped on demand within the budget, so a read-only open of 100 000 queues maps no more than a writer.
     */
    @Override
    public MappedFileQueue openReadOnlyQueue(Path directory, int fileSize, QueueRole role) {
        Objects.requireNonNull(directory, "directory");
        MappedFileFactory files = Objects.requireNonNull(role, "role") == QueueRole.CONSUME_QUEUE
                ? (dir, offset, size) -> OnDemandMappedFile.readOnly(dir, offset, size, nativeMemory,
                        consumeQueueMappings)
                : MappedFileFactory.readOnly(nativeMemory);
        return new DefaultMappedFileQueue(directory, fileSize, files, files, null, true);
    }

    /**
     * ConsumeQueue files: one {@code syncfs} per file system for every file written since its last force (see
     * {@link UnforcedFiles}); files it could not cover are left to the caller's file-by-file flush.
     */
    @Override
    public boolean forceWrittenFiles(QueueRole role) throws IOException {
        if (role != QueueRole.CONSUME_QUEUE) {
            return false;
        }
        unforcedConsumeQueueFiles.forceAll();
        return true;
    }

    /** Index hash slots and similar scattered writes of a plugin's own mapping: see {@link HugePageAdvice}. */
    @Override
    public boolean adviseHugePages(MappedByteBuffer mapping, long length) {
        Objects.requireNonNull(mapping, "mapping");
        return !mapping.isReadOnly() && hugePages.advise(mapping, length);
    }

    @Override
    public boolean usesWriteBuffer() {
        return writesThroughBuffer;
    }

    @Override
    public int availableWriteBuffers() {
        return pool == null ? -1 : pool.availableBufferNums();
    }

    @Override
    public synchronized void start() {
        if (shutDown) {
            throw new IllegalStateException("this mapped storage was shut down; create a new one");
        }
        if (started) {
            return;
        }
        if (pool != null) {
            pool.init();
        }
        allocator.start();
        if (pretoucher != null) {
            pretoucher.start();
        }
        started = true;
        LOG.info("mapped storage '{}' started; {} for {}", variant, hugePages.describe(), commitLogHugePages
                ? "the index slots, and the CommitLog while it is written at " + (pretoucher.hugePages()
                        .onBytesPerSecond() >> 20) + " MiB/s or more"
                : "index slots (not the CommitLog: " + (hugePages.effective()
                        ? "no pretoucher, SYNC_FLUSH, a SLAVE, a write buffer or unmapped forces" : "off") + ")");
    }

    @Override
    public synchronized void shutdown() {
        if (shutDown) {
            return;
        }
        shutDown = true;
        if (pretoucher != null) {
            pretoucher.shutdown();
        }
        allocator.shutdown();
        unforcedConsumeQueueFiles.close();
        if (pool != null) {
            pool.destroy();
        }
        if (started) {
            LOG.info("mapped storage '{}' shut down", variant);
        }
    }

    /** The write-buffer pool, or null for {@code mmap}. */
    TransientStorePool pool() {
        return pool;
    }

    /** The mapping budget of the ConsumeQueue files. */
    MappingBudget consumeQueueMappings() {
        return consumeQueueMappings;
    }

    /** The ConsumeQueue files awaiting a group force. */
    UnforcedFiles unforcedConsumeQueueFiles() {
        return unforcedConsumeQueueFiles;
    }

    /** The CommitLog pretoucher, or null when {@code warmMapedFileEnable} is off or the pool is used. */
    CommitLogPretoucher pretoucher() {
        return pretoucher;
    }

    /** True when the pretoucher gives the CommitLog transparent huge pages while it is written fast. */
    boolean commitLogHugePages() {
        return commitLogHugePages;
    }

    /** The allocation service of the CommitLog queues. */
    AllocateMappedFileService allocator() {
        return allocator;
    }
}
