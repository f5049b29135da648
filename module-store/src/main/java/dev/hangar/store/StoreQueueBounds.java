package dev.hangar.store;

import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.store.offsets.ConsumerOffsetService;
import java.util.ArrayList;
import java.util.List;

/** The ConsumeQueue facts commits are checked against; a store without a ConsumeQueue has no topics. */
final class StoreQueueBounds implements ConsumerOffsetService.QueueBounds {
    private final ConsumeQueueView view;

    StoreQueueBounds(ConsumeQueueView view) {
        this.view = view;
    }

    @Override
    public boolean exists(String topic, int queueId) {
        return view != null && view.exists(topic, queueId);
    }

    @Override
    public List<Integer> queuesOf(String topic) {
        List<Integer> ids = new ArrayList<>();
        if (view != null) {
            view.forEachQueue((t, q, min, max) -> {
                if (t.equals(topic)) {
                    ids.add(q);
                }
            });
        }
        ids.sort(null);
        return ids;
    }

    @Override
    public long minOffset(String topic, int queueId) {
        return view == null ? 0 : view.minOffset(topic, queueId);
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        return view == null ? 0 : view.maxOffset(topic, queueId);
    }

    @Override
    public long offsetByTime(String topic, int queueId, long timestamp) {
        return view == null ? 0 : view.offsetByTime(topic, queueId, timestamp);
    }
}
