/**
 * Built-in dispatchers: {@code consume-queue} and {@code index}, with their read sides. Exports nothing: the engine
 * reaches the read sides through {@link dev.hangar.spi.dispatch.ConsumeQueueView} and
 * {@link dev.hangar.spi.dispatch.KeyIndexView} from {@code CommitLogDispatcher.view(Class)}.
 *
 * @provides dev.hangar.spi.dispatch.CommitLogDispatcherProvider
 */
module dev.hangar.dispatch {
    requires dev.hangar.spi;
    requires org.slf4j;

    provides dev.hangar.spi.dispatch.CommitLogDispatcherProvider with
            dev.hangar.dispatch.consumequeue.ConsumeQueueDispatcherProvider,
            dev.hangar.dispatch.index.IndexDispatcherProvider;
}
