package dev.hangar.spi.mapped;

import dev.hangar.spi.NamedProvider;
import dev.hangar.spi.config.StoreConfig;

/**
 * Provides a mapped-file variant; selected by {@code mappedFile}. Built-ins: {@code mmap} (writes into the
 * mapping), {@code transient-pool} (writes into pooled mlocked direct buffers, committed to the channel).
 */
public interface MappedStorageProvider extends NamedProvider {

    MappedStorage create(StoreConfig config);

    /**
     * True when appends land in a write buffer that a commit service must move to the file channel before a flush
     * can force them: the store then picks a flush service that commits ({@link
     * dev.hangar.spi.flush.FlushCommitLogServiceProvider#isDefaultFor}), and refuses {@code SYNC_FLUSH}, whose
     * waiting put would time out before the asynchronous commit. The default: appends land in the file itself.
     */
    default boolean needsCommitService() {
        return false;
    }

    /**
     * True when the CommitLog files of this variant take concurrent copies ({@link MappedFile#concurrentWriteView()}
     * and the rules there), so that {@code appendMode=concurrent} may run on it; the store refuses that setting with
     * any other variant. The default: not declared, so refused.
     */
    default boolean takesConcurrentAppends() {
        return false;
    }
}
