package dev.hangar.launcher;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.PutMessageResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One message to put, as {@code put} on the command line, {@code POST /v1/topics/{topic}/messages} and each line of
 * an NDJSON batch give it: the one place that checks keys, tags and properties (the characters U+0001 and U+0002
 * separate stored properties, so no name or value may hold them), builds the {@link Message}, and writes the JSON
 * result of a put. A refused put's JSON names why under {@code error}, as every error answer of the HTTP API does.
 *
 * @param properties user properties, in the order given; names and values already free of separators
 */
public record MessageRequest(String topic, int queueId, List<String> keys, String tag, Map<String, String> properties) {

    /** A value the request cannot carry; the message says which and what is allowed. */
    public static final class InvalidRequestException extends IllegalArgumentException {
        InvalidRequestException(String message) {
            super(message);
        }
    }

    /** Checks every part; throws {@link InvalidRequestException} naming the first bad one. */
    public MessageRequest {
        if (queueId < 0) {
            throw new InvalidRequestException("the queue must be 0 or more, not " + queueId);
        }
        keys = List.copyOf(keys);
        keys.forEach(MessageRequest::checkKey);
        if (tag != null) {
            checkTag(tag);
        }
        properties.forEach(MessageRequest::checkProperty);
        properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** A message key: keys are stored space-separated, so one cannot be empty or hold white space or a separator. */
    public static String checkKey(String key) {
        if (key.isBlank() || key.chars().anyMatch(Character::isWhitespace) || hasSeparator(key)) {
            throw new InvalidRequestException("a key cannot be empty or contain white space (keys are stored "
                    + "space-separated) or U+0001/U+0002: '" + shorten(key) + "'");
        }
        return key;
    }

    public static String checkTag(String tag) {
        if (tag.isEmpty() || hasSeparator(tag)) {
            throw new InvalidRequestException("a tag cannot be empty or contain U+0001/U+0002");
        }
        return tag;
    }

    public static void checkProperty(String name, String value) {
        if (name.isEmpty() || hasSeparator(name) || hasSeparator(value)) {
            throw new InvalidRequestException("property '" + shorten(name) + "': a name must not be empty and names "
                    + "and values must not contain U+0001 or U+0002");
        }
    }

    /** True when {@code s} holds a character that separates stored properties. */
    public static boolean hasSeparator(String s) {
        return s.indexOf(MessageConst.NAME_VALUE_SEPARATOR) >= 0 || s.indexOf(MessageConst.PROPERTY_SEPARATOR) >= 0;
    }

    public Message toMessage(byte[] body) {
        Message m = new Message(topic, body).queueId(queueId);
        properties.forEach(m::property);
        if (!keys.isEmpty()) {
            m.keys(keys.toArray(String[]::new));
        }
        if (tag != null) {
            m.tags(tag);
        }
        return m;
    }

    /**
     * The JSON result of a put: {@code status, msgId, topic, queueId, queueOffset, commitLogOffset}, plus
     * {@code error} (the store's reason, or the status name) when refused. Offsets and id are null when nothing
     * was written.
     *
     * @param index which message of a batch put (0 for a single put)
     */
    public static Map<String, Object> resultJson(PutMessageResult r, String topic, int queueId, int index) {
        boolean written = r.appended() && (index == 0 || index < r.msgIds().size());
        String msgId = !written ? null : index == 0 ? r.msgId() : r.msgIds().get(index);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", r.status());
        json.put("msgId", msgId);
        json.put("topic", topic);
        json.put("queueId", queueId);
        json.put("queueOffset", written ? r.logicsOffset() + index : null);
        json.put("commitLogOffset", written ? commitLogOffset(msgId, r.wroteOffset(), index) : null);
        if (!r.isOk()) {
            json.put("error", r.reason() != null ? r.reason() : r.status().name());
        }
        return json;
    }

    /** An offset message id ends with the record's commit-log offset in 16 hex digits. */
    private static Long commitLogOffset(String msgId, long firstOffset, int index) {
        if (index == 0) {
            return firstOffset;
        }
        return msgId == null || msgId.length() < 16 ? null : Long.parseUnsignedLong(msgId.substring(msgId.length() - 16), 16);
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
