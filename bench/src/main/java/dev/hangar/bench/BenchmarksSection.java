package dev.hangar.bench;

/**
 * Replaces one "## " section of a Markdown file, leaving every other section as it is (several benchmarks write
 * docs/BENCHMARKS.md; each owns its sections). A missing section is added at the end.
 */
final class BenchmarksSection {
    private BenchmarksSection() {
    }

    /**
     * {@code markdown} with the section titled {@code title} (from its "## title" line up to the next "## " line or
     * the end) replaced by {@code body}, which must start with that heading line.
     */
    static String replace(String markdown, String title, String body) {
        String heading = "## " + title + "\n";
        if (!body.startsWith(heading)) {
            throw new IllegalArgumentException("the new section must start with \"" + heading.strip() + "\"");
        }
        String text = body.endsWith("\n") ? body : body + "\n";
        int start = markdown.startsWith(heading) ? 0 : markdown.indexOf("\n" + heading);
        if (start < 0) {
            String sep = markdown.isEmpty() ? "" : markdown.endsWith("\n\n") ? "" : markdown.endsWith("\n") ? "\n" : "\n\n";
            return markdown + sep + text;
        }
        if (start > 0) {
            start++; // keep the newline before the heading
        }
        int next = markdown.indexOf("\n## ", start + heading.length() - 1);
        String after = next < 0 ? "" : "\n" + markdown.substring(next + 1);
        return markdown.substring(0, start) + text + after;
    }
}
