package dev.hangar.store.schedule;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.put.DelayLevels;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers delayed messages: for each delay level, reads queue {@code level - 1} of
 * {@link MessageConst#SCHEDULE_TOPIC} in order and, once a message's deliver time has come, puts a copy to its
 * real topic and queue. Progress per level is saved to {@link DelayOffsetFile} after the puts, so a crash can
 * deliver a message twice but never loses one (at-least-once).
 */
public final class ScheduleMessageService implements Runnable {
    /** The group this service reads the schedule topic as; the store does not count its reads as client gets. */
    public static final String READER_GROUP = "hangar-schedule";
    private static final Logger LOG = LoggerFactory.getLogger(ScheduleMessageService.class);
    private static final long MAX_SLEEP_MILLIS = 100;
    private static final int BATCH = 32;

    private final MessageStore store;
    private final java.util.function.BooleanSupplier leads;
    private final DelayLevels levels;
    private final DelayOffsetFile offsetFile;
    private final long persistIntervalMillis;
    private final Map<Integer, Long> offsets = new ConcurrentHashMap<>();
    private volatile boolean stopped;
    private final java.util.concurrent.atomic.AtomicLong passes = new java.util.concurrent.atomic.AtomicLong();
    private Thread thread;
    private long lastPersist;

    public ScheduleMessageService(MessageStore store, DelayLevels levels, DelayOffsetFile offsetFile,
                                  long persistIntervalMillis) {
        this(store, levels, offsetFile, persistIntervalMillis, () -> true);
    }

    /** @param leads false while this store is a node of a consensus group that does not lead it (nothing is due) */
    public ScheduleMessageService(MessageStore store, DelayLevels levels, DelayOffsetFile offsetFile,
                                  long persistIntervalMillis, java.util.function.BooleanSupplier leads) {
        this.leads = leads;
        this.store = store;
        this.levels = levels;
        this.offsetFile = offsetFile;
        this.persistIntervalMillis = persistIntervalMillis;
    }

    public void start() {
        offsets.putAll(offsetFile.read());
        for (int level = 1; level <= levels.maxLevel(); level++) {
            long min = store.getMinOffsetInQueue(MessageConst.SCHEDULE_TOPIC, level - 1);
            long max = store.getMaxOffsetInQueue(MessageConst.SCHEDULE_TOPIC, level - 1);
            long saved = offsets.getOrDefault(level, 0L);
            long corrected = Math.max(min, Math.min(saved, max));
            if (corrected != saved) {
                LOG.warn("delay level {}: saved progress {} corrected to {} (queue holds {}..{})", level, saved,
                        corrected, min, max);
            }
            offsets.put(level, corrected);
        }
        lastPersist = System.currentTimeMillis();
        thread = new Thread(this, "hangar-schedule");
        thread.setDaemon(true);
        thread.start();
    }

    /** Completed passes over every level, so a test can wait for "looked again and delivered nothing". */
    public long passes() {
        return passes.get();
    }

    /** Delivered-up-to offset of a level (for stats and tests). */
    public long offset(int level) {
        return offsets.getOrDefault(level, 0L);
    }

    @Override
    public void run() {
        while (!stopped) {
            long sleep = MAX_SLEEP_MILLIS;
            try {
                // a node of a consensus group delivers only while it leads: a follower's puts are refused, and the
                // leader that takes over continues from its own progress (at least once, as after any failover)
                for (int level = 1; level <= levels.maxLevel() && !stopped && leads.getAsBoolean(); level++) {
                    sleep = Math.min(sleep, deliverDue(level));
                }
                if (System.currentTimeMillis() - lastPersist >= persistIntervalMillis) {
                    persist();
                }
            } catch (RuntimeException e) {
                LOG.error("delivering delayed messages failed; retrying", e);
            }
            passes.incrementAndGet();
            if (!stopped && sleep > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(sleep));
            }
        }
    }

    /** Delivers what is due on one level; returns how long until the next message of the level is due. */
    private long deliverDue(int level) {
        int queueId = level - 1;
        long offset = offsets.getOrDefault(level, 0L);
        while (!stopped) {
            GetMessageResult r = store.getMessage(READER_GROUP, MessageConst.SCHEDULE_TOPIC, queueId, offset,
                    BATCH, null);
            if (r.status() == GetMessageStatus.OFFSET_TOO_SMALL) {
                offset = r.nextBeginOffset();
                continue;
            }
            if (r.status() != GetMessageStatus.FOUND) {
                if (r.nextBeginOffset() > offset && r.status() != GetMessageStatus.NO_MATCHED_LOGIC_QUEUE) {
                    offset = r.nextBeginOffset();
                    offsets.put(level, offset);
                    continue;
                }
                return MAX_SLEEP_MILLIS;
            }
            for (StoredMessage m : r.messages()) {
                long due = levels.deliverTimestamp(level, m.storeTimestamp());
                long now = System.currentTimeMillis();
                if (due > now) {
                    offsets.put(level, offset);
                    return due - now;
                }
                PutMessageResult put = store.putMessage(restore(m));
                if (!put.isOk()) {
                    LOG.warn("delayed message {} could not be delivered ({}: {}); retrying", m.msgId(), put.status(),
                            put.reason());
                    offsets.put(level, offset);
                    return MAX_SLEEP_MILLIS;
                }
                offset = m.queueOffset() + 1;
                offsets.put(level, offset);
            }
        }
        return MAX_SLEEP_MILLIS;
    }

    /** The message as it was before it was diverted: real topic and queue, no delay. */
    static Message restore(StoredMessage m) {
        Message out = new Message(m.property(MessageConst.REAL_TOPIC), m.body())
                .queueId(Integer.parseInt(m.property(MessageConst.REAL_QUEUE_ID)))
                .flag(m.flag())
                .bornTimestamp(m.bornTimestamp())
                .bornHost(m.bornHost())
                .reconsumeTimes(m.reconsumeTimes())
                .sysFlag(m.sysFlag() & ~(MessageSysFlag.BORNHOST_V6_FLAG | MessageSysFlag.STOREHOST_V6_FLAG));
        m.properties().forEach(out::property);
        out.property(MessageConst.DELAY_TIME_LEVEL, null);
        out.property(MessageConst.REAL_TOPIC, null);
        out.property(MessageConst.REAL_QUEUE_ID, null);
        out.waitStoreMsgOk(false);
        return out;
    }

    public void persist() {
        offsetFile.write(offsets);
        lastPersist = System.currentTimeMillis();
    }

    /** Stops delivering and saves progress. */
    public void shutdown() {
        stopped = true;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        persist();
    }
}
