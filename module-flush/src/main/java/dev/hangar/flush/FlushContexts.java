package dev.hangar.flush;

import dev.hangar.spi.flush.FlushContext;
import java.util.Objects;

/** Checks a {@link FlushContext} before a service is built from it, so a missing part fails with its name. */
final class FlushContexts {

    private FlushContexts() {
    }

    static FlushContext requireComplete(FlushContext context) {
        Objects.requireNonNull(context, "FlushContext must not be null");
        Objects.requireNonNull(context.target(), "FlushContext.target must not be null");
        Objects.requireNonNull(context.config(), "FlushContext.config must not be null");
        Objects.requireNonNull(context.checkpoint(), "FlushContext.checkpoint must not be null");
        Objects.requireNonNull(context.health(), "FlushContext.health must not be null");
        Objects.requireNonNull(context.statistics(), "FlushContext.statistics must not be null");
        return context;
    }

    static void requireOffset(long nextOffset) {
        if (nextOffset < 0) {
            throw new IllegalArgumentException("nextOffset must be >= 0, was " + nextOffset);
        }
    }
}
