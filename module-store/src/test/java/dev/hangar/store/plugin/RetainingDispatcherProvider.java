package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plugin that keeps what it was handed past {@code dispatch()} ("test-retaining"): the request object itself (which
 * the contract says not to rely on), and what the contract says is safe to keep: the Strings, the property map, a
 * copy, and keys read from the bytes during the call.
 */
public final class RetainingDispatcherProvider implements CommitLogDispatcherProvider {
    /** What one dispatch() saw and kept. */
    public record Kept(DispatchRequest request, DispatchRequest copy, String topic, String keys, String uniqKey,
                       String tag, Map<String, String> properties, List<String> keysFromBytes, String thread) {
    }

    public static final List<Kept> KEPT = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "test-retaining";
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new CommitLogDispatcher() {
            @Override
            public void dispatch(DispatchRequest request) {
                List<String> fromBytes = new ArrayList<>();
                request.forEachKey((bytes, offset, length) -> {
                    byte[] key = new byte[length];
                    bytes.get(offset, key);
                    fromBytes.add(new String(key, StandardCharsets.UTF_8));
                });
                KEPT.add(new Kept(request, request.copy(), request.topic(), request.keys(), request.uniqKey(),
                        request.property("TAGS"), request.properties(), fromBytes, Thread.currentThread().getName()));
            }

            @Override
            public long durableOffset() {
                return KEPT.isEmpty() ? 0 : KEPT.get(KEPT.size() - 1).copy().nextOffset();
            }

            @Override
            public void truncate(long commitLogOffset) {
                KEPT.removeIf(k -> k.copy().commitLogOffset() >= commitLogOffset);
            }
        };
    }
}
