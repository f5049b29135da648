package dev.hangar.dispatch.consumequeue;

import dev.hangar.dispatch.verify.ConsumeQueueVerifier;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.dispatch.DispatcherVerification;

/**
 * Provides the {@code consume-queue} dispatcher ({@link ConsumeQueueDispatcher}). Stateless and thread-safe; each
 * {@link #create} builds a new dispatcher.
 */
public final class ConsumeQueueDispatcherProvider implements CommitLogDispatcherProvider {

    /** The name configuration selects this provider by. */
    public static final String NAME = "consume-queue";

    public ConsumeQueueDispatcherProvider() {
        // found by ServiceLoader
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "ConsumeQueues under consumequeue/<topic>/<queueId>/ (RocketMQ 4.x 20-byte units), with their read side";
    }

    /** The store's {@link #NAME} reads (every read by queue offset) go through this dispatcher's files. */
    @Override
    public boolean storeReadsDependOnIt() {
        return true;
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new ConsumeQueueDispatcher(context);
    }

    /** Checks every ConsumeQueue under {@code consumequeue/}: file sizes and names, every unit against its record. */
    @Override
    public void verify(DispatcherVerification verification) {
        new ConsumeQueueVerifier(verification.storeRoot().resolve("consumequeue"),
                verification.config().consumeQueueFileSize(), verification).verify();
    }
}
