package dev.hangar.store.reput;

import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.StatsSnapshot;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.format.DispatchRecordView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The third-party dispatchers, each isolated on a {@link PluginDispatchRunner}: a thread and a CommitLog cursor of
 * its own, starting at the plugin's {@code durableOffset()} (kept within the log). Back-pressure on puts and the
 * "dispatched" offset follow the built-in dispatchers only.
 *
 * <p>Retention does not wait for plugins: a plugin lagging behind a deleted file jumps to the first remaining
 * offset, and the bytes it missed are counted in {@code skippedBytes} (so a plugin's lag never holds back
 * retention; the bound is zero files).
 *
 * <p>Thread-safety: {@link #start} and {@link #shutdown} once each from the lifecycle thread; the rest from any.
 */
public final class PluginDispatch {
    private static final Logger LOG = LoggerFactory.getLogger(PluginDispatch.class);

    private final DispatcherChain chain;
    private final CommitLog commitLog;
    private final LongSupplier visibleEnd;
    private final List<PluginDispatchRunner> runners = new CopyOnWriteArrayList<>();
    /**
     * The runners as an array, for {@link #wakeup()} after every dispatch pass: iterating the list makes an
     * iterator per pass, which escape analysis removed only as long as the JIT happened to inline this call into
     * the reput loop (24 B per one-record pass when it did not; DispatchAllocationTest).
     */
    private volatile PluginDispatchRunner[] wakeupTargets = new PluginDispatchRunner[0];

    /** @param visibleEnd what readers may see: the plugins never get further than the built-in dispatch could */
    public PluginDispatch(DispatcherChain chain, CommitLog commitLog, LongSupplier visibleEnd) {
        this.chain = chain;
        this.commitLog = commitLog;
        this.visibleEnd = visibleEnd;
    }

    /**
     * Starts one runner per enabled plugin, each at its durable offset clamped to the log ({@code logEnd} when the
     * plugin holds everything, the first offset when it asks for deleted data).
     *
     * @param prepare adjusts a record before it is handed on (the same as for the built-ins)
     */
    public synchronized void start(long logEnd, Consumer<DispatchRecordView> prepare) {
        for (DispatcherChain.Entry e : chain.enabledPlugins()) {
            long durable = chain.pluginDurableOffset(e);
            if (durable < 0) {
                continue;
            }
            long from = Math.max(Math.min(durable, logEnd), Math.max(0, commitLog.getMinOffset()));
            PluginDispatchRunner runner = new PluginDispatchRunner(chain, e, commitLog, from, visibleEnd, prepare);
            runners.add(runner);
            wakeupTargets = runners.toArray(new PluginDispatchRunner[0]);
            runner.start();
            LOG.info("plugin dispatcher {} runs on its own thread from commit-log offset {}", e.name(), from);
        }
    }

    /** New records are visible. */
    public void wakeup() {
        for (PluginDispatchRunner r : wakeupTargets) {
            r.wakeup();
        }
    }

    /** The largest lag of a running plugin, in bytes. */
    public long maxLagBytes() {
        long max = 0;
        for (PluginDispatchRunner r : runners) {
            if (!r.isDisabled()) {
                max = Math.max(max, r.lagBytes());
            }
        }
        return max;
    }

    /** Per plugin: state, offset, lag, failures, skipped bytes, and why it was disabled. For stat and /metrics. */
    public Map<String, StatsSnapshot.Plugin> snapshot() {
        Map<String, StatsSnapshot.Plugin> out = new LinkedHashMap<>();
        Map<String, Long> failures = chain.failures();
        Map<String, String> disabled = chain.disabledReasons();
        for (DispatcherChain.Entry e : chain.entries()) {
            if (e.builtIn()) {
                continue;
            }
            PluginDispatchRunner r = runner(e.name());
            String state = disabled.containsKey(e.name()) ? "disabled" : r == null ? "not started" : "running";
            out.put(e.name(), new StatsSnapshot.Plugin(state, r == null ? -1L : r.offset(),
                    r == null ? 0L : r.lagBytes(), r == null ? 0L : r.skippedBytes(),
                    failures.getOrDefault(e.name(), 0L), disabled.get(e.name())));
        }
        return out;
    }

    private PluginDispatchRunner runner(String name) {
        for (PluginDispatchRunner r : runners) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /** Lets each plugin catch up for at most {@code waitMillis} in all, then stops the threads. */
    public synchronized void shutdown(long waitMillis) {
        long deadline = System.currentTimeMillis() + waitMillis;
        for (PluginDispatchRunner r : runners) {
            r.stop(Math.max(0, deadline - System.currentTimeMillis()));
        }
    }
}
