/**
 * CommitLog flush services: {@code realtime}, {@code commit-realtime}, {@code group-commit}.
 *
 * @provides dev.hangar.spi.flush.FlushCommitLogServiceProvider
 */
module dev.hangar.flush {
    requires dev.hangar.spi;
    requires org.slf4j;
}
