/**
 * Built-in dispatchers: {@code consume-queue} and {@code index}, with their read sides.
 *
 * @provides dev.hangar.spi.dispatch.CommitLogDispatcherProvider
 */
module dev.hangar.dispatch {
    requires dev.hangar.spi;
    requires org.slf4j;
}
