package dev.hangar.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The collections of this JVM while a run lasts, each as a window on the {@code System.nanoTime} clock, so a lag
 * sample can be checked against them: a sample whose interval (put answered .. slave holds it) contains a
 * stop-the-world pause was held up by the collector, whichever thread of the pipeline it stopped. The JVM reports
 * a collection's start and end in milliseconds of uptime; they are mapped onto nanoTime with the offset taken at
 * {@link #start}, so a window is exact to about a millisecond, which is fine against a 10 ms target.
 */
final class GcPauses implements AutoCloseable {
    /** One collection: [startNanos, endNanos] on the nanoTime clock, and the collector's name. */
    record Pause(String collector, long startNanos, long endNanos) {
        long millis() {
            return (endNanos - startNanos) / 1_000_000;
        }
    }

    private final List<Pause> pauses = new ArrayList<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;
    /** nanoTime at JVM uptime 0, so uptime millis map onto nanoTime. */
    private final long nanosAtUptimeZero;

    private GcPauses() {
        long uptimeMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        nanosAtUptimeZero = System.nanoTime() - uptimeMillis * 1_000_000;
    }

    static GcPauses start() {
        GcPauses g = new GcPauses();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(g.listener, null, null);
                g.emitters.add(e);
            }
        }
        return g;
    }

    private void onNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long start = nanosAtUptimeZero + info.getGcInfo().getStartTime() * 1_000_000;
        long end = nanosAtUptimeZero + (info.getGcInfo().getEndTime() + 1) * 1_000_000;
        synchronized (pauses) {
            pauses.add(new Pause(info.getGcName() + " (" + info.getGcCause() + ")", start, end));
        }
    }

    /** The collections seen so far. */
    List<Pause> pauses() {
        synchronized (pauses) {
            return List.copyOf(pauses);
        }
    }

    /** True when a collection overlaps [fromNanos, toNanos]. */
    static boolean overlaps(List<Pause> pauses, long fromNanos, long toNanos) {
        for (Pause p : pauses) {
            if (p.startNanos() <= toNanos && p.endNanos() >= fromNanos) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (javax.management.ListenerNotFoundException ignored) {
                // never added
            }
        }
    }
}
