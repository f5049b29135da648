/**
 * CommitLog flush services: {@code realtime} (async flush of the mapped buffer), {@code commit-realtime}
 * (commits the write buffer to the file channel, then flushes it) and {@code group-commit} (sync flush: one
 * fsync acknowledges every put it covers). Exports nothing: the engine reaches the services only through
 * {@link dev.hangar.spi.flush.FlushCommitLogServiceProvider}.
 *
 * @provides dev.hangar.spi.flush.FlushCommitLogServiceProvider
 */
module dev.hangar.flush {
    requires dev.hangar.spi;
    requires org.slf4j;

    provides dev.hangar.spi.flush.FlushCommitLogServiceProvider with
            dev.hangar.flush.RealtimeFlushProvider,
            dev.hangar.flush.CommitRealtimeFlushProvider,
            dev.hangar.flush.GroupCommitFlushProvider;
}
