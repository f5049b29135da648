package dev.hangar.launcher.command;

import java.io.PrintWriter;
import java.util.Map;

/** Prints nested maps and lists (a JSON-ready value) as an indented, YAML-like tree for people. Stateless. */
final class TextTree {
    private static final String INDENT = "  ";

    private TextTree() {
    }

    static void print(PrintWriter out, Object value) {
        print(out, value, "");
    }

    private static void print(PrintWriter out, Object value, String indent) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                printEntry(out, indent, e.getKey() + ":", e.getValue());
            }
        } else if (value instanceof Iterable<?> items) {
            for (Object item : items) {
                printEntry(out, indent, "-", item);
            }
        } else {
            out.println(indent + value);
        }
    }

    private static void printEntry(PrintWriter out, String indent, String label, Object value) {
        if (isEmpty(value)) {
            out.println(indent + label + (value instanceof Map ? " {}" : " []"));
        } else if (value instanceof Map<?, ?> || value instanceof Iterable<?>) {
            out.println(indent + label);
            print(out, value, indent + INDENT);
        } else {
            out.println(indent + label + " " + value);
        }
    }

    private static boolean isEmpty(Object value) {
        return (value instanceof Map<?, ?> m && m.isEmpty())
                || (value instanceof Iterable<?> i && !i.iterator().hasNext());
    }
}
