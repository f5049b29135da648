package dev.hangar.example.tagcounter;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.message.MessageSysFlag;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts messages per {@code topic/tag}. Shows the whole dispatcher contract in a few lines:
 * <ul>
 *   <li>{@link #dispatch} runs on the reput thread, in commit-log order;</li>
 *   <li>{@link #flush} saves the counts with the offset they reach, atomically (write + rename);</li>
 *   <li>{@link #durableOffset} tells the engine where that saved state ends, so after a crash the engine
 *       re-sends what came later;</li>
 *   <li>{@link #truncate} is told when recovery cut the log: counts that may include dropped records are
 *       thrown away and rebuilt by re-dispatch from offset 0.</li>
 * </ul>
 * Thread-safety: dispatch and truncate on the reput/start thread, flush on the flush thread, reads anywhere.
 */
public final class TagCounterDispatcher implements CommitLogDispatcher {
    static final String OFFSET_KEY = "#offset";

    private final Path file;
    private final Set<String> topics;
    private final Map<String, Long> counts = new ConcurrentHashMap<>();
    private volatile long dispatchedOffset;
    private volatile long savedOffset;

    /** @param topics the topics to count, or empty for every topic ({@code tag-counter.topics}) */
    TagCounterDispatcher(Path file, Set<String> topics) {
        this.file = file;
        this.topics = Set.copyOf(topics);
    }

    @Override
    public void load() {
        if (!Files.exists(file)) {
            return;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        p.forEach((k, v) -> {
            if (!OFFSET_KEY.equals(k)) {
                counts.put((String) k, Long.parseLong((String) v));
            }
        });
        savedOffset = Long.parseLong(p.getProperty(OFFSET_KEY, "0"));
        dispatchedOffset = savedOffset;
    }

    @Override
    public void dispatch(DispatchRequest request) {
        if (request.commitLogOffset() < dispatchedOffset) {
            return; // already counted: the engine re-sends records after a crash
        }
        if (MessageSysFlag.takesQueueOffset(request.sysFlag()) && (topics.isEmpty() || topics.contains(request.topic()))) {
            // property() and topic() return immutable copies: safe to keep after dispatch() returns, unlike the
            // request itself, which the engine re-points at the next record
            String tag = request.property("TAGS");
            if (tag == null) {
                tag = "";
            }
            counts.merge(request.topic() + "/" + tag, 1L, Long::sum);
        }
        dispatchedOffset = request.nextOffset();
    }

    @Override
    public long durableOffset() {
        return savedOffset;
    }

    @Override
    public void truncate(long commitLogOffset) {
        if (commitLogOffset < dispatchedOffset) {
            counts.clear();
            dispatchedOffset = 0;
            savedOffset = 0;
        }
    }

    @Override
    public synchronized void flush(int leastPages) {
        long offset = dispatchedOffset;
        Properties p = new Properties();
        counts.forEach((k, v) -> p.setProperty(k, Long.toString(v)));
        p.setProperty(OFFSET_KEY, Long.toString(offset));
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "tag-counter: messages per topic/tag");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            savedOffset = offset;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public void close() {
        flush(0);
    }

    /** Messages counted per {@code topic/tag}. */
    public Map<String, Long> counts() {
        return new TreeMap<>(counts);
    }
}
