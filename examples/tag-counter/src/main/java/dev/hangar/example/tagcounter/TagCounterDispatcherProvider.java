package dev.hangar.example.tagcounter;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;

/** Provides the {@code tag-counter} dispatcher. */
public final class TagCounterDispatcherProvider implements CommitLogDispatcherProvider {
    @Override
    public String name() {
        return "tag-counter";
    }

    @Override
    public String description() {
        return "example plugin: counts messages per topic and tag in tag-counter/counts.properties";
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new TagCounterDispatcher(context.storeRoot().resolve("tag-counter").resolve("counts.properties"));
    }
}
