package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A third-party-style dispatcher for tests: records every request it is given ("test-recording"). */
public final class RecordingDispatcherProvider implements CommitLogDispatcherProvider {
    public static final List<DispatchRequest> RECEIVED = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "test-recording";
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new CommitLogDispatcher() {
            @Override
            public void dispatch(DispatchRequest request) {
                RECEIVED.add(request.copy()); // the request is valid only during dispatch()
            }

            @Override
            public long durableOffset() {
                return RECEIVED.isEmpty() ? 0 : RECEIVED.get(RECEIVED.size() - 1).nextOffset();
            }

            @Override
            public void truncate(long commitLogOffset) {
                RECEIVED.removeIf(r -> r.commitLogOffset() >= commitLogOffset);
            }
        };
    }
}
