package dev.hangar.dispatch.index;

import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.flush.Checkpoint;
import dev.hangar.spi.format.IndexFileFormat;
import dev.hangar.spi.message.MessageSysFlag;
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
 * The {@code index} dispatcher: RocketMQ's hash index of message keys under {@code <storeRoot>/index/}, and its
 * read side. Indexes each record's UNIQ_KEY and every space-separated token of KEYS as {@code topic#key}; skips
 * ROLLBACK records; a full file is forced, recorded in the checkpoint, and followed by a new one.
 *
 * <p>Truncation ({@link #truncate}) deletes files that begin at or past the offset and, in the file that straddles
 * it, removes the entries at or past it (slots are re-pointed to the entries they chained to), so the index reads
 * as if those records had never been indexed and new records at the same offsets are indexed again. Query results
 * are hash matches only; the engine re-checks topic and key on the decoded message.
 *
 * <p>Thread-safety: {@link #dispatch} from the one reput thread; {@link #load} and {@link #truncate} while nothing
 * dispatches; {@link #flush} and {@link #deleteExpired} from service threads; queries from any thread. The file
 * list is copy-on-write, each file guards its own entries.
 */
public final class IndexDispatcher implements CommitLogDispatcher, KeyIndexView {
    private static final Logger LOG = LoggerFactory.getLogger(IndexDispatcher.class);
    /** Separates the keys of the KEYS property (RocketMQ's MessageConst.KEY_SEPARATOR). */
    private static final char KEY_SEPARATOR = ' ';

    private final Path dir;
    private final int slotCount;
    private final int entryCapacity;
    private final boolean enabled;
    private final boolean lastShutdownClean;
    private final boolean safeMode;
    private final Checkpoint checkpoint;
    private final CopyOnWriteArrayList<IndexFile> files = new CopyOnWriteArrayList<>();
    /** Name of the newest file created or loaded, so a new name always sorts after it. */
    private String lastFileName = "";

    public IndexDispatcher(DispatcherContext context) {
        this.dir = context.storeRoot().resolve("index");
        this.slotCount = context.config().get(StoreConfigKeys.MAX_HASH_SLOT_NUM);
        this.entryCapacity = context.config().get(StoreConfigKeys.MAX_INDEX_NUM);
        this.enabled = context.config().get(StoreConfigKeys.MESSAGE_INDEX_ENABLE);
        this.lastShutdownClean = context.lastShutdownClean();
        this.safeMode = context.config().get(StoreConfigKeys.MESSAGE_INDEX_SAFE);
        this.checkpoint = context.checkpoint();
        long size = IndexFileFormat.fileSize(slotCount, entryCapacity);
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxHashSlotNum=" + slotCount + " and maxIndexNum=" + entryCapacity
                    + " make an index file of " + size + " bytes; one mapped file holds at most " + Integer.MAX_VALUE
                    + " (RocketMQ's defaults 5000000 and 20000000 make 420000040)");
        }
    }

    /**
     * Maps the existing files, oldest first.
     *
     * <p>After an unclean shutdown RocketMQ destroys every file that ends after the checkpoint's index time. The
     * file being written always does, and it holds up to {@code maxIndexNum} keys, so every crash re-dispatched up
     * to 20 million records (the whole log for a store whose first index file is not yet full). Here that happens
     * only with {@code messageIndexSafe}. Otherwise the files are kept: after a process crash their pages are
     * intact in the page cache; entries past the recovered log end are cut by {@link #truncate}; a torn entry after
     * a power cut can at worst hide a key or name a wrong offset, and the engine re-checks topic and key on every
     * answer, so a query never returns a wrong message.
     */
    @Override
    public void load() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        long durableTime = checkpoint.indexMsgTimestamp();
        for (Path path : listIndexFiles()) {
            IndexFile file = IndexFile.open(path, slotCount, entryCapacity);
            lastFileName = file.fileName();
            if (!lastShutdownClean && safeMode && file.endTimestamp() > durableTime) {
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

    @Override
    public void dispatch(DispatchRequest request) {
        if (!enabled || MessageSysFlag.transactionType(request.sysFlag()) == MessageSysFlag.TRANSACTION_ROLLBACK_TYPE) {
            return;
        }
        String uniqKey = request.uniqKey();
        String userKeys = request.keys();
        boolean hasUniqKey = uniqKey != null && !uniqKey.isEmpty();
        if (!hasUniqKey && (userKeys == null || userKeys.isEmpty())) {
            return;
        }
        IndexFile file = writableFile();
        if (alreadyIndexed(file, request.commitLogOffset())) {
            return;
        }
        // hashes straight from the key characters: no split, no topic#key strings (see IndexKeyHash)
        int prefix = IndexKeyHash.prefix(request.topic());
        if (hasUniqKey) {
            file = putKey(file, IndexKeyHash.of(prefix, uniqKey, 0, uniqKey.length()), request);
        }
        if (userKeys != null) {
            int length = userKeys.length();
            for (int start = 0; start < length; ) {
                int end = userKeys.indexOf(KEY_SEPARATOR, start);
                if (end < 0) {
                    end = length;
                }
                if (end > start) {
                    file = putKey(file, IndexKeyHash.of(prefix, userKeys, start, end), request);
                }
                start = end + 1;
            }
        }
    }

    /** Adds one key hash, rolling to a new file when full; returns the file written. */
    private IndexFile putKey(IndexFile file, int keyHash, DispatchRequest request) {
        IndexFile target = file;
        while (!target.putKeyHash(keyHash, request.commitLogOffset(), request.storeTimestamp())) {
            target = roll(target);
        }
        return target;
    }

    /**
     * True when the record at {@code offset} is already in the index. RocketMQ skips offsets below the newest
     * file's end offset; the end offset is the start of the last indexed record, so that record itself is
     * recognised too unless nothing was indexed yet (a first file, still at offset 0).
     */
    private static boolean alreadyIndexed(IndexFile file, long offset) {
        long end = file.endPhyOffset();
        if (offset != end) {
            return offset < end;
        }
        return file.indexCount() > IndexFileFormat.FIRST_ENTRY_INDEX || end > 0;
    }

    /** The newest file when it has room, else a new one. */
    private IndexFile writableFile() {
        IndexFile last = newest();
        if (last == null) {
            IndexFile first = IndexFile.create(dir.resolve(nextFileName()), slotCount, entryCapacity, 0, 0);
            files.add(first);
            return first;
        }
        return last.isFull() ? roll(last) : last;
    }

    /** Forces the full file, records its end time in the checkpoint, and starts the next one. */
    private IndexFile roll(IndexFile full) {
        IndexFile next = IndexFile.create(dir.resolve(nextFileName()), slotCount, entryCapacity, full.endPhyOffset(),
                full.endTimestamp());
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
            Files.createDirectories(dir);
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

    private IndexFile newest() {
        int size = files.size();
        return size == 0 ? null : files.get(size - 1);
    }

    /** End offset of the newest file: the start of the last indexed record (0 when none). */
    @Override
    public long durableOffset() {
        if (!enabled) {
            return Long.MAX_VALUE; // nothing to catch up on: a disabled index must not force a re-dispatch
        }
        IndexFile last = newest();
        return last == null ? 0 : last.endPhyOffset();
    }

    @Override
    public void truncate(long commitLogOffset) {
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

    /**
     * Forces the newest file on a thorough flush ({@code leastPages == 0}) only: its writes are random slot
     * updates, which RocketMQ leaves to the page cache between file rolls (a full file is forced when it rolls).
     */
    @Override
    public void flush(int leastPages) {
        if (leastPages == 0) {
            files.forEach(IndexFile::flush);
        }
    }

    /** Deletes the oldest files whose end offset is below {@code minCommitLogOffset}; never the newest. */
    @Override
    public void deleteExpired(long minCommitLogOffset) {
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

    /** Forces every file and drops them (their mappings go with the garbage collector). */
    @Override
    public void close() {
        try {
            flush(0);
        } catch (RuntimeException e) {
            LOG.error("final index flush failed", e);
        }
        files.clear();
    }

    // --- KeyIndexView

    @Override
    public List<Long> queryOffsets(String topic, String key, int maxNum, long begin, long end) {
        List<Long> offsets = new ArrayList<>(Math.max(0, Math.min(maxNum, 64)));
        if (maxNum <= 0 || key == null || topic == null) {
            return offsets;
        }
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
        return offsets;
    }

    @Override
    public long lastUpdateTimestamp() {
        IndexFile last = newest();
        return last == null ? 0 : last.endTimestamp();
    }

    @Override
    public long lastUpdatePhyOffset() {
        IndexFile last = newest();
        return last == null ? 0 : last.endPhyOffset();
    }

    /** Files oldest first; for tests and diagnostics. */
    List<IndexFile> files() {
        return List.copyOf(files);
    }
}
