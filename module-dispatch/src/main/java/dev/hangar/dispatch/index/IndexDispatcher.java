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
import java.nio.ByteBuffer;
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
 * <p>This class decides what is indexed and answers the SPI; the files themselves (naming, rolling, truncating,
 * expiring, looking up) are {@link IndexFileSet}'s.
 *
 * <p>Thread-safety: {@link #dispatch} from the one reput thread; {@link #load} and {@link #truncate} while nothing
 * dispatches; {@link #flush} and {@link #deleteExpired} from service threads; queries from any thread. The file
 * list is copy-on-write, each file guards its own entries.
 */
public final class IndexDispatcher implements CommitLogDispatcher, KeyIndexView {
    private static final Logger LOG = LoggerFactory.getLogger(IndexDispatcher.class);

    private final int slotCount;
    private final int entryCapacity;
    private final boolean enabled;
    private final boolean lastShutdownClean;
    private final boolean safeMode;
    /** The files under {@code <storeRoot>/index/}. */
    private final IndexFileSet fileSet;
    /** One visitor for the keys of every record, so that indexing a record allocates nothing. */
    private final DispatchRequest.KeyVisitor putEachKey = this::putKey;
    // the record being dispatched (reput thread only): where its keys go and what they point at
    private IndexFile keyFile;
    private int keyPrefix;
    private long keyCommitLogOffset;
    private long keyStoreTimestamp;
    /**
     * The file whose write lock this dispatcher holds for the batch under way (reput thread only), or null: the
     * lock is taken at the batch's first key and let go in {@link #endBatch()}, not per key.
     */
    private IndexFile batchFile;

    public IndexDispatcher(DispatcherContext context) {
        this.slotCount = context.config().get(StoreConfigKeys.MAX_HASH_SLOT_NUM);
        this.entryCapacity = context.config().get(StoreConfigKeys.MAX_INDEX_NUM);
        this.enabled = context.config().get(StoreConfigKeys.MESSAGE_INDEX_ENABLE);
        this.lastShutdownClean = context.lastShutdownClean();
        this.safeMode = context.config().get(StoreConfigKeys.MESSAGE_INDEX_SAFE);
        long size = IndexFileFormat.fileSize(slotCount, entryCapacity);
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxHashSlotNum=" + slotCount + " and maxIndexNum=" + entryCapacity
                    + " make an index file of " + size + " bytes; one mapped file holds at most " + Integer.MAX_VALUE
                    + " (RocketMQ's defaults 5000000 and 20000000 make 420000040)");
        }
        this.fileSet = new IndexFileSet(context.storeRoot().resolve("index"), slotCount, entryCapacity,
                context.checkpoint(), context.readOnly(), context.mappedStorage()::adviseHugePages);
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
        fileSet.load(!lastShutdownClean && safeMode);
    }

    @Override
    public void dispatch(DispatchRequest request) {
        if (!enabled || MessageSysFlag.transactionType(request.sysFlag()) == MessageSysFlag.TRANSACTION_ROLLBACK_TYPE) {
            return;
        }
        int uniqKeyLength = request.uniqKeyLength();
        if (uniqKeyLength == 0 && request.keysLength() == 0) {
            return;
        }
        IndexFile open = batchFile;
        if (open != null && open.hasWaitingReaders()) {
            // a query waits: it gets the keys of the records before this one now, not at the batch's end
            endBatch();
        }
        IndexFile file = fileSet.writableFile();
        if (alreadyIndexed(file, request.commitLogOffset())) {
            return;
        }
        // hashes straight from the record's key bytes: no Strings, no split, no topic#key (see IndexKeyHash)
        keyFile = file;
        keyPrefix = IndexKeyHash.prefix(request.topic());
        keyCommitLogOffset = request.commitLogOffset();
        keyStoreTimestamp = request.storeTimestamp();
        if (uniqKeyLength > 0) {
            putKey(request.bytes(), request.uniqKeyOffset(), uniqKeyLength);
        }
        request.forEachKey(putEachKey);
        keyFile = null;
    }

    /** Lets go of the batch's file: its keys become visible to queries. */
    @Override
    public void endBatch() {
        IndexFile file = batchFile;
        if (file != null) {
            batchFile = null;
            file.endBatch();
        }
    }

    /** Adds the key in {@code bytes[offset, offset + length)} of the record being dispatched, rolling when full. */
    private void putKey(ByteBuffer bytes, int offset, int length) {
        int keyHash = IndexKeyHash.of(keyPrefix, bytes, offset, length);
        IndexFile target = keyFile;
        joinBatch(target);
        while (!target.appendKeyHash(keyHash, keyCommitLogOffset, keyStoreTimestamp)) {
            // the full file's header is published before it is forced and followed
            endBatch();
            target = fileSet.roll(target);
            joinBatch(target);
        }
        keyFile = target;
    }

    /** Makes {@code file} the batch's file, taking its write lock (and letting go of another file's). */
    private void joinBatch(IndexFile file) {
        if (batchFile != file) {
            endBatch();
            file.beginBatch();
            batchFile = file;
        }
    }

    /**
     * True when the record at {@code offset} is already in the index. RocketMQ skips offsets below the newest
     * file's end offset; the end offset is the start of the last indexed record, so that record itself is
     * recognised too unless nothing was indexed yet (a first file, still at offset 0). Inside a batch on
     * {@code file} the published header lags: the writer's own values are read then.
     */
    private boolean alreadyIndexed(IndexFile file, long offset) {
        boolean inBatch = file == batchFile;
        long end = inBatch ? file.writerEndPhyOffset() : file.endPhyOffset();
        if (offset != end) {
            return offset < end;
        }
        int count = inBatch ? file.writerIndexCount() : file.indexCount();
        return count > IndexFileFormat.FIRST_ENTRY_INDEX || end > 0;
    }

    /** End offset of the newest file: the start of the last indexed record (0 when none). */
    @Override
    public long durableOffset() {
        if (!enabled) {
            return Long.MAX_VALUE; // nothing to catch up on: a disabled index must not force a re-dispatch
        }
        IndexFile last = fileSet.newest();
        return last == null ? 0 : last.endPhyOffset();
    }

    @Override
    public void truncate(long commitLogOffset) {
        fileSet.truncate(commitLogOffset);
    }

    /**
     * Forces the newest file on a thorough flush ({@code leastPages == 0}) only: its writes are random slot
     * updates, which RocketMQ leaves to the page cache between file rolls (a full file is forced when it rolls).
     */
    @Override
    public void flush(int leastPages) {
        if (leastPages == 0) {
            fileSet.flushAll();
        }
    }

    /** Deletes the oldest files whose end offset is below {@code minCommitLogOffset}; never the newest. */
    @Override
    public void deleteExpired(long minCommitLogOffset) {
        fileSet.deleteExpired(minCommitLogOffset);
    }

    /** Forces every file and drops them (their mappings go with the garbage collector). */
    @Override
    public void close() {
        IndexFile open = batchFile;
        if (open != null && open.batchHeldByCurrentThread()) {
            endBatch(); // closed on the dispatching thread without a last endBatch(): publish before the force
        }
        try {
            flush(0);
        } catch (RuntimeException e) {
            LOG.error("final index flush failed", e);
        }
        fileSet.clear();
    }

    // --- KeyIndexView

    @Override
    public List<Long> queryOffsets(String topic, String key, int maxNum, long begin, long end) {
        List<Long> offsets = new ArrayList<>(Math.max(0, Math.min(maxNum, 64)));
        if (maxNum <= 0 || key == null || topic == null) {
            return offsets;
        }
        fileSet.select(offsets, topic, key, maxNum, begin, end);
        return offsets;
    }

    @Override
    public long lastUpdateTimestamp() {
        IndexFile last = fileSet.newest();
        return last == null ? 0 : last.endTimestamp();
    }

    @Override
    public long lastUpdatePhyOffset() {
        IndexFile last = fileSet.newest();
        return last == null ? 0 : last.endPhyOffset();
    }

    /** Files oldest first; for tests and diagnostics. */
    List<IndexFile> files() {
        return fileSet.snapshot();
    }
}
