package dev.hangar.dispatch.consumequeue;

import dev.hangar.spi.dispatch.CommitLogLookup;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.format.ConsumeQueueFormat;

/**
 * Finds the queue offset stored closest to a time (RocketMQ's {@code getOffsetInQueueByTime}): a binary search over
 * the queue's units, reading each probed unit's store time from the CommitLog. An exact match wins (the lowest one
 * when several units share the millisecond); otherwise the nearer neighbour, the earlier one on a tie; 0 when the
 * queue holds nothing readable.
 *
 * <p>RocketMQ first picks one file by its modification time and searches only inside it; this search spans every
 * file of the queue, so it does not depend on file times (which a copied store directory does not keep) and gives
 * the same answer whenever RocketMQ's file pick is right.
 *
 * <p>Thread-safety: stateless; safe from any thread.
 */
final class ConsumeQueueTimeSearch {
    private static final long NONE = -1;

    private ConsumeQueueTimeSearch() {
    }

    static long offsetByTime(ConsumeQueue queue, CommitLogLookup commitLog, long timestamp) {
        long low = queue.minOffset();
        long high = queue.maxOffset() - 1;
        long minPhysicOffset = commitLog.minOffset();
        long exact = NONE;
        long left = NONE;
        long leftTime = NONE;
        long right = NONE;
        long rightTime = NONE;
        while (low <= high) {
            long mid = (low + high) >>> 1;
            CqUnit unit = queue.unitAt(mid);
            if (unit == null || ConsumeQueueFormat.isBlank(unit.commitLogOffset(), unit.size())
                    || unit.commitLogOffset() < minPhysicOffset) {
                // gone from the commit log (or never was a message): older than anything still stored
                low = mid + 1;
                left = mid;
                continue;
            }
            long storeTime = commitLog.storeTimestampAt(unit.commitLogOffset(), unit.size());
            if (storeTime < 0) {
                return 0;
            }
            if (storeTime == timestamp) {
                exact = mid;
                high = mid - 1;
            } else if (storeTime > timestamp) {
                high = mid - 1;
                right = mid;
                rightTime = storeTime;
            } else {
                low = mid + 1;
                left = mid;
                leftTime = storeTime;
            }
        }
        if (exact != NONE) {
            return exact;
        }
        if (leftTime == NONE) {
            return right != NONE ? right : Math.max(left, 0);
        }
        if (rightTime == NONE) {
            return left;
        }
        return Math.abs(timestamp - leftTime) > Math.abs(timestamp - rightTime) ? right : left;
    }
}
