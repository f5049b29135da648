package dev.hangar.store.recovery;

/**
 * What recovery did, for the log and {@code stat}.
 *
 * @param abnormal           true when the last shutdown was not clean (abort file found)
 * @param filesScanned       CommitLog files scanned
 * @param messagesScanned    valid records found in the scanned files
 * @param scanStartOffset    where the scan started
 * @param endOffset          the end of the log after recovery
 * @param truncatedAtReason  why the log ended where it did (the first invalid record), or null at a clean end
 * @param filesDropped       files past the end that were removed
 * @param firstUndispatched  the first scanned record a ConsumeQueue lacked (dispatch restarts there), else the end
 * @param redispatched       messages dispatched again because a dispatcher lacked them
 * @param redispatchNanos    time the re-dispatch took (part of {@code millis})
 * @param millis             time taken
 */
public record RecoveryReport(boolean abnormal, int filesScanned, long messagesScanned, long scanStartOffset,
                             long endOffset, String truncatedAtReason, int filesDropped, long firstUndispatched, long redispatched,
                             long redispatchNanos, long millis) {

    public RecoveryReport withRedispatched(long n, long nanos, long totalMillis) {
        return new RecoveryReport(abnormal, filesScanned, messagesScanned, scanStartOffset, endOffset,
                truncatedAtReason, filesDropped, firstUndispatched, n, nanos, totalMillis);
    }
}
