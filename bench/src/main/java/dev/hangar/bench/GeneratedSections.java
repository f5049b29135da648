package dev.hangar.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the store benchmark's report into docs/BENCHMARKS.md without touching what others wrote there: the
 * file's preamble (before the first "## " heading) and the report's own "## " sections are replaced by the new
 * report; every other section (the hand-written "## HTTP", the "## Replication" written by
 * {@code run.sh --replication}) is kept, in its order, after them. A section is the report's own when the new
 * report has a section of that title or its title starts with one of {@link #OWNED_PREFIXES} (titles that carried
 * the round count, such as an older "## Results (medians of 3 rounds; ...)", are replaced, not duplicated).
 * Headings inside fenced code blocks are text, not sections.
 */
final class GeneratedSections {
    /** Title beginnings of every section the store benchmark writes, now or in earlier versions. */
    static final List<String> OWNED_PREFIXES = List.of("Machine", "Method", "Targets", "Raw device", "Results",
            "Put stalls", "Every run");

    private GeneratedSections() {
    }

    /** {@code existing} (possibly empty) with its preamble and the report's sections replaced by {@code report}. */
    static String merge(String existing, String report) {
        List<String> reportParts = split(report);
        List<String> ownTitles = new ArrayList<>();
        for (String part : reportParts.subList(1, reportParts.size())) {
            ownTitles.add(title(part));
        }
        StringBuilder out = new StringBuilder(report.endsWith("\n") ? report : report + "\n");
        List<String> parts = split(existing);
        for (String part : parts.subList(1, parts.size())) {
            if (!isOwned(title(part), ownTitles)) {
                if (out.length() > 0 && !out.toString().endsWith("\n\n")) {
                    out.append('\n');
                }
                out.append(part.endsWith("\n") ? part : part + "\n");
            }
        }
        return out.toString();
    }

    static boolean isOwned(String title, List<String> ownTitles) {
        return ownTitles.contains(title) || OWNED_PREFIXES.stream().anyMatch(title::startsWith);
    }

    /** The preamble (possibly empty) and then one string per "## " section, each from its heading line on. */
    static List<String> split(String markdown) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean fenced = false;
        for (String line : markdown.split("(?<=\n)")) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            if (!fenced && line.startsWith("## ")) {
                parts.add(current.toString());
                current.setLength(0);
            }
            current.append(line);
        }
        parts.add(current.toString());
        return parts;
    }

    private static String title(String section) {
        int end = section.indexOf('\n');
        return (end < 0 ? section : section.substring(0, end)).substring(3).strip();
    }
}
