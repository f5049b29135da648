package dev.hangar.store;

import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.service.RunningFlags;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the store takes a put at all, before the message is looked at: started, not shut down, not read-only,
 * not a slave, writable, and no append stuck in the put lock (page cache busy). A refusal names why.
 *
 * <p>Thread-safe; a put that is admitted costs a few field reads and allocates nothing.
 */
final class PutAdmission {
    /** A slave logs its refusal once per this many puts, so a misdirected producer does not flood the log. */
    private static final long SLAVE_REFUSAL_LOG_EVERY = 50_000;
    private static final Logger LOG = LoggerFactory.getLogger(PutAdmission.class);

    private final BrokerRole role;
    private final String masterAddress;
    private final RunningFlags flags;
    private final long pageCacheBusyMillis;
    private final AtomicLong slaveRefusals = new AtomicLong();

    /**
     * @param masterAddress       a slave's master, named in its refusals
     * @param pageCacheBusyMillis how long an append may hold the put lock before puts are refused OS_PAGE_CACHE_BUSY
     */
    PutAdmission(BrokerRole role, String masterAddress, RunningFlags flags, long pageCacheBusyMillis) {
        this.role = role;
        this.masterAddress = masterAddress;
        this.flags = flags;
        this.pageCacheBusyMillis = pageCacheBusyMillis;
    }

    /** Null when the put may go on, else the refusal (not yet counted). */
    PutMessageResult refusal(StoreRuntime rt, boolean shutdown) {
        if (shutdown) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "the store is shut down");
        }
        if (rt == null) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "the store is not started");
        }
        if (rt.readOnly()) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "the store is open read-only");
        }
        if (role == BrokerRole.SLAVE) {
            if (slaveRefusals.getAndIncrement() % SLAVE_REFUSAL_LOG_EVERY == 0) {
                LOG.warn("this store is a SLAVE of {}: puts are refused ({} so far)", masterAddress,
                        slaveRefusals.get());
            }
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "this store is a SLAVE of "
                    + masterAddress + ": put to the master");
        }
        String notWriter = rt.replication() == null ? null : rt.replication().putRefusal();
        if (notWriter != null) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, notWriter);
        }
        if (!flags.isWritable()) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE,
                    "the store is not writable: " + flags.reason());
        }
        if (rt.commitLog().lockHeldMillis() > pageCacheBusyMillis) {
            return PutMessageResult.refused(PutMessageStatus.OS_PAGE_CACHE_BUSY,
                    "an append has held the put lock for over " + pageCacheBusyMillis + " ms");
        }
        return null;
    }
}
