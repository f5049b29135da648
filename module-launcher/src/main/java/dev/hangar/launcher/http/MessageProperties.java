package dev.hangar.launcher.http;

import dev.hangar.launcher.MessageRequest;
import dev.hangar.spi.message.MessageConst;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * User properties of a put, from every carrier the API takes, checked with one set of rules. Carriers, in the
 * order they are read:
 * <ul>
 *   <li>query parameter {@code property=Name=value} (repeatable; percent-encoded like any query value);</li>
 *   <li>header {@code X-Hangar-Properties: Name=value&Other=value} (percent-encoded pairs, as in a form body);</li>
 *   <li>header {@code X-Hangar-Property: Name=value} (repeatable; plain text);</li>
 *   <li>header {@code X-Hangar-Property-<name>: value}, kept for old clients: HTTP header names are
 *       case-insensitive and the JDK server hands them over in its own case, so the name is taken in
 *       <b>lower case</b>;</li>
 *   <li>the {@code properties} object of an NDJSON line (see {@link BatchPutHandler}).</li>
 * </ul>
 * Every carrier but the last keeps the name's case. A name given twice (in any carriers), an empty name, a
 * separator character or a property the store or the API sets itself is a 400. Not thread-safe: one per request.
 */
final class MessageProperties {
    static final String PROPERTY_PARAMETER = "property";
    static final String PAIRS_HEADER = "X-Hangar-Properties";
    static final String PROPERTY_HEADER = "X-Hangar-Property";
    private static final String PROPERTY_PREFIX = PROPERTY_HEADER.toLowerCase(Locale.ROOT) + "-";
    /** Set through parameters ({@code key}, {@code tag}) or by the store itself, never as a plain property. */
    private static final Set<String> RESERVED = Set.of(MessageConst.KEYS, MessageConst.TAGS, MessageConst.REAL_TOPIC,
            MessageConst.REAL_QUEUE_ID, MessageConst.TRANSACTION_PREPARED, MessageConst.MSG_REGION);

    private final Map<String, String> properties = new LinkedHashMap<>();

    /** The properties of a single put: its {@code property} parameters and property headers. */
    static MessageProperties of(ApiExchange exchange) {
        MessageProperties p = new MessageProperties();
        for (String pair : exchange.query().all(PROPERTY_PARAMETER)) {
            p.addPair(pair, "query parameter " + PROPERTY_PARAMETER);
        }
        exchange.requestHeaders().forEach((header, values) -> {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.equals(PAIRS_HEADER.toLowerCase(Locale.ROOT))) {
                for (String value : values) {
                    for (String pair : value.split("&")) {
                        if (!pair.isBlank()) {
                            p.addPair(UriCodec.decode(pair.strip(), true), PAIRS_HEADER);
                        }
                    }
                }
            } else if (lower.equals(PROPERTY_HEADER.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> p.addPair(v, PROPERTY_HEADER));
            } else if (lower.startsWith(PROPERTY_PREFIX)) {
                String name = lower.substring(PROPERTY_PREFIX.length());
                values.forEach(v -> p.add(name, v));
            }
        });
        return p;
    }

    /** {@code Name=value}, split at the first '='. */
    private void addPair(String pair, String carrier) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            throw ApiException.badRequest(carrier + " takes name=value, not '" + UriCodec.shorten(pair) + "'");
        }
        add(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
    }

    /** Adds one property; a 400 when it breaks a rule. */
    void add(String name, String value) {
        MessageRequest.checkProperty(name, value);
        if (RESERVED.contains(name)) {
            throw ApiException.badRequest("property " + name + " is set by the store or through the key/tag parameters");
        }
        if (properties.put(name, value) != null) {
            throw ApiException.badRequest("property '" + UriCodec.shorten(name) + "' is given twice");
        }
    }

    /**
     * Sets a property that a first-class parameter ({@code delayLevel}, {@code wait}) stands for; a 400 when a
     * property carrier gave it too.
     */
    void setFromParameter(String name, String value, String parameter) {
        if (properties.containsKey(name)) {
            throw ApiException.badRequest("property " + name + " is given both as a property and as " + parameter
                    + "; give it once");
        }
        properties.put(name, value);
    }

    boolean contains(String name) {
        return properties.containsKey(name);
    }

    Map<String, String> asMap() {
        return properties;
    }
}
