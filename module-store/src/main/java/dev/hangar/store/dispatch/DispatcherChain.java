package dev.hangar.store.dispatch;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.store.service.RunningFlags;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured dispatchers in order. Built-in dispatchers (those whose provider says the store's reads depend on
 * them, {@link CommitLogDispatcherProvider#storeReadsDependOnIt()}) are called here, on the
 * reput thread; a failure of one sets the matching running flag (the store stops taking writes, as RocketMQ does).
 * Third-party dispatchers ("plugins") are only listed here: each runs on a thread and cursor of its own
 * ({@code dev.hangar.store.reput.PluginDispatch}). A plugin's failure is counted and never stops the others; an
 * {@link Error}, a failing {@code load()} or a throwing {@code durableOffset()} disables that plugin, with the
 * reason kept for {@code stat}.
 */
public final class DispatcherChain implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DispatcherChain.class);
    private static final long LOG_EVERY_NTH_FAILURE = 1000;
    /**
     * Records a dispatcher gets between two {@link CommitLogDispatcher#endBatch()} calls at most: the per-batch costs
     * (a lock, a header published) are spread over this many records, and a reader that waits for a batch's lock
     * waits for at most this many records' dispatch (well under a millisecond).
     */
    public static final int MAX_BATCH_RECORDS = 256;

    /**
     * One dispatcher with its name and failure counter; {@code builtIn}: the store's reads depend on it (its provider
     * says so), so it runs on the reput thread and its failure stops the writes.
     */
    public record Entry(String name, CommitLogDispatcher dispatcher, boolean builtIn, LongAdder failures) {
    }

    private final List<Entry> entries;
    private final List<Entry> builtIns;
    /** The built-ins as an array: {@link #dispatch} runs per record and must not allocate an iterator. */
    private final Entry[] builtInArray;
    private final List<Entry> plugins;
    private final RunningFlags flags;
    private final Map<String, String> disabled = new ConcurrentHashMap<>();

    public DispatcherChain(List<Entry> entries, RunningFlags flags) {
        this.entries = List.copyOf(entries);
        this.builtIns = this.entries.stream().filter(Entry::builtIn).toList();
        this.builtInArray = builtIns.toArray(new Entry[0]);
        this.plugins = this.entries.stream().filter(e -> !e.builtIn()).toList();
        this.flags = flags;
    }

    /**
     * The entry of a dispatcher {@code provider} created: built-in when the provider says the store's reads depend
     * on it ({@link CommitLogDispatcherProvider#storeReadsDependOnIt()}), whichever module it comes from.
     */
    public static Entry entry(String name, CommitLogDispatcherProvider provider, CommitLogDispatcher d) {
        return new Entry(name, d, provider.storeReadsDependOnIt(), new LongAdder());
    }

    public List<Entry> entries() {
        return entries;
    }

    /** The third-party dispatchers not disabled, in configured order. */
    public List<Entry> enabledPlugins() {
        return plugins.stream().filter(e -> !isDisabled(e)).toList();
    }

    /** Loads every dispatcher; a built-in's failure fails the start, a plugin's disables that plugin. */
    public void load() {
        for (Entry e : entries) {
            if (e.builtIn) {
                e.dispatcher.load();
            } else {
                try {
                    e.dispatcher.load();
                } catch (Throwable t) {
                    e.failures.increment();
                    disable(e, "load() failed: " + t);
                }
            }
        }
    }

    /**
     * The built-in dispatchers as the dispatch threads share them: one group of all of them (one thread feeds each
     * record to every built-in in turn), or one group per built-in (each follows the log on a thread of its own), in
     * configured order. Empty when there is no built-in dispatcher.
     */
    public List<Entry[]> builtInGroups(boolean onePerDispatcher) {
        if (builtInArray.length == 0) {
            return List.of();
        }
        if (!onePerDispatcher) {
            return List.<Entry[]>of(builtInArray.clone());
        }
        List<Entry[]> groups = new ArrayList<>();
        for (Entry e : builtInArray) {
            groups.add(new Entry[] {e});
        }
        return groups;
    }

    /** Hands {@code request} to every built-in dispatcher, in order. */
    public void dispatch(DispatchRequest request) {
        dispatch(builtInArray, request);
    }

    /** Hands {@code request} to every dispatcher of {@code group} (of {@link #builtInGroups}), in order. */
    public void dispatch(Entry[] group, DispatchRequest request) {
        for (Entry e : group) {
            try {
                e.dispatcher.dispatch(request);
            } catch (RuntimeException ex) {
                e.failures.increment();
                // the index flag for what answers key queries, whatever its name; else the ConsumeQueue flag
                int flag = e.dispatcher.view(KeyIndexView.class).isPresent() ? RunningFlags.WRITE_INDEX_FILE_ERROR
                        : RunningFlags.WRITE_LOGICS_QUEUE_ERROR;
                flags.set(flag, "dispatcher " + e.name + " failed at commit-log offset "
                        + request.commitLogOffset() + ": " + ex);
                LOG.error("built-in dispatcher {} failed at {}", e.name, request.commitLogOffset(), ex);
            }
        }
    }

    /**
     * Tells every built-in dispatcher that {@code topic} is deleted (dispatch thread, at the deleting record). A
     * failure is logged and counted; the other dispatchers are still told. Third-party dispatchers keep their own
     * data: they see the deleting record as a record of the consumer-offset topic on their own cursor.
     */
    public void deleteTopic(String topic) {
        deleteTopic(builtInArray, topic);
    }

    /** {@link #deleteTopic(String)} for the dispatchers of one group, on the thread that feeds them. */
    public void deleteTopic(Entry[] group, String topic) {
        for (Entry e : group) {
            try {
                e.dispatcher.deleteTopic(topic);
            } catch (RuntimeException ex) {
                e.failures.increment();
                LOG.error("built-in dispatcher {} failed to delete topic {}", e.name, topic, ex);
            }
        }
    }

    /**
     * Ends the batch of every built-in dispatcher ({@link CommitLogDispatcher#endBatch()}): what they held back is
     * published. A failure is handled as a failed dispatch: counted, and the dispatcher's running flag set.
     */
    public void endBatch() {
        endBatch(builtInArray);
    }

    /** {@link #endBatch()} for the dispatchers of one group, on the thread that feeds them. */
    public void endBatch(Entry[] group) {
        for (Entry e : group) {
            try {
                e.dispatcher.endBatch();
            } catch (RuntimeException ex) {
                e.failures.increment();
                int flag = e.dispatcher.view(KeyIndexView.class).isPresent() ? RunningFlags.WRITE_INDEX_FILE_ERROR
                        : RunningFlags.WRITE_LOGICS_QUEUE_ERROR;
                flags.set(flag, "dispatcher " + e.name + " failed to end a batch: " + ex);
                LOG.error("built-in dispatcher {} failed to end a batch", e.name, ex);
            }
        }
    }

    /** Ends a plugin's batch on its own thread; a failure counts as a failed dispatch of that plugin. */
    public void endBatchOfPlugin(Entry e) {
        try {
            e.dispatcher.endBatch();
        } catch (RuntimeException ex) {
            e.failures.increment();
            LOG.warn("plugin dispatcher {} failed to end a batch: {}", e.name, ex.toString());
        } catch (Error err) {
            e.failures.increment();
            disable(e, "endBatch threw " + err);
        }
    }

    /**
     * Hands {@code request} to one plugin on its own thread: an exception is counted (and logged now and then), an
     * Error disables the plugin. False when the plugin is (now) disabled.
     */
    public boolean dispatchToPlugin(Entry e, DispatchRequest request) {
        try {
            e.dispatcher.dispatch(request);
        } catch (RuntimeException ex) {
            e.failures.increment();
            if (e.failures.sum() % LOG_EVERY_NTH_FAILURE == 1) {
                LOG.warn("plugin dispatcher {} failed ({} failures so far) at commit-log offset {}: {}",
                        e.name, e.failures.sum(), request.commitLogOffset(), ex.toString());
            }
        } catch (Error err) {
            e.failures.increment();
            disable(e, "dispatch threw " + err + " at commit-log offset " + request.commitLogOffset());
        }
        return !isDisabled(e);
    }

    /** The smallest offset every built-in dispatcher holds durably: the reput loop resumes there. */
    public long minDurableOffset() {
        long min = Long.MAX_VALUE;
        for (Entry e : builtIns) {
            min = Math.min(min, e.dispatcher.durableOffset());
        }
        return min;
    }

    /** Where a plugin's cursor starts: its durable offset, or -1 (and the plugin disabled) when asking threw. */
    public long pluginDurableOffset(Entry e) {
        try {
            return e.dispatcher.durableOffset();
        } catch (Throwable t) {
            e.failures.increment();
            disable(e, "durableOffset() threw " + t);
            return -1;
        }
    }

    /** Stops calling a plugin, keeping why for {@code stat}. The first reason stays. */
    public void disable(Entry e, String reason) {
        if (disabled.putIfAbsent(e.name, reason) == null) {
            LOG.error("plugin dispatcher {} disabled: {}", e.name, reason);
        }
    }

    public boolean isDisabled(Entry e) {
        return disabled.containsKey(e.name);
    }

    /** Disabled plugins and why. */
    public Map<String, String> disabledReasons() {
        return Map.copyOf(disabled);
    }

    /** Asks every dispatcher holding data at or past {@code offset} to drop it. */
    public void truncate(long offset) {
        for (Entry e : entries) {
            guarded(e, () -> {
                if (e.dispatcher.durableOffset() > offset || offset == 0) {
                    LOG.info("dispatcher {} truncated to commit-log offset {}", e.name, offset);
                    e.dispatcher.truncate(offset);
                }
                return 0L;
            }, 0L);
        }
    }

    /**
     * Flushes every dispatcher. A built-in whose flush fails raises its write-error flag, as a failed dispatch does:
     * what it built may not be on disk (the ConsumeQueue dispatcher writes a new queue's units, held in memory, in
     * its flush), so puts are refused, the abort file stays, and the next start re-dispatches from the checkpoint.
     */
    public void flush(int leastPages) {
        for (Entry e : entries) {
            try {
                guarded(e, () -> {
                    e.dispatcher.flush(leastPages);
                    return 0L;
                }, 0L);
            } catch (RuntimeException ex) {
                int flag = e.dispatcher.view(KeyIndexView.class).isPresent() ? RunningFlags.WRITE_INDEX_FILE_ERROR
                        : RunningFlags.WRITE_LOGICS_QUEUE_ERROR;
                flags.set(flag, "dispatcher " + e.name + " failed to flush: " + ex);
                throw ex;
            }
        }
    }

    public void deleteExpired(long minCommitLogOffset) {
        for (Entry e : entries) {
            guarded(e, () -> {
                e.dispatcher.deleteExpired(minCommitLogOffset);
                return 0L;
            }, 0L);
        }
    }

    /** The first dispatcher offering {@code view}. */
    public <T> Optional<T> view(Class<T> type) {
        for (Entry e : entries) {
            Optional<T> v = e.dispatcher.view(type);
            if (v.isPresent()) {
                return v;
            }
        }
        return Optional.empty();
    }

    /** Failures per dispatcher name, for stats. */
    public Map<String, Long> failures() {
        Map<String, Long> out = new LinkedHashMap<>();
        entries.forEach(e -> out.put(e.name, e.failures.sum()));
        return out;
    }

    public List<String> names() {
        List<String> names = new ArrayList<>();
        entries.forEach(e -> names.add(e.name));
        return names;
    }

    /** Closes every dispatcher, disabled plugins too (they may hold files). */
    @Override
    public void close() {
        for (Entry e : entries) {
            try {
                e.dispatcher.close();
            } catch (RuntimeException | Error ex) {
                if (e.builtIn) {
                    throw ex;
                }
                e.failures.increment();
                LOG.warn("plugin dispatcher {} failed to close: {}", e.name, ex.toString());
            }
        }
    }

    /** After a read-only open: every dispatcher releases its files without writing. */
    public void closeWithoutWriting() {
        for (Entry e : entries) {
            guarded(e, () -> {
                e.dispatcher.closeWithoutWriting();
                return 0L;
            }, 0L);
        }
    }

    /** Calls a dispatcher; a built-in's failure propagates, a plugin's is counted (an Error disables it). */
    private long guarded(Entry e, LongSupplier call, long fallback) {
        if (!e.builtIn && isDisabled(e)) {
            return fallback;
        }
        try {
            return call.getAsLong();
        } catch (RuntimeException ex) {
            e.failures.increment();
            if (e.builtIn) {
                throw ex;
            }
            LOG.warn("plugin dispatcher {} failed: {}", e.name, ex.toString());
            return fallback;
        } catch (Error err) {
            if (e.builtIn) {
                throw err;
            }
            e.failures.increment();
            disable(e, "threw " + err);
            return fallback;
        }
    }
}
