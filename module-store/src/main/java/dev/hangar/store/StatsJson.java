package dev.hangar.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON form of {@link StatsSnapshot} and its parts: a part's fields are its record components, by name and in
 * declaration order, so each field is declared once, as a component, and its JSON name is the component's name
 * (renaming one renames a field of the {@code stat --json} / {@code /v1/stats} contract, DESIGN.md §6). A part
 * says only how it differs: components left out, a derived field, a field shown only in some states. Values: a
 * nested part by its own {@link Part#toMap()}, a list or map of parts element by element, anything else as it is.
 * Not on a hot path: read per {@code stat} or scrape.
 */
final class StatsJson {
    private StatsJson() {
    }

    /** A record of the snapshot with a JSON form. */
    interface Part {
        /** Nested maps, lists and numbers with the field names of the contract. */
        Map<String, Object> toMap();
    }

    /** Every component of {@code part} but {@code leftOut}, in declaration order. */
    static Map<String, Object> components(Record part, String... leftOut) {
        Set<String> skipped = Set.of(leftOut);
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : part.getClass().getRecordComponents()) {
            if (!skipped.contains(c.getName())) {
                out.put(c.getName(), json(read(part, c)));
            }
        }
        return out;
    }

    /** {@code fields} with {@code name} set to {@code value} right after {@code after}. */
    static Map<String, Object> insertAfter(Map<String, Object> fields, String after, String name, Object value) {
        Map<String, Object> out = new LinkedHashMap<>();
        fields.forEach((k, v) -> {
            out.put(k, v);
            if (k.equals(after)) {
                out.put(name, value);
            }
        });
        return out;
    }

    /** {@code fields} without those of {@code names} whose value is null. */
    static Map<String, Object> withoutNulls(Map<String, Object> fields, String... names) {
        for (String name : names) {
            if (fields.get(name) == null) {
                fields.remove(name);
            }
        }
        return fields;
    }

    /** {@code fields} up to and including {@code last}. */
    static Map<String, Object> upTo(Map<String, Object> fields, String last) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            out.put(e.getKey(), e.getValue());
            if (e.getKey().equals(last)) {
                break;
            }
        }
        return out;
    }

    private static Object json(Object value) {
        if (value instanceof Part part) {
            return part.toMap();
        }
        if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Part) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(element -> out.add(json(element)));
            return out;
        }
        if (value instanceof Map<?, ?> map && !map.isEmpty() && map.values().iterator().next() instanceof Part) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, json(v)));
            return out;
        }
        return value;
    }

    private static Object read(Record part, RecordComponent component) {
        try {
            return component.getAccessor().invoke(part);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + component + " of " + part.getClass().getName(), e);
        }
    }
}
