package dev.hangar.dispatch.index;

import dev.hangar.dispatch.verify.IndexFileVerifier;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.dispatch.DispatcherVerification;

/**
 * Provides the {@code index} dispatcher ({@link IndexDispatcher}). Stateless and thread-safe; each
 * {@link #create} builds a new dispatcher.
 */
public final class IndexDispatcherProvider implements CommitLogDispatcherProvider {

    /** The name configuration selects this provider by. */
    public static final String NAME = "index";

    public IndexDispatcherProvider() {
        // found by ServiceLoader
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "hash index of message keys under index/ (RocketMQ 4.x IndexFile layout), with query by key";
    }

    /** The store's {@link #NAME} reads (queries by key) go through this dispatcher's files. */
    @Override
    public boolean storeReadsDependOnIt() {
        return true;
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new IndexDispatcher(context);
    }

    /** Checks the index files under {@code index/}: sizes, headers and entries. */
    @Override
    public void verify(DispatcherVerification verification) {
        StoreConfig config = verification.config();
        new IndexFileVerifier(verification.storeRoot().resolve("index"), config.get(StoreConfigKeys.MAX_HASH_SLOT_NUM),
                config.get(StoreConfigKeys.MAX_INDEX_NUM), verification).verify();
    }
}
