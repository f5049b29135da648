package dev.hangar.launcher.http;

import dev.hangar.launcher.consumer.GroupReport;
import dev.hangar.spi.store.MessageStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The consumer groups in {@code /metrics}: per group, topic and queue the committed offset
 * ({@code hangar_consumer_committed_offset}) and the lag ({@code hangar_consumer_lag}, the queue's max offset minus
 * the committed one), plus the number of groups. One series per committed queue, so the series set changes only when
 * a group commits a new queue or is deleted. Stateless.
 */
final class ConsumerMetrics {
    private ConsumerMetrics() {
    }

    static void write(PrometheusWriter w, MessageStore store) {
        List<PrometheusWriter.Sample> committed = new ArrayList<>();
        List<PrometheusWriter.Sample> lag = new ArrayList<>();
        var groups = store.consumerOffsets().groups();
        for (String group : groups) {
            for (GroupReport.QueueLag l : GroupReport.lags(store, group)) {
                Map<String, String> labels = new LinkedHashMap<>();
                labels.put("group", group);
                labels.put("topic", l.topic());
                labels.put("queue", Integer.toString(l.queueId()));
                committed.add(new PrometheusWriter.Sample(labels, l.committed()));
                lag.add(new PrometheusWriter.Sample(labels, l.lag()));
            }
        }
        w.gauge("hangar_consumer_groups", "Consumer groups with at least one committed offset", groups.size());
        w.labelledGauges("hangar_consumer_committed_offset", "The next queue offset the group will read, as committed",
                committed);
        w.labelledGauges("hangar_consumer_lag", "Messages of the queue the group has not committed yet (max offset "
                + "minus committed offset)", lag);
    }
}
