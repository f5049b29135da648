package dev.hangar.example.tagcounter;

import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Provides the {@code tag-counter} dispatcher and declares its one setting, {@code tag-counter.topics}. */
public final class TagCounterDispatcherProvider implements CommitLogDispatcherProvider {
    /** Which topics are counted: a comma-separated list of topic names, or empty for every topic. */
    public static final ConfigKey<String> TOPICS = ConfigKey.stringKey("tag-counter.topics", "",
            TagCounterDispatcherProvider::isTopicList, "empty, or topic names separated by commas",
            "Topics whose messages are counted (empty: every topic)");

    @Override
    public String name() {
        return "tag-counter";
    }

    @Override
    public String description() {
        return "example plugin: counts messages per topic and tag in tag-counter/counts.properties";
    }

    @Override
    public List<ConfigKey<?>> configKeys() {
        return List.of(TOPICS);
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new TagCounterDispatcher(context.storeRoot().resolve("tag-counter").resolve("counts.properties"),
                topics(context.config().get(TOPICS)));
    }

    /** The topic set of a {@link #TOPICS} value; empty means every topic. */
    static Set<String> topics(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(t -> !t.isEmpty()).collect(Collectors.toSet());
    }

    private static boolean isTopicList(String value) {
        return topics(value).stream().allMatch(t -> t.matches("[%|a-zA-Z0-9_-]{1,127}"));
    }
}
