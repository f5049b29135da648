/**
 * The engine: CommitLog, DefaultMessageStore, reput, recovery, retention, stats, and the provider registry
 * that assembles it from configuration.
 *
 * @uses dev.hangar.spi.lock.PutMessageLockProvider
 * @uses dev.hangar.spi.mapped.MappedStorageProvider
 * @uses dev.hangar.spi.flush.FlushCommitLogServiceProvider
 * @uses dev.hangar.spi.dispatch.CommitLogDispatcherProvider
 * @provides dev.hangar.spi.lock.PutMessageLockProvider spin and reentrant
 */
module dev.hangar.store {
    requires transitive dev.hangar.spi;
    requires org.slf4j;

    uses dev.hangar.spi.lock.PutMessageLockProvider;
    uses dev.hangar.spi.mapped.MappedStorageProvider;
    uses dev.hangar.spi.flush.FlushCommitLogServiceProvider;
    uses dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
}
