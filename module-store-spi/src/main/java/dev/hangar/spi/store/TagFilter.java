package dev.hangar.spi.store;

import dev.hangar.spi.message.StoredMessage;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * RocketMQ's tag expression as a {@link MessageFilter}: {@code TagA||TagB} accepts messages tagged TagA or TagB,
 * {@code *} (or nothing) accepts all. A read first compares the ConsumeQueue unit's tags code (the tag's
 * {@code String.hashCode()}) without touching the CommitLog, then the decoded message's exact tag: two tags with the
 * same hash ({@code "Aa"} and {@code "BB"}) never let the wrong one through. A message without a tag matches only
 * {@code *}. Immutable and thread-safe.
 */
public final class TagFilter implements MessageFilter {
    private final Set<String> tags;
    private final long[] codes;

    private TagFilter(Set<String> tags) {
        this.tags = Set.copyOf(tags);
        this.codes = tags.stream().mapToLong(t -> (long) t.hashCode()).distinct().toArray();
    }

    /**
     * Parses an expression: tags separated by {@code ||}, white space around each ignored.
     *
     * @return {@link MessageFilter#ALL} for null, blank or {@code *}; else a filter of the tags
     * @throws IllegalArgumentException for an empty tag ({@code A||}, {@code ||}) or {@code *} mixed with tags
     */
    public static MessageFilter parse(String expression) {
        if (expression == null || expression.isBlank() || expression.trim().equals("*")) {
            return MessageFilter.ALL;
        }
        Set<String> tags = new LinkedHashSet<>();
        for (String part : expression.split("\\|\\|", -1)) {
            String tag = part.trim();
            if (tag.isEmpty()) {
                throw new IllegalArgumentException("the tag expression '" + expression + "' has an empty tag; write "
                        + "tags separated by || (TagA||TagB), or * for all");
            }
            if (tag.equals("*")) {
                throw new IllegalArgumentException("the tag expression '" + expression + "' mixes * with tags");
            }
            tags.add(tag);
        }
        return new TagFilter(tags);
    }

    /** The tags accepted. */
    public Set<String> tags() {
        return tags;
    }

    @Override
    public boolean matchesTagsCode(long tagsCode) {
        for (long c : codes) {
            if (c == tagsCode) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean matchesMessage(StoredMessage message) {
        String tag = message.tags();
        return tag != null && tags.contains(tag);
    }

    @Override
    public String toString() {
        return String.join("||", tags);
    }
}
