/**
 * The built-in {@link dev.hangar.spi.flush.FlushCommitLogService} providers and the small parts they share:
 * {@link dev.hangar.flush.ServiceWorker} (one named daemon thread with a cheap wakeup),
 * {@link dev.hangar.flush.CheckpointingFlusher} (one timed flush that stamps the checkpoint) and
 * {@link dev.hangar.flush.DiskFailureReporter} (counts failures, marks the store not writable once).
 */
package dev.hangar.flush;
