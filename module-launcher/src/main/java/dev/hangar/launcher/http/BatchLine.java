package dev.hangar.launcher.http;

import dev.hangar.launcher.MessageRequest;
import dev.hangar.launcher.json.JsonReader;
import dev.hangar.spi.message.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One line of an NDJSON batch: a JSON object
 * <pre>
 *   {"queue": 0, "key": "k" | "keys": ["k1", "k2"], "tag": "t", "properties": {"Name": "value"},
 *    "delayLevel": 0, "body": "UTF-8 text" | "bodyBase64": "..."}
 * </pre>
 * Exactly one of {@code body} and {@code bodyBase64}; everything else optional; any other field is refused (a
 * misspelt field must not be silently ignored). Property names keep their case. Stateless.
 */
final class BatchLine {
    private static final Set<String> FIELDS = Set.of("queue", "key", "keys", "tag", "properties", "delayLevel", "body",
            "bodyBase64");

    private BatchLine() {
    }

    /**
     * The message of one line; an {@link ApiException} or {@link IllegalArgumentException} saying what is wrong.
     *
     * @param defaultQueue the queue when the line names none
     * @param delayLevels  the highest delay level
     */
    static Message parse(String line, String topic, int defaultQueue, int delayLevels) {
        if (!(JsonReader.parse(line) instanceof Map<?, ?> object)) {
            throw ApiException.badRequest("a line must be a JSON object");
        }
        for (Object name : object.keySet()) {
            if (!FIELDS.contains(name)) {
                throw ApiException.badRequest("unknown field \"" + UriCodec.shorten((String) name) + "\"; allowed: "
                        + "queue, key, keys, tag, properties, delayLevel, body, bodyBase64");
            }
        }
        int queue = (int) whole(object, "queue", defaultQueue, Integer.MAX_VALUE);
        byte[] body = body(object);
        MessageProperties properties = new MessageProperties();
        if (object.get("properties") != null) {
            if (!(object.get("properties") instanceof Map<?, ?> map)) {
                throw ApiException.badRequest("\"properties\" must be an object of strings");
            }
            map.forEach((name, value) -> {
                if (!(value instanceof String text)) {
                    throw ApiException.badRequest("property \"" + name + "\" must be a string");
                }
                properties.add((String) name, text);
            });
        }
        Message m = new MessageRequest(topic, queue, keys(object), string(object, "tag"), properties.asMap())
                .toMessage(body);
        int delayLevel = (int) whole(object, "delayLevel", 0, delayLevels);
        if (delayLevel > 0) {
            if (properties.contains(dev.hangar.spi.message.MessageConst.DELAY_TIME_LEVEL)) {
                throw ApiException.badRequest("the delay level is given both as delayLevel and as property DELAY");
            }
            m.delayLevel(delayLevel);
        }
        return m;
    }

    private static byte[] body(Map<?, ?> object) {
        String text = string(object, "body");
        String base64 = string(object, "bodyBase64");
        if ((text == null) == (base64 == null)) {
            throw ApiException.badRequest("give exactly one of \"body\" (UTF-8 text) and \"bodyBase64\"");
        }
        if (text != null) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("\"bodyBase64\" is not base64: " + e.getMessage());
        }
    }

    private static List<String> keys(Map<?, ?> object) {
        List<String> keys = new ArrayList<>();
        String key = string(object, "key");
        if (key != null) {
            keys.add(RequestChecks.key(key));
        }
        Object many = object.get("keys");
        if (many instanceof String one) {
            keys.add(RequestChecks.key(one));
        } else if (many instanceof List<?> list) {
            for (Object k : list) {
                if (!(k instanceof String text)) {
                    throw ApiException.badRequest("\"keys\" must hold strings");
                }
                keys.add(RequestChecks.key(text));
            }
        } else if (many != null) {
            throw ApiException.badRequest("\"keys\" must be a string or an array of strings");
        }
        return keys;
    }

    private static String string(Map<?, ?> object, String field) {
        Object v = object.get(field);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw ApiException.badRequest("\"" + field + "\" must be a string");
    }

    private static long whole(Map<?, ?> object, String field, long absent, long max) {
        Object v = object.get(field);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof Long n) || n < 0 || n > max) {
            throw ApiException.badRequest("\"" + field + "\" must be a whole number from 0 to " + max + ", not " + v);
        }
        return n;
    }
}
