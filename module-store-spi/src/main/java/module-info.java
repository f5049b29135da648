/**
 * Hangar's embedder API and plugin SPIs. Everything the engine and its plugins share is an interface or
 * a value in this module; it requires nothing but {@code java.base}.
 *
 * <p>SPIs, each found by {@link java.util.ServiceLoader} and selected by {@link dev.hangar.spi.NamedProvider#name()}:
 * <ul>
 *   <li>{@link dev.hangar.spi.lock.PutMessageLockProvider} - the lock around the append</li>
 *   <li>{@link dev.hangar.spi.mapped.MappedStorageProvider} - the mapped-file variant and its queues</li>
 *   <li>{@link dev.hangar.spi.flush.FlushCommitLogServiceProvider} - how the commit log reaches the disk</li>
 *   <li>{@link dev.hangar.spi.dispatch.CommitLogDispatcherProvider} - what is built behind the log</li>
 *   <li>{@link dev.hangar.spi.ha.ReplicationServiceProvider} - master/slave replication of the log</li>
 * </ul>
 */
module dev.hangar.spi {
    exports dev.hangar.spi;
    exports dev.hangar.spi.message;
    exports dev.hangar.spi.store;
    exports dev.hangar.spi.config;
    exports dev.hangar.spi.lock;
    exports dev.hangar.spi.mapped;
    exports dev.hangar.spi.flush;
    exports dev.hangar.spi.dispatch;
    exports dev.hangar.spi.format;
    exports dev.hangar.spi.ha;
}
