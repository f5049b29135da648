package dev.hangar.launcher.command;

import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.StoredMessage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The two shapes of a stored message on the command line: the JSON object of {@code get}/{@code query --json}
 * (field names are part of the launcher contract: users' scripts read them) and a one-line text form. Stateless.
 */
public final class MessageJson {
    private static final int TEXT_BODY_LIMIT = 200;

    private MessageJson() {
    }

    /** The contract's JSON fields, in the contract's order. */
    public static Map<String, Object> toMap(StoredMessage m) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topic", m.topic());
        json.put("queueId", m.queueId());
        json.put("queueOffset", m.queueOffset());
        json.put("commitLogOffset", m.commitLogOffset());
        json.put("msgId", m.msgId());
        json.put("storeTimestamp", m.storeTimestamp());
        json.put("bornTimestamp", m.bornTimestamp());
        json.put("sysFlag", m.sysFlag());
        json.put("flag", m.flag());
        json.put("keys", m.keys());
        json.put("tags", m.tags());
        json.put("properties", new LinkedHashMap<>(m.properties()));
        json.put("bodyCrc", m.bodyCrc());
        json.put("bodySize", m.body().length);
        json.put("bodyBase64", Base64.getEncoder().encodeToString(m.body()));
        return json;
    }

    /** One JSON line. */
    public static String toJson(StoredMessage m) {
        return JsonWriter.write(toMap(m));
    }

    /** One readable line: position, id, time, keys, tags, other properties and the body (text or base64). */
    public static String toText(StoredMessage m) {
        StringBuilder line = new StringBuilder(160);
        line.append(m.topic()).append(" queue=").append(m.queueId())
                .append(" queueOffset=").append(m.queueOffset())
                .append(" commitLogOffset=").append(m.commitLogOffset())
                .append(" msgId=").append(m.msgId())
                .append(" stored=").append(Instant.ofEpochMilli(m.storeTimestamp()));
        if (m.keys() != null) {
            line.append(" keys=").append(JsonWriter.quote(m.keys()));
        }
        if (m.tags() != null) {
            line.append(" tags=").append(JsonWriter.quote(m.tags()));
        }
        Map<String, String> others = new LinkedHashMap<>(m.properties());
        others.remove(MessageConst.KEYS);
        others.remove(MessageConst.TAGS);
        if (!others.isEmpty()) {
            line.append(" properties=").append(JsonWriter.write(others));
        }
        line.append(" bodySize=").append(m.body().length);
        String text = printableText(m.body());
        if (text != null) {
            line.append(" body=").append(JsonWriter.quote(shorten(text)));
        } else {
            line.append(" bodyBase64=").append(shorten(Base64.getEncoder().encodeToString(m.body())));
        }
        return line.toString();
    }

    /** The body as text when it is valid UTF-8 without control characters other than tab, else null. */
    static String printableText(byte[] body) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\t') {
                return null;
            }
        }
        return text;
    }

    private static String shorten(String s) {
        return s.length() <= TEXT_BODY_LIMIT ? s : s.substring(0, TEXT_BODY_LIMIT) + "...";
    }
}
