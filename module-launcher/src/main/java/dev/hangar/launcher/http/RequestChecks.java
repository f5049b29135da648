package dev.hangar.launcher.http;

import dev.hangar.spi.message.MessageConst;
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

    /** A message key: keys are stored space-separated, so a key cannot be empty or contain white space. */
    static String key(String key) {
        if (key.isBlank() || key.chars().anyMatch(Character::isWhitespace) || hasSeparator(key)) {
            throw ApiException.badRequest("a key cannot be empty or contain white space or U+0001/U+0002: '"
                    + UriCodec.shorten(key) + "'");
        }
        return key;
    }

    /** True when {@code s} holds a character that separates stored properties. */
    static boolean hasSeparator(String s) {
        return s.indexOf(MessageConst.NAME_VALUE_SEPARATOR) >= 0 || s.indexOf(MessageConst.PROPERTY_SEPARATOR) >= 0;
    }
}
