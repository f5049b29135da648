package dev.hangar.compat.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sequence of puts and what a reader must find afterwards: the messages in commit-log order, the stored
 * queues with their message counts, and the (topic, key) pairs with the messages each must find. Immutable.
 */
public record Dataset(String name, String storeHost, List<PutSpec> puts) {
    public Dataset {
        puts = List.copyOf(puts);
    }

    /** {@code first}'s puts then {@code second}'s, as one dataset (both must use the same store host). */
    public static Dataset concat(String name, Dataset first, Dataset second) {
        if (!first.storeHost().equals(second.storeHost())) {
            throw new IllegalArgumentException("datasets with different store hosts");
        }
        List<PutSpec> all = new ArrayList<>(first.puts());
        all.addAll(second.puts());
        return new Dataset(name, first.storeHost(), all);
    }

    /** This dataset without its last put (the one a crash test damages). */
    public Dataset withoutLastPut() {
        return new Dataset(name + " without its last put", storeHost, puts.subList(0, puts.size() - 1));
    }

    /** Every message, in the order they are appended to the commit log. */
    public List<MessageSpec> messages() {
        List<MessageSpec> all = new ArrayList<>();
        puts.forEach(p -> all.addAll(p.messages()));
        return all;
    }

    /** "topic/queueId" of every stored queue, with the number of messages it must hold. */
    public Map<String, Integer> queueCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (MessageSpec m : messages()) {
            if (m.takesQueueOffset()) {
                counts.merge(queueName(m.storedTopic(), m.storedQueueId()), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** For each "topic#key": the indexes (in {@link #messages()}) of the messages a query must return. */
    public Map<String, List<Integer>> keyQueries() {
        Map<String, List<Integer>> queries = new LinkedHashMap<>();
        List<MessageSpec> all = messages();
        for (int i = 0; i < all.size(); i++) {
            MessageSpec m = all.get(i);
            for (String key : m.indexKeys()) {
                List<Integer> hits = queries.computeIfAbsent(m.storedTopic() + "#" + key, k -> new ArrayList<>());
                if (m.indexed()) {
                    hits.add(i);
                }
            }
        }
        return queries;
    }

    public Set<String> topics() {
        Set<String> topics = new LinkedHashSet<>();
        messages().forEach(m -> topics.add(m.storedTopic()));
        return topics;
    }

    public static String queueName(String topic, int queueId) {
        return topic + "/" + queueId;
    }

    public static String topicOf(String queueName) {
        return queueName.substring(0, queueName.lastIndexOf('/'));
    }

    public static int queueIdOf(String queueName) {
        return Integer.parseInt(queueName.substring(queueName.lastIndexOf('/') + 1));
    }
}
