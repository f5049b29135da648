package dev.hangar.spi.config;

import static dev.hangar.spi.config.ConfigKey.boolKey;
import static dev.hangar.spi.config.ConfigKey.choiceKey;
import static dev.hangar.spi.config.ConfigKey.explainedStringKey;
import static dev.hangar.spi.config.ConfigKey.intKey;
import static dev.hangar.spi.config.ConfigKey.longKey;
import static dev.hangar.spi.config.ConfigKey.stringKey;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every configuration key Hangar knows, declared once. Names follow RocketMQ's {@code MessageStoreConfig}
 * where one exists, so a {@code broker.conf}'s store keys work unchanged.
 */
public final class StoreConfigKeys {
    private static final int MAX = Integer.MAX_VALUE;
    private static final List<ConfigKey<?>> ALL = new ArrayList<>();

    // --- where and how big
    public static final ConfigKey<String> STORE_PATH_ROOT_DIR = add(stringKey("storePathRootDir", "./store",
            s -> !s.isEmpty(), "a directory path", "Root of the store directory (commitlog/, consumequeue/, index/, ...)"));
    public static final ConfigKey<Integer> MAPPED_FILE_SIZE_COMMIT_LOG = add(intKey("mappedFileSizeCommitLog",
            1 << 30, 4096, MAX, "Size of one CommitLog file in bytes; a multiple of 4096, at most 2 GiB"));
    public static final ConfigKey<Integer> MAPPED_FILE_SIZE_CONSUME_QUEUE = add(intKey("mappedFileSizeConsumeQueue",
            300_000 * 20, 20, MAX, "Size of one ConsumeQueue file in bytes (rounded up to a multiple of 20)"));
    public static final ConfigKey<Integer> MAX_MESSAGE_SIZE = add(intKey("maxMessageSize", 4 * 1024 * 1024, 1,
            256 * 1024 * 1024, "Largest body accepted, in bytes"));
    public static final ConfigKey<String> STORE_HOST = add(stringKey("storeHost", "127.0.0.1:10911",
            s -> s.lastIndexOf(':') > 0, "host:port", "Store host written into every record and msgId"));

    // --- pluggable parts
    public static final ConfigKey<String> PUT_MESSAGE_LOCK = add(stringKey("putMessageLock", "reentrant",
            s -> !s.isEmpty(), "a PutMessageLock provider name (see `plugins`)", "Lock held around the append"));
    public static final ConfigKey<String> APPEND_MODE = add(choiceKey("appendMode", "locked",
            List.of("locked", "concurrent"), "locked: each record is copied into the CommitLog under the put lock;"
                    + " concurrent: under the lock a put takes only its queue offset and its place in the log, and"
                    + " copies outside it, in parallel with other puts (RocketMQ's byte format either way)"));
    public static final ConfigKey<String> MAPPED_FILE = add(stringKey("mappedFile", "mmap", s -> !s.isEmpty(),
            "a MappedStorage provider name (see `plugins`)", "Mapped-file variant of the CommitLog: mmap, transient-pool or write-window"));
    public static final ConfigKey<String> FLUSH_DISK_TYPE = add(choiceKey("flushDiskType", "ASYNC_FLUSH",
            List.of("ASYNC_FLUSH", "SYNC_FLUSH"), "ASYNC_FLUSH acknowledges before fsync; SYNC_FLUSH after"));
    public static final ConfigKey<String> FLUSH_SERVICE = add(stringKey("flushService", "", s -> true,
            "a FlushCommitLogService provider name, or empty to follow flushDiskType",
            "Overrides the flush service chosen by flushDiskType"));
    public static final ConfigKey<String> DISPATCHERS = add(stringKey("dispatchers", "consume-queue,index",
            s -> true, "comma-separated CommitLogDispatcher provider names", "Dispatchers fed by the reput loop, in order"));
    public static final ConfigKey<String> DISPATCH_THREADS = add(choiceKey("dispatchThreads", "auto",
            List.of("auto", "one", "per-dispatcher"), "one: one thread feeds every built-in dispatcher (ConsumeQueue and"
                    + " index) in turn; per-dispatcher: each built-in dispatcher follows the log on a thread of its own,"
                    + " so they build in parallel; auto: per-dispatcher on machines with 4 or more CPUs, else one"));

    // --- flush
    public static final ConfigKey<Integer> FLUSH_INTERVAL_COMMIT_LOG = add(intKey("flushIntervalCommitLog", 500, 1,
            MAX, "Async flush period in ms"));
    public static final ConfigKey<Integer> FLUSH_COMMIT_LOG_LEAST_PAGES = add(intKey("flushCommitLogLeastPages", 4, 0,
            MAX, "Dirty 4 KiB pages needed before an async flush"));
    public static final ConfigKey<Integer> FLUSH_COMMIT_LOG_THOROUGH_INTERVAL = add(intKey(
            "flushCommitLogThoroughInterval", 10_000, 0, MAX, "Flush everything at least this often, in ms"));
    public static final ConfigKey<Boolean> FLUSH_COMMIT_LOG_TIMED = add(boolKey("flushCommitLogTimed", true,
            "true: the async flusher sleeps its period; false: it is also woken by puts"));
    public static final ConfigKey<Integer> COMMIT_INTERVAL_COMMIT_LOG = add(intKey("commitIntervalCommitLog", 200, 1,
            MAX, "Period of committing the write buffer to the file channel, in ms (transient-pool)"));
    public static final ConfigKey<Integer> COMMIT_COMMIT_LOG_LEAST_PAGES = add(intKey("commitCommitLogLeastPages", 4, 0,
            MAX, "Dirty pages needed before a commit"));
    public static final ConfigKey<Integer> COMMIT_COMMIT_LOG_THOROUGH_INTERVAL = add(intKey(
            "commitCommitLogThoroughInterval", 200, 0, MAX, "Commit everything at least this often, in ms"));
    public static final ConfigKey<Integer> SYNC_FLUSH_TIMEOUT = add(intKey("syncFlushTimeout", 5000, 1, MAX,
            "How long a SYNC_FLUSH put waits for its fsync before FLUSH_DISK_TIMEOUT, in ms"));
    public static final ConfigKey<Integer> GROUP_COMMIT_GATHER_PERCENT = add(intKey("groupCommitGatherPercent", 50, 0,
            100, "SYNC_FLUSH: when a force released more puts than are still waiting (64 in all at most), wait up to"
                    + " this % of that force's time for the released writers to put again, so the next force covers"
                    + " them (0: never). Unless set, 0 with mappedFile=mmap, where it measured slower"));
    public static final ConfigKey<Boolean> SYNC_FLUSH_UNMAP_FORCED_PAGES = add(boolKey("syncFlushUnmapForcedPages", true,
            "SYNC_FLUSH with mappedFile=mmap: before each CommitLog force, take the pages it covers wholly (written,"
                    + " never written again) out of the process's mapping (madvise MADV_DONTNEED; the bytes stay in"
                    + " the page cache), so write-back need not write-protect and TLB-flush them one by one; readers"
                    + " map them again read-only on their next read. Also advises the mapping of the file being"
                    + " written MADV_RANDOM until it is complete, so the page cache holds it in 4 KiB folios (with"
                    + " read-around, large folios were written whole by every force)"));
    public static final ConfigKey<Boolean> ASYNC_FLUSH_UNMAP_FORCED_PAGES = add(boolKey("asyncFlushUnmapForcedPages",
            false, "ASYNC_FLUSH with mappedFile=mmap: the same as syncFlushUnmapForcedPages for the async flush's"
                    + " forces (every flushIntervalCommitLog ms): the written pages leave the mapping first, so their"
                    + " write-back sends no TLB-flush interrupt per page to the other CPUs (where the writer runs)"));
    public static final ConfigKey<Boolean> TRANSPARENT_HUGE_PAGES = add(boolKey("transparentHugePages", true,
            "Advise the kernel (madvise MADV_HUGEPAGE) to back with 2 MiB transparent huge pages the hash slots of"
                    + " the index files and, while it is written fast, the CommitLog of mappedFile=mmap under"
                    + " ASYNC_FLUSH (not on a SLAVE, which writes it with pwrite): the pretoucher (warmMapedFileEnable)"
                    + " advises each 2 MiB region ahead of the writer while the log is written at 16 MiB per"
                    + " flushIntervalCommitLog or more (32 MiB/s at 500 ms), and not below half of that, since every"
                    + " async flush writes the 2 MiB page at the write position again. One page fault, TLB entry and"
                    + " write-protect per 2 MiB instead of 512: the async flush no longer write-protects (and"
                    + " TLB-flushes) the written pages one by one, and an index key no longer faults a page of its own."
                    + " Needs transparent_hugepage/enabled = always or madvise (logged at start); never under"
                    + " SYNC_FLUSH, whose forces would write the whole 2 MiB page holding the write position again."
                    + " With it, pretouchReadAheadBytes is ignored (reading ahead would make small pages)"));
    public static final ConfigKey<Integer> FLUSH_INTERVAL_CONSUME_QUEUE = add(intKey("flushIntervalConsumeQueue", 1000,
            1, MAX, "ConsumeQueue/index flush period in ms"));
    public static final ConfigKey<Integer> FLUSH_CONSUME_QUEUE_LEAST_PAGES = add(intKey("flushConsumeQueueLeastPages", 2,
            0, MAX, "Dirty pages needed before a ConsumeQueue flush"));
    public static final ConfigKey<Integer> FLUSH_CONSUME_QUEUE_THOROUGH_INTERVAL = add(intKey(
            "flushConsumeQueueThoroughInterval", 60_000, 0, MAX, "Flush ConsumeQueues and the checkpoint this often, in ms"));

    // --- mapped files
    public static final ConfigKey<Integer> TRANSIENT_STORE_POOL_SIZE = add(intKey("transientStorePoolSize", 5, 1, 1024,
            "Number of pooled write buffers (each one CommitLog file large)"));
    public static final ConfigKey<Boolean> FAST_FAIL_IF_NO_BUFFER_IN_STORE_POOL = add(boolKey(
            "fastFailIfNoBufferInStorePool", false, "Refuse a put at once when the write-buffer pool is empty"));
    public static final ConfigKey<Boolean> WARM_MAPPED_FILE_ENABLE = add(boolKey("warmMapedFileEnable", true,
            "Run the CommitLog pretoucher (mmap variant; on by default, unlike RocketMQ): a background thread keeps "
            + "the pages up to pretouchAheadBytes past the write position faulted in, refilling when half of that "
            + "is used, without changing a byte, so a put does not take the first-touch page fault. Replaces "
            + "RocketMQ's "
            + "touch-and-mlock of whole new files (with forces every flushLeastPagesWhenWarmMapedFile pages), which "
            + "made put stalls worse. false leaves the first touches to the writer. A SLAVE runs none unless the key "
            + "is set for it: it writes its CommitLog with pwrite, which makes new pages more cheaply than touching "
            + "them through the mapping"));
    public static final ConfigKey<Integer> PRETOUCH_AHEAD_BYTES = add(intKey("pretouchAheadBytes", 4 << 20, 4096,
            1 << 30, "How far past the CommitLog write position the pretoucher keeps pages faulted in, in bytes. "
            + "Short on purpose: touched pages are dirty, and a write-back before the writer comes (the kernel's "
            + "background write-back, or the thorough ConsumeQueue flush's syncfs when more than 64 queue files "
            + "wait) write-protects them, and the writer's later write-protect fault on each costs more than the "
            + "first touch it saved"));
    public static final ConfigKey<Integer> PRETOUCH_READ_AHEAD_BYTES = add(intKey("pretouchReadAheadBytes",
            0, 0, 1 << 30, "How far past the CommitLog write position the pretoucher keeps pages in the page "
            + "cache by reading them (clean, so write-back cannot write-protect them), including the head of the "
            + "next file once it exists; 0 (the default) turns this off. Without it, a writer that outruns "
            + "pretouchAheadBytes, and its first store after every roll, faults on a page not in the cache, and the "
            + "kernel's read-around zero-fills up to read_ahead_kb of new page cache inside that put. Off by "
            + "default until a quiet machine shows its cost (the pretoucher reads every byte: more CPU on it, and "
            + "higher put tails seen under load); 32 MiB was the value measured. 0 or at least pretouchAheadBytes"));
    public static final ConfigKey<Integer> PRETOUCH_NEXT_FILE_HEAD_BYTES = add(intKey("pretouchNextFileHeadBytes",
            8 << 20, 0, 1 << 30, "When pretouchReadAheadBytes is 0: how many bytes at the head of the next CommitLog "
            + "file the pretoucher reads into the page cache (clean pages) once the writer is within 64 MiB of its "
            + "file's end. The touch distance stops at a file's end, so without this the writer's first store after "
            + "every roll faults on a page not in the cache, and the kernel's read-around zero-fills up to "
            + "read_ahead_kb inside that put (20-50 ms on a VM). With transparentHugePages, while the CommitLog is "
            + "written fast, the head is faulted in readable through the file's mapping in 2 MiB pages instead (a "
            + "read through a channel would fill the file with small pages). 0 turns it off"));
    public static final ConfigKey<Long> PAGE_CACHE_KEEP_BEHIND_BYTES = add(longKey("pageCacheKeepBehindBytes",
            0L, 0L, Long.MAX_VALUE, "With the pretoucher (warmMapedFileEnable): CommitLog bytes behind the flushed "
            + "position left in the page cache; the pretoucher gives older pages back to the kernel (madvise and "
            + "posix_fadvise DONTNEED), so the pages made ahead of the writer reuse memory just freed. On a VM that "
            + "returns free memory to its host a page made from never-used memory costs ~7 us, a reused one ~1.5 us "
            + "(docs/PERFORMANCE.md). Readers further behind read from the disk. 0 (default) leaves the page cache to "
            + "the kernel; else at least 8 MiB"));
    public static final ConfigKey<Integer> FLUSH_LEAST_PAGES_WHEN_WARM_MAPPED_FILE = add(intKey(
            "flushLeastPagesWhenWarmMapedFile", 4096, 1, MAX, "Accepted for compatibility and ignored: the "
            + "pretoucher (warmMapedFileEnable) changes no byte, so there is nothing to force"));
    public static final ConfigKey<Integer> MAX_MAPPED_CONSUME_QUEUE_FILES = add(intKey("maxMappedConsumeQueueFiles",
            32_768, 1, 1 << 20, "ConsumeQueue files kept mapped at once; idle ones are unmapped past it "
            + "(vm.max_map_count bounds a process's mappings, 65530 by default)"));
    public static final ConfigKey<Integer> OS_PAGE_CACHE_BUSY_TIMEOUT_MILLS = add(intKey("osPageCacheBusyTimeOutMills",
            1000, 1, MAX, "A put lock held longer than this makes new puts OS_PAGE_CACHE_BUSY, in ms"));

    // --- retention and disk
    public static final ConfigKey<Integer> FILE_RESERVED_TIME = add(intKey("fileReservedTime", 72, 0, MAX,
            "Hours a CommitLog file is kept"));
    public static final ConfigKey<String> DELETE_WHEN = add(stringKey("deleteWhen", "04",
            s -> s.matches("\\d{1,2}(;\\d{1,2})*"), "hours 00..23 separated by ';'", "Hours of the day when expired files are deleted"));
    public static final ConfigKey<Integer> DISK_MAX_USED_SPACE_RATIO = add(intKey("diskMaxUsedSpaceRatio", 75, 10, 95,
            "Disk use (%) past which expired-or-not files are cleaned"));
    public static final ConfigKey<Integer> DISK_SPACE_WARNING_LEVEL_RATIO = add(intKey("diskSpaceWarningLevelRatio", 90,
            1, 99, "Disk use (%) past which puts are refused (disk full)"));
    public static final ConfigKey<Integer> DISK_SPACE_CLEAN_FORCIBLY_RATIO = add(intKey("diskSpaceCleanForciblyRatio", 85,
            1, 99, "Disk use (%) past which files are deleted at once"));
    public static final ConfigKey<Boolean> CLEAN_FILE_FORCIBLY_ENABLE = add(boolKey("cleanFileForciblyEnable", true,
            "Allow deleting unexpired files when the disk is nearly full"));
    public static final ConfigKey<Integer> CLEAN_RESOURCE_INTERVAL = add(intKey("cleanResourceInterval", 10_000, 1, MAX,
            "Period of the retention check, in ms"));
    public static final ConfigKey<Integer> DELETE_COMMIT_LOG_FILES_INTERVAL = add(intKey("deleteCommitLogFilesInterval",
            100, 0, MAX, "Pause between two CommitLog file deletions, in ms"));
    public static final ConfigKey<Integer> DELETE_CONSUME_QUEUE_FILES_INTERVAL = add(intKey(
            "deleteConsumeQueueFilesInterval", 100, 0, MAX, "Pause between two ConsumeQueue file deletions, in ms"));
    public static final ConfigKey<Integer> DESTROY_MAPPED_FILE_INTERVAL_FORCIBLY = add(intKey(
            "destroyMapedFileIntervalForcibly", 120_000, 0, MAX, "Unmap a file still in use after this long, in ms"));
    public static final ConfigKey<Integer> REDELETE_HANGED_FILE_INTERVAL = add(intKey("redeleteHangedFileInterval",
            120_000, 0, MAX, "Retry deleting a file that could not be deleted after this long, in ms"));

    // --- recovery, index, reads
    public static final ConfigKey<Boolean> CHECK_CRC_ON_RECOVER = add(boolKey("checkCRCOnRecover", true,
            "Check body CRCs when recovering and dispatching"));
    public static final ConfigKey<Boolean> MESSAGE_INDEX_ENABLE = add(boolKey("messageIndexEnable", true,
            "Build the key index"));
    public static final ConfigKey<Boolean> MESSAGE_INDEX_SAFE = add(boolKey("messageIndexSafe", false,
            "Abnormal recovery also starts from the index checkpoint"));
    public static final ConfigKey<Integer> MAX_HASH_SLOT_NUM = add(intKey("maxHashSlotNum", 5_000_000, 1, MAX,
            "Hash slots per index file"));
    public static final ConfigKey<Integer> MAX_INDEX_NUM = add(intKey("maxIndexNum", 20_000_000, 2, MAX,
            "Entries per index file"));
    public static final ConfigKey<Integer> MAX_MSGS_NUM_BATCH = add(intKey("maxMsgsNumBatch", 64, 1, MAX,
            "Most messages a key query returns"));
    public static final ConfigKey<Integer> DEFAULT_QUERY_MAX_NUM = add(intKey("defaultQueryMaxNum", 32, 1, MAX,
            "Messages a key query returns when not told"));
    public static final ConfigKey<Integer> MAX_TRANSFER_BYTES_ON_MESSAGE_IN_MEMORY = add(intKey(
            "maxTransferBytesOnMessageInMemory", 256 * 1024, 1, MAX, "Most bytes one read returns"));
    public static final ConfigKey<Integer> MAX_TRANSFER_COUNT_ON_MESSAGE_IN_MEMORY = add(intKey(
            "maxTransferCountOnMessageInMemory", 32, 1, MAX, "Most messages one read returns"));
    public static final ConfigKey<String> MESSAGE_DELAY_LEVEL = add(stringKey("messageDelayLevel",
            "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h",
            s -> s.trim().matches("(\\d+[smhd])(\\s+\\d+[smhd])*"), "space-separated durations like 1s 5m 2h",
            "Delay of each delay level"));
    public static final ConfigKey<Integer> FLUSH_DELAY_OFFSET_INTERVAL = add(intKey("flushDelayOffsetInterval", 10_000,
            1, MAX, "How often delay-level progress is saved, in ms"));

    public static final ConfigKey<Integer> FLUSH_CONSUMER_OFFSET_INTERVAL = add(intKey("flushConsumerOffsetInterval",
            5_000, 10, MAX, "How often the consumer-offset table is saved to config/consumerOffset.json, in ms "
            + "(commits are durable in the CommitLog at once; the file only shortens the replay at start)"));

    public static final ConfigKey<Long> MAX_DISPATCH_BEHIND_BYTES = add(longKey("maxDispatchBehindBytes",
            128L * 1024 * 1024, 0, Long.MAX_VALUE,
            "Puts wait (up to 1 s each) while dispatch lags the written end by more than this many bytes, so reads "
            + "stay fresh (0 = never wait); with a write buffer the bytes its committer has not made readable yet "
            + "count too"));

    // --- replication (RocketMQ 4.x master/slave)
    public static final ConfigKey<String> BROKER_ROLE = add(choiceKey("brokerRole", "ASYNC_MASTER",
            List.of("ASYNC_MASTER", "SYNC_MASTER", "SLAVE"),
            "ASYNC_MASTER answers at once; SYNC_MASTER after a slave has the message; SLAVE copies haMasterAddress"));
    public static final ConfigKey<String> HA_SERVICE = add(stringKey("haService", "auto", s -> !s.isEmpty(),
            "auto, none, or a replication provider name (see `plugins`)",
            "Replication provider; auto = rocketmq-ha for SYNC_MASTER, SLAVE or an explicitly set brokerRole"));
    public static final ConfigKey<Integer> HA_LISTEN_PORT = add(intKey("haListenPort", 10912, 0, 65535,
            "Port a master accepts slaves on (0 = any free port)"));
    public static final ConfigKey<String> HA_LISTEN_HOST = add(stringKey("haListenHost", "127.0.0.1",
            s -> !s.isEmpty(), "a host name or IP; 0.0.0.0 for every interface",
            "Address a master binds its HA port to; loopback unless slaves run on other hosts"));
    public static final ConfigKey<String> HA_ALLOWED_SLAVES = add(explainedStringKey("haAllowedSlaves", "",
            AddressRanges::problem, "comma-separated IP addresses or CIDR ranges, IPv4 or IPv6; empty = any",
            "Addresses a master accepts slaves from (the HA protocol has no authentication); a connection from "
            + "any other is closed before a byte is read, counted and logged"));
    public static final ConfigKey<String> HA_MASTER_ADDRESS = add(stringKey("haMasterAddress", "",
            s -> s.isEmpty() || s.lastIndexOf(':') > 0, "host:port of the master's HA port",
            "The master a SLAVE copies from"));
    public static final ConfigKey<Integer> HA_SEND_HEARTBEAT_INTERVAL = add(intKey("haSendHeartbeatInterval", 5000, 1,
            MAX, "A slave reports its offset (and a master sends an empty frame) at least this often, in ms"));
    public static final ConfigKey<Integer> HA_HOUSEKEEPING_INTERVAL = add(intKey("haHousekeepingInterval", 20_000, 1,
            MAX, "An HA connection silent (or not draining) this long is closed, in ms"));
    public static final ConfigKey<Integer> HA_TRANSFER_BATCH_SIZE = add(intKey("haTransferBatchSize", 32 * 1024, 1,
            MAX, "Most CommitLog bytes in one frame to a slave"));
    public static final ConfigKey<Long> HA_SLAVE_FALLBEHIND_MAX = add(longKey("haSlaveFallbehindMax",
            256L * 1024 * 1024, 0, Long.MAX_VALUE,
            "A SYNC_MASTER answers SLAVE_NOT_AVAILABLE when its slave is further behind than this, in bytes"));

    // --- launcher
    public static final ConfigKey<String> HTTP_TOKEN = add(stringKey("httpToken", "", s -> true,
            "any string; empty = no authentication", "Bearer token `serve` requires on every request"));

    /** Old RocketMQ booleans that choose a provider: the alias key, and the names for true and false. */
    public static final Map<String, String[]> PROVIDER_ALIASES = Map.of(
            "useReentrantLockWhenPutMessage", new String[] {PUT_MESSAGE_LOCK.name(), "reentrant", "spin"},
            "transientStorePoolEnable", new String[] {MAPPED_FILE.name(), "transient-pool", "mmap"});

    /** RocketMQ broker.conf keys Hangar does not use: accepted with a warning naming them. */
    public static final Set<String> IGNORED_ROCKETMQ_KEYS = Set.of(
            "brokerClusterName", "brokerName", "brokerId", "namesrvAddr", "listenPort", "brokerIP1",
            "brokerIP2", "storePathCommitLog", "storePathConsumeQueue", "storePathIndex",
            "autoCreateTopicEnable", "autoCreateSubscriptionGroup", "sendMessageThreadPoolNums",
            "pullMessageThreadPoolNums", "defaultTopicQueueNums", "enableDLegerCommitLog", "duplicationEnable",
            "offsetCheckInSlave", "debugLockEnable", "diskFallRecorded", "enableConsumeQueueExt",
            "mappedFileSizeConsumeQueueExt", "bitMapLengthConsumeQueueExt", "accessMessageInMemoryMaxRatio",
            "maxTransferBytesOnMessageInDisk", "maxTransferCountOnMessageInDisk", "putMsgIndexHightWater",
            "slaveTimeout", "waitTimeMillsInSendQueue", "enableLmq", "enableMultiDispatch", "maxLmqConsumeQueueNum",
            // BrokerConfig / NettyServerConfig keys a broker.conf usually carries
            "brokerPermission", "rejectTransactionMessage", "fetchNamesrvAddrByAddressServer", "clusterTopicEnable",
            "brokerTopicEnable", "traceTopicEnable", "msgTraceTopicName", "aclEnable", "autoDeleteUnusedStats",
            "brokerFastFailureEnable", "waitTimeMillsInPullQueue", "waitTimeMillsInHeartbeatQueue",
            "waitTimeMillsInTransactionQueue", "queryMessageThreadPoolNums", "adminBrokerThreadPoolNums",
            "clientManageThreadPoolNums", "consumerManageThreadPoolNums", "heartbeatThreadPoolNums",
            "endTransactionThreadPoolNums", "useEpollNativeSelector", "serverWorkerThreads", "serverSelectorThreads",
            "serverSocketSndBufSize", "serverSocketRcvBufSize", "transactionTimeOut", "transactionCheckMax",
            "transactionCheckInterval", "longPollingEnable", "shortPollingTimeMills", "notifyConsumerIdsChangedEnable",
            "highSpeedMode", "commercialEnable", "filterServerNums", "enablePropertyFilter",
            "compressedRegister", "forceRegister", "registerNameServerPeriod", "startAcceptSendRequestTimeStamp",
            "mapedFileSizeCommitLog", "mapedFileSizeConsumeQueue", "storePathDLedgerCommitLog", "dLegerGroup",
            "dLegerPeers", "dLegerSelfId", "isEnablePropertyFilter");

    private StoreConfigKeys() {
    }

    private static <T> ConfigKey<T> add(ConfigKey<T> key) {
        ALL.add(key);
        return key;
    }

    /** Every key, in declaration order. */
    public static List<ConfigKey<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    /** Every key by name. */
    public static Map<String, ConfigKey<?>> byName() {
        Map<String, ConfigKey<?>> map = new LinkedHashMap<>();
        for (ConfigKey<?> k : ALL) {
            map.put(k.name(), k);
        }
        return map;
    }
}
