/**
 * The engine: CommitLog, DefaultMessageStore, reput, recovery, retention, stats, and the provider registry
 * that assembles it from configuration. It uses every SPI and never requires a provider module.
 *
 * @uses dev.hangar.spi.lock.PutMessageLockProvider
 * @uses dev.hangar.spi.mapped.MappedStorageProvider
 * @uses dev.hangar.spi.flush.FlushCommitLogServiceProvider
 * @uses dev.hangar.spi.dispatch.CommitLogDispatcherProvider
 * @uses dev.hangar.spi.ha.ReplicationServiceProvider
 * @provides dev.hangar.spi.lock.PutMessageLockProvider spin, adaptive and reentrant
 */
module dev.hangar.store {
    requires transitive dev.hangar.spi;
    requires org.slf4j;

    // The API: DefaultMessageStore and its typed StatsSnapshot, and the provider registry that assembles it.
    exports dev.hangar.store;
    exports dev.hangar.store.assembly;
    // What the operator's commands need beyond the API: message checks and ids (put, get), the live counters
    // (/metrics, /health), and the offline verifier (verify). Nobody else sees these packages.
    exports dev.hangar.store.format to dev.hangar.launcher;
    exports dev.hangar.store.put to dev.hangar.launcher;
    exports dev.hangar.store.service to dev.hangar.launcher;
    exports dev.hangar.store.verify to dev.hangar.launcher;

    uses dev.hangar.spi.lock.PutMessageLockProvider;
    uses dev.hangar.spi.mapped.MappedStorageProvider;
    uses dev.hangar.spi.flush.FlushCommitLogServiceProvider;
    uses dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
    uses dev.hangar.spi.ha.ReplicationServiceProvider;

    provides dev.hangar.spi.lock.PutMessageLockProvider with
            dev.hangar.store.lock.ReentrantPutMessageLockProvider,
            dev.hangar.store.lock.SpinPutMessageLockProvider,
            dev.hangar.store.lock.AdaptivePutMessageLockProvider;
}
