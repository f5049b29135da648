package dev.hangar.launcher.http;

import dev.hangar.launcher.MessageRequest;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.TagFilter;
import dev.hangar.store.put.MessageValidator;

/**
 * Checks of request values shared by the handlers, with the store's own rules (a topic is checked by the store's
 * {@link MessageValidator}, so the API refuses exactly what the store would), answered as 400 before the store is
 * touched. Stateless.
 */
final class RequestChecks {
    private RequestChecks() {
    }

    /** The topic, or a 400 saying what is wrong with it. */
    static String topic(String topic) {
        String problem = MessageValidator.checkTopic(topic);
        if (problem != null) {
            throw ApiException.badRequest("bad topic: " + problem);
        }
        return topic;
    }

    /** A queue id: a whole number from 0. */
    static int queueId(String what, String text) {
        return (int) QueryParameters.parseLong(what, text, 0, Integer.MAX_VALUE);
    }

    /** A consumer group name: the topic rules, or a 400 saying what is wrong with it. */
    static String group(String group) {
        String problem = MessageValidator.checkTopic(group);
        if (problem != null) {
            throw ApiException.badRequest("bad group: " + problem.replaceFirst("^topic", "group"));
        }
        return group;
    }

    /** A tag expression ({@code TagA||TagB}, {@code *}; absent = all), or a 400. */
    static MessageFilter tagFilter(String expression) {
        try {
            return TagFilter.parse(expression);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    /** A message key, by {@link MessageRequest#checkKey}'s rules (a 400 when it breaks them). */
    static String key(String key) {
        return MessageRequest.checkKey(key);
    }
}
