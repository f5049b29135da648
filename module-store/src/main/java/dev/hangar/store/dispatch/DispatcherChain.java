package dev.hangar.store.dispatch;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.store.service.RunningFlags;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured dispatchers in order. A failure of a built-in dispatcher sets the matching running flag (the
 * store stops taking writes, as RocketMQ does); a failure of a third-party dispatcher is counted and logged
 * and never stops the others.
 */
public final class DispatcherChain implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DispatcherChain.class);
    private static final long LOG_EVERY_NTH_FAILURE = 1000;

    /** One dispatcher with its name and failure counter. */
    public record Entry(String name, CommitLogDispatcher dispatcher, boolean builtIn, LongAdder failures) {
    }

    private final List<Entry> entries;
    private final RunningFlags flags;

    public DispatcherChain(List<Entry> entries, RunningFlags flags) {
        this.entries = List.copyOf(entries);
        this.flags = flags;
    }

    /** A built-in dispatcher comes from Hangar's own dispatch module. */
    public static Entry entry(String name, CommitLogDispatcher d) {
        boolean builtIn = d.getClass().getName().startsWith("dev.hangar.dispatch.");
        return new Entry(name, d, builtIn, new LongAdder());
    }

    public List<Entry> entries() {
        return entries;
    }

    public void load() {
        entries.forEach(e -> e.dispatcher.load());
    }

    public void dispatch(DispatchRequest request) {
        for (Entry e : entries) {
            try {
                e.dispatcher.dispatch(request);
            } catch (RuntimeException ex) {
                e.failures.increment();
                if (e.builtIn) {
                    int flag = "index".equals(e.name) ? RunningFlags.WRITE_INDEX_FILE_ERROR : RunningFlags.WRITE_LOGICS_QUEUE_ERROR;
                    flags.set(flag, "dispatcher " + e.name + " failed at commit-log offset "
                            + request.commitLogOffset() + ": " + ex);
                    LOG.error("built-in dispatcher {} failed at {}", e.name, request.commitLogOffset(), ex);
                } else if (e.failures.sum() % LOG_EVERY_NTH_FAILURE == 1) {
                    LOG.warn("plugin dispatcher {} failed ({} failures so far) at commit-log offset {}: {}",
                            e.name, e.failures.sum(), request.commitLogOffset(), ex.toString());
                }
            }
        }
    }

    /** The smallest offset every dispatcher holds durably: dispatch resumes there. */
    public long minDurableOffset() {
        long min = Long.MAX_VALUE;
        for (Entry e : entries) {
            min = Math.min(min, guarded(e, () -> e.dispatcher.durableOffset(), Long.MAX_VALUE));
        }
        return min;
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

    public void flush(int leastPages) {
        for (Entry e : entries) {
            guarded(e, () -> {
                e.dispatcher.flush(leastPages);
                return 0L;
            }, 0L);
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

    @Override
    public void close() {
        for (Entry e : entries) {
            guarded(e, () -> {
                e.dispatcher.close();
                return 0L;
            }, 0L);
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

    private long guarded(Entry e, java.util.function.LongSupplier call, long fallback) {
        try {
            return call.getAsLong();
        } catch (RuntimeException ex) {
            e.failures.increment();
            if (e.builtIn) {
                throw ex;
            }
            LOG.warn("plugin dispatcher {} failed: {}", e.name, ex.toString());
            return fallback;
        }
    }
}
