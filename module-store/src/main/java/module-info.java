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

    exports dev.hangar.store;
    exports dev.hangar.store.assembly;
    exports dev.hangar.store.format;
    exports dev.hangar.store.commitlog;
    exports dev.hangar.store.service;
    exports dev.hangar.store.recovery;
    exports dev.hangar.store.read;
    exports dev.hangar.store.reput;
    exports dev.hangar.store.dispatch;
    exports dev.hangar.store.put;
    exports dev.hangar.store.clean;
    exports dev.hangar.store.verify;
    exports dev.hangar.store.schedule;

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
